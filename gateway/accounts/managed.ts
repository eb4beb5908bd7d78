import { Wallet, getAddress } from "ethers";
import type { Provider, Signer } from "ethers";
import { eq } from "drizzle-orm";

import type { Db } from "../store/db.js";
import { managedAccounts } from "../store/schema.js";
import { Sealer } from "./sealed.js";
import type { AccountSigners } from "./signer.js";

/**
 * Managed accounts in the gateway's database: a fresh wallet per account, its private key sealed
 * under the master key (`GATEWAY_ACCOUNT_KEY`). The key is unsealed only to sign, never returned
 * by a route and never logged.
 */
export class ManagedAccounts implements AccountSigners {
  private readonly sealer: Sealer | undefined;

  constructor(
    private readonly db: Db,
    masterKeyHex: string | undefined,
  ) {
    this.sealer = masterKeyHex === undefined ? undefined : new Sealer(masterKeyHex);
  }

  /** Creates a managed account; returns its address only. */
  async create(label = ""): Promise<{ address: string; createdAt: number }> {
    const sealer = this.requireSealer();
    const wallet = Wallet.createRandom();
    const address = wallet.address;
    const createdAt = Math.floor(Date.now() / 1000);
    const sealed = sealer.seal(Buffer.from(wallet.privateKey.slice(2), "hex"), address);
    await this.db.insert(managedAccounts).values({ address, sealed, label, createdAt });
    return { address, createdAt };
  }

  async list(): Promise<Array<{ address: string; label: string; createdAt: number }>> {
    return this.db
      .select({ address: managedAccounts.address, label: managedAccounts.label, createdAt: managedAccounts.createdAt })
      .from(managedAccounts);
  }

  async manages(address: string): Promise<boolean> {
    if (this.sealer === undefined) return false;
    return (await this.row(address)) !== undefined;
  }

  async signer(address: string, provider: Provider): Promise<Signer> {
    const sealer = this.requireSealer();
    const row = await this.row(address);
    if (row === undefined) throw new Error(`the gateway does not manage ${address}`);
    const key = sealer.open(row.sealed, row.address);
    try {
      return new Wallet("0x" + key.toString("hex"), provider);
    } finally {
      key.fill(0);
    }
  }

  private async row(address: string) {
    const [row] = await this.db
      .select()
      .from(managedAccounts)
      .where(eq(managedAccounts.address, getAddress(address)))
      .limit(1);
    return row;
  }

  private requireSealer(): Sealer {
    if (this.sealer === undefined) {
      throw new Error("no account master key: set GATEWAY_ACCOUNT_KEY or GATEWAY_ACCOUNT_KEY_FILE");
    }
    return this.sealer;
  }
}
