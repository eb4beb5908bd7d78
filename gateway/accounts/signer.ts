import type { Provider, Signer } from "ethers";

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

/**
 * One queue per account: a managed account's transactions are sent one after the other, each
 * waiting for the previous one's receipt, so concurrent requests of one account never pick the
 * same nonce. In one process only: several gateways sharing a database must not manage the same
 * account (docs/decisions.md).
 */
export class AccountQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(account: string, work: () => Promise<T>): Promise<T> {
    const key = account.toLowerCase();
    const previous = this.tails.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.catch(() => {});
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }
}
