import type { Provider, Signer } from "ethers";
import { sql } from "drizzle-orm";

import type { Db } from "../store/db.js";

/**
 * Where the gateway gets a signer for an account it manages. The database-backed implementation
 * ({@link ManagedAccounts}) unseals a local key; a KMS implementation would return a signer whose
 * `signTransaction` calls the KMS (ethers' `AbstractSigner`), with no change to the write routes.
 */
export interface AccountSigners {
  /** Whether the gateway signs for `address` (a managed account) or the client does (external). */
  manages(address: string): Promise<boolean>;
  /** A signer for a managed account, connected to `provider`. */
  signer(address: string, provider: Provider): Promise<Signer>;
}

/** Holds an account across processes while `work` runs. */
export type AccountLock = <T>(account: string, work: () => Promise<T>) => Promise<T>;

/**
 * A PostgreSQL advisory lock per account, held in a transaction for as long as `work` runs (its
 * transactions are sent and mined): gateways sharing one database never send for the same managed
 * account at the same time, so they never pick the same nonce. PostgreSQL only: PGlite is one
 * process's, and a transaction held there would stall every other query of that process.
 */
export function postgresAccountLock(db: Db): AccountLock {
  return (account, work) =>
    db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`gateway-account:${account.toLowerCase()}`}))`);
      return work();
    });
}

/**
 * One queue per account: a managed account's transactions are sent one after the other, each
 * waiting for the previous one's receipt, so concurrent requests of one account never pick the
 * same nonce. Across processes (several gateways on one PostgreSQL) `lock` extends that to every
 * gateway sharing the database.
 */
export class AccountQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  constructor(private readonly lock?: AccountLock) {}

  run<T>(account: string, work: () => Promise<T>): Promise<T> {
    const key = account.toLowerCase();
    const previous = this.tails.get(key) ?? Promise.resolve();
    const held = this.lock === undefined ? work : () => this.lock!(key, work);
    const next = previous.then(held, held);
    const tail = next.catch(() => {});
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }
}
