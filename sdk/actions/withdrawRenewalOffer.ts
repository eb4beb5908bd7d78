import type { TransactionReceipt } from "ethers";

import { redemptionManagerAbi } from "../abis/redemptionManager.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import type { BaseError, ContractRevertedError, InvalidParameterError } from "../errors.js";

export interface WithdrawRenewalOfferParameters {
  leaseId: bigint;
}

export type WithdrawRenewalOfferErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds the provider's `withdrawRenewalOffer(leaseId)`: the standing offer can no longer be
 * accepted (`RenewalOfferNotFound` when there is none).
 *
 * @example
 * const transaction = prepareWithdrawRenewalOffer(client, { leaseId: 3n });
 */
export function prepareWithdrawRenewalOffer(
  client: ProtocolClient,
  { leaseId }: WithdrawRenewalOfferParameters,
): PreparedTransaction {
  const data = encodeFunctionCall(redemptionManagerAbi, "withdrawRenewalOffer", [leaseId]);
  return { to: addressOf(client, "RedemptionManager"), data, value: 0n };
}

/**
 * Withdraws the standing renewal offer and returns the hash.
 *
 * @example
 * const hash = await withdrawRenewalOffer(providerClient, { leaseId });
 */
export async function withdrawRenewalOffer(
  client: ProtocolClient,
  parameters: WithdrawRenewalOfferParameters,
): Promise<string> {
  return sendPrepared(client, prepareWithdrawRenewalOffer(client, parameters), "withdrawRenewalOffer");
}

/**
 * Withdraws the standing renewal offer and waits for the receipt.
 *
 * @example
 * await withdrawRenewalOfferSync(providerClient, { leaseId });
 */
export async function withdrawRenewalOfferSync(
  client: ProtocolClient,
  parameters: WithdrawRenewalOfferParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await withdrawRenewalOffer(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "withdrawRenewalOffer") };
}
