import { redemptionViewsAbi } from "../abis/redemptionViews.js";
import { addressOf } from "../client.js";
import type { ProtocolClient } from "../client.js";
import { readContract } from "../contract-calls.js";
import type { BaseError, ContractRevertedError, InvalidParameterError } from "../errors.js";

export interface GetLeaseIdParameters {
  redemptionId: bigint;
}

export type GetLeaseIdErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * The lease a redemption belongs to (`leaseIdOf`): its own id once fulfilled, the renewed lease's
 * id for a renewal, null before fulfilment.
 *
 * @example
 * const leaseId = await getLeaseId(client, { redemptionId: 4n });
 * const lease = leaseId === null ? null : await getLease(client, { leaseId });
 */
export async function getLeaseId(
  client: ProtocolClient,
  { redemptionId }: GetLeaseIdParameters,
): Promise<bigint | null> {
  const leaseId = await readContract(client, {
    abi: redemptionViewsAbi,
    address: addressOf(client, "RedemptionViews"),
    functionName: "leaseIdOf",
    args: [redemptionId],
  });
  return leaseId === 0n ? null : leaseId;
}
