import { and, eq } from "drizzle-orm";

import { interfaceOf } from "@compute-capacity/sdk";
import { mintingAgentAbi } from "@compute-capacity/sdk/abis";
import type { Tx } from "../../store/db.js";
import { computeUnits } from "../../store/schema.js";
import { big, num } from "../module.js";
import type { ContractModule, StoredEvent } from "../module.js";

/** `SSTBMinted` completes a compute unit's row with the collateral posted and the staking period. */
export const mintingAgentModule: ContractModule = {
  contract: "MintingAgent",
  iface: interfaceOf(mintingAgentAbi),
  async apply(tx: Tx, e: StoredEvent) {
    if (e.name !== "SSTBMinted") return;
    await tx
      .update(computeUnits)
      .set({
        collateralAmount: big(e.args, "collateralAmount").toString(),
        stakingPeriod: num(e.args, "stakingPeriod"),
      })
      .where(and(eq(computeUnits.chainId, e.chainId), eq(computeUnits.cuId, num(e.args, "cuId"))));
  },
};
