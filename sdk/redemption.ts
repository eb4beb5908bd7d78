import type { EnvelopeContext } from "./access-details.js";

/** `RedemptionManager.RedemptionStatus`, by index, as the API names them. */
export const REDEMPTION_STATUSES = [
  "none",
  "pending",
  "fulfilled",
  "confirmed",
  "expired",
  "disputed",
  "resolved",
] as const;
export type RedemptionStatusName = (typeof REDEMPTION_STATUSES)[number];

/** `IRedemptionManager.IssueType` (docs/decisions/0012-disputes-and-rulings.md says when to use which). */
export const IssueType = {
  NotDelivered: 0n,
  AccessFailure: 1n,
  ResourceMismatch: 2n,
  PerformanceShortfall: 3n,
  Other: 4n,
} as const;

/** The API name of an on-chain status value. */
export function statusName(status: bigint): RedemptionStatusName {
  const name = REDEMPTION_STATUSES[Number(status)];
  if (name === undefined) throw new Error(`unknown redemption status ${status}`);
  return name;
}

/** The envelope context of a redemption of `manager` on `chainId`. */
export async function envelopeContext(
  manager: { getAddress(): Promise<string> },
  redemptionId: bigint,
  chainId: bigint,
): Promise<EnvelopeContext> {
  return { chainId, redemptionManager: await manager.getAddress(), redemptionId };
}
