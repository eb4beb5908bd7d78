import { ZeroAddress } from "ethers";
import { sql } from "drizzle-orm";

import { interfaceOf } from "@compute-capacity/sdk";
import { sstbAbi } from "@compute-capacity/sdk/abis";
import type { Tx } from "../../store/db.js";
import { balances } from "../../store/schema.js";
import { addr, big } from "../module.js";
import type { ContractModule, StoredEvent } from "../module.js";

async function credit(tx: Tx, chainId: number, account: string, delta: bigint): Promise<void> {
  await tx
    .insert(balances)
    .values({ chainId, account: account.toLowerCase(), balance: delta.toString() })
    .onConflictDoUpdate({
      target: [balances.chainId, balances.account],
      set: { balance: sql`${balances.balance} + ${delta.toString()}::numeric` },
    });
}

/** sSTB balances on every chain, from `Transfer` (mints and burns included). */
export const sstbModule: ContractModule = {
  contract: "SSTB",
  iface: interfaceOf(sstbAbi),
  async apply(tx: Tx, e: StoredEvent) {
    if (e.name !== "Transfer") return;
    const value = big(e.args, "value");
    if (value === 0n) return;
    const from = addr(e.args, "from");
    const to = addr(e.args, "to");
    if (from !== ZeroAddress) await credit(tx, e.chainId, from, -value);
    if (to !== ZeroAddress) await credit(tx, e.chainId, to, value);
  },
};
