import { redemptionViewsAbi } from "../abis/redemptionViews.js";
import type { ProtocolClient } from "../client.js";
import { deployedReader } from "../contract-calls.js";
import { getContractError } from "../revert-decoding.js";
import type { BaseError, InvalidParameterError } from "../errors.js";
import { leaseStatusName } from "../lease.js";
import type { LeaseStatusName } from "../lease.js";

export interface GetLeaseStatusParameters {
  leaseId: bigint;
}

export type GetLeaseStatusErrorType = InvalidParameterError | BaseError;

/**
 * Where a lease is (`leaseStatus`): `none`, `active`, `ended` (from its stated end's second on, by
 * the chain's clock) or `terminated`. What a provider checks before it reclaims resources.
 *
 * @example
 * if ((await getLeaseStatus(client, { leaseId })) === "terminated") await reclaim(leaseId);
 */
export async function getLeaseStatus(
  client: ProtocolClient,
  { leaseId }: GetLeaseStatusParameters,
): Promise<LeaseStatusName> {
  try {
    return leaseStatusName(await deployedReader(client, "RedemptionViews", redemptionViewsAbi).leaseStatus(leaseId));
  } catch (error) {
    throw getContractError(error, { functionName: "leaseStatus" });
  }
}
