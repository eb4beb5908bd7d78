import type { TransactionReceipt } from "ethers";

import { redemptionManagerAbi } from "../abis/redemptionManager.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import type { BaseError, ContractRevertedError, InvalidParameterError } from "../errors.js";

export interface ConfirmRedemptionParameters {
  redemptionId: bigint;
}

export type ConfirmRedemptionErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds the user's `confirmRedemption(id)`: the provider's lock is released and its reputation rises.
 *
 * @example
 * const transaction = prepareConfirmRedemption(client, { redemptionId: 1n });
 */
export function prepareConfirmRedemption(
  client: ProtocolClient,
  { redemptionId }: ConfirmRedemptionParameters,
): PreparedTransaction {
  const data = encodeFunctionCall(redemptionManagerAbi, "confirmRedemption", [redemptionId]);
  return { to: addressOf(client, "RedemptionManager"), data, value: 0n };
}

/**
 * Confirms a fulfilled redemption and returns the hash; a refusal throws a `ContractRevertedError`
 * (for instance `reason` "Only user can confirm" or "Not fulfilled", verbatim).
 */
export async function confirmRedemption(
  client: ProtocolClient,
  parameters: ConfirmRedemptionParameters,
): Promise<string> {
  return sendPrepared(client, prepareConfirmRedemption(client, parameters), "confirmRedemption");
}

/** Confirms and waits for the receipt. */
export async function confirmRedemptionSync(
  client: ProtocolClient,
  parameters: ConfirmRedemptionParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await confirmRedemption(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "confirmRedemption") };
}
