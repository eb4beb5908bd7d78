import type { TransactionReceipt } from "ethers";

import { redemptionViewsAbi } from "../abis/redemptionViews.js";
import { sstbAbi } from "../abis/sstb.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { deployedReader, encodeFunctionCall } from "../contract-calls.js";
import { InvalidParameterError } from "../errors.js";
import type { BaseError, ContractRevertedError } from "../errors.js";

export interface ApproveRedemptionParameters {
  /** sSTB base units to redeem; the approval covers it plus the redemption fee (`quoteFee`). */
  amount: bigint;
}

export type ApproveRedemptionReturnType = PreparedTransaction & {
  /** What the approval allows the manager to take: `amount` plus the fee. */
  total: bigint;
};

export type ApproveRedemptionErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds the sSTB approval a redemption needs: the redemption manager may take `amount` plus the
 * fee (10 bps, rounded up, quoted by the manager). Reads the quote; sends nothing.
 *
 * @param client - the deployment's client (its runner reads the quote)
 * @param parameters - the amount to redeem
 * @returns the transaction (`to` is sSTB) and the approved total
 * @example
 * const { to, data, value, total } = await prepareApproveRedemption(client, { amount: parseEther("5") });
 */
export async function prepareApproveRedemption(
  client: ProtocolClient,
  { amount }: ApproveRedemptionParameters,
): Promise<ApproveRedemptionReturnType> {
  if (amount <= 0n) throw new InvalidParameterError("amount", "must be positive");
  const manager = addressOf(client, "RedemptionManager");
  const [, total] = await deployedReader(client, "RedemptionViews", redemptionViewsAbi).quoteFee(amount);
  const data = encodeFunctionCall(sstbAbi, "approve", [manager, total]);
  return { to: addressOf(client, "SSTB"), data, value: 0n, total };
}

/**
 * Approves the redemption manager for `amount` plus the fee and returns the transaction's hash.
 *
 * @example
 * const hash = await approveRedemption(client, { amount: parseEther("5") });
 */
export async function approveRedemption(
  client: ProtocolClient,
  parameters: ApproveRedemptionParameters,
): Promise<string> {
  const { to, data, value } = await prepareApproveRedemption(client, parameters);
  return sendPrepared(client, { to, data, value }, "approve");
}

/**
 * Approves and waits for the receipt.
 *
 * @example
 * const { receipt, total } = await approveRedemptionSync(client, { amount: parseEther("5") });
 */
export async function approveRedemptionSync(
  client: ProtocolClient,
  parameters: ApproveRedemptionParameters,
): Promise<{ receipt: TransactionReceipt; total: bigint }> {
  const { to, data, value, total } = await prepareApproveRedemption(client, parameters);
  const hash = await sendPrepared(client, { to, data, value }, "approve");
  return { receipt: await waitForReceipt(client, hash, "approve"), total };
}
