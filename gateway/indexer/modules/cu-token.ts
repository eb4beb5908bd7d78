import { and, eq } from "drizzle-orm";

import { interfaceOf } from "@compute-capacity/sdk";
import { cuTokenAbi } from "@compute-capacity/sdk/abis";
import type { Tx } from "../../store/db.js";
import { computeUnits, verifications } from "../../store/schema.js";
import { addr, big, num } from "../module.js";
import type { ContractModule, StoredEvent } from "../module.js";

type Specs = Record<
  "cpuCores" | "ramGb" | "storageGb" | "networkMbps" | "cpuScore" | "memoryScore" | "storageScore" | "networkScore",
  string
>;

/** Compute units, from `ComputeUnitVerified` (the unit's whole record is in the event). */
export const cuTokenModule: ContractModule = {
  contract: "CUToken",
  iface: interfaceOf(cuTokenAbi),
  async apply(tx: Tx, e: StoredEvent) {
    if (e.name !== "ComputeUnitVerified") return;
    const a = e.args;
    const specs = a.specs as Specs;
    const provider = addr(a, "provider");
    const cuId = num(a, "cuId");
    await tx.insert(computeUnits).values({
      chainId: e.chainId,
      cuId,
      cuHash: a.cuHash as string,
      cuValue: big(a, "cuValue").toString(),
      providerId: provider,
      providerLower: provider.toLowerCase(),
      verifiedAt: num(a, "verifiedAt"),
      cpuCores: Number(specs.cpuCores),
      ramGb: Number(specs.ramGb),
      storageGb: Number(specs.storageGb),
      networkMbps: Number(specs.networkMbps),
      cpuScore: Number(specs.cpuScore),
      memoryScore: Number(specs.memoryScore),
      storageScore: Number(specs.storageScore),
      networkScore: Number(specs.networkScore),
    });
    // the attestation consumed earlier in the same call vouched for this unit
    await tx
      .update(verifications)
      .set({ cuId })
      .where(and(eq(verifications.verificationId, a.cuHash as string), eq(verifications.chainId, e.chainId)));
  },
};
