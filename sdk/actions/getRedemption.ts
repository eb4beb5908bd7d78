import { redemptionManagerAbi } from "../abis/redemptionManager.js";
import { redemptionViewsAbi } from "../abis/redemptionViews.js";
import type { ProtocolClient } from "../client.js";
import { deployedReader } from "../contract-calls.js";
import type { BaseError, ContractRevertedError, InvalidParameterError } from "../errors.js";
import { getContractError } from "../revert-decoding.js";
import { statusName } from "../redemption.js";
import type { RedemptionStatusName } from "../redemption.js";

export interface GetRedemptionParameters {
  redemptionId: bigint;
}

/** The spec's record (`redemptions(id)`, fields in its order) with the derived status. */
export interface GetRedemptionReturnType {
  user: string;
  amount: bigint;
  timestamp: bigint;
  provider: string;
  fulfilled: boolean;
  confirmed: boolean;
  /** `redemptionStatus(id)` as the API names it: pending, fulfilled, confirmed, expired, disputed, resolved. */
  status: RedemptionStatusName;
}

export type GetRedemptionErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Reads a redemption's record and status.
 *
 * @example
 * const { status, amount } = await getRedemption(client, { redemptionId: 1n });
 */
export async function getRedemption(
  client: ProtocolClient,
  { redemptionId }: GetRedemptionParameters,
): Promise<GetRedemptionReturnType> {
  const manager = deployedReader(client, "RedemptionManager", redemptionManagerAbi);
  const views = deployedReader(client, "RedemptionViews", redemptionViewsAbi);
  try {
    const [record, status] = await Promise.all([
      manager.redemptions(redemptionId),
      views.redemptionStatus(redemptionId),
    ]);
    return {
      user: record.user,
      amount: record.amount,
      timestamp: record.timestamp,
      provider: record.provider,
      fulfilled: record.fulfilled,
      confirmed: record.confirmed,
      status: statusName(status),
    };
  } catch (error) {
    throw getContractError(error, { functionName: "redemptions" });
  }
}
