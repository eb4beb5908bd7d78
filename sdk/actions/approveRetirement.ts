import type { TransactionReceipt } from "ethers";

import { sstbAbi } from "../abis/sstb.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import { InvalidParameterError } from "../errors.js";
import type { BaseError, ContractRevertedError } from "../errors.js";

export interface ApproveRetirementParameters {
  /** sSTB base units the minting agent may burn. */
  amount: bigint;
}

export type ApproveRetirementErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds sSTB's `approve(mintingAgent, amount)`: `retireCapacity` burns the sSTB it retires from
 * the provider (`burnFrom`).
 *
 * @example
 * const transaction = prepareApproveRetirement(client, { amount: parseEther("10") });
 */
export function prepareApproveRetirement(
  client: ProtocolClient,
  { amount }: ApproveRetirementParameters,
): PreparedTransaction {
  if (amount <= 0n) throw new InvalidParameterError("amount", "must be positive");
  const data = encodeFunctionCall(sstbAbi, "approve", [addressOf(client, "MintingAgent"), amount]);
  return { to: addressOf(client, "SSTB"), data, value: 0n };
}

/** Approves the burn and returns the hash. */
export async function approveRetirement(
  client: ProtocolClient,
  parameters: ApproveRetirementParameters,
): Promise<string> {
  return sendPrepared(client, prepareApproveRetirement(client, parameters), "approve");
}

/**
 * Approves the burn and waits for the receipt.
 *
 * @example
 * await approveRetirementSync(client, { amount });
 */
export async function approveRetirementSync(
  client: ProtocolClient,
  parameters: ApproveRetirementParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await approveRetirement(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "approve") };
}
