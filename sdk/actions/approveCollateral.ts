import type { TransactionReceipt } from "ethers";

import { erc20Abi } from "../abis/erc20.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import { InvalidParameterError } from "../errors.js";
import type { BaseError, ContractRevertedError } from "../errors.js";

export interface ApproveCollateralParameters {
  /** Collateral base units (the token's own decimals, 6 for USDC). */
  amount: bigint;
  /**
   * Who takes it: the registry for `depositCollateral`, the minting agent for the collateral a
   * `verifyAndMintSSTB` brings along.
   */
  spender: "ProviderRegistry" | "MintingAgent";
}

export type ApproveCollateralErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds the collateral stablecoin's `approve(spender, amount)` (the deployment's
 * `CollateralToken`), before a deposit or a mint that brings collateral.
 *
 * @example
 * const transaction = prepareApproveCollateral(client, { amount: 120_000_000n, spender: "ProviderRegistry" });
 */
export function prepareApproveCollateral(
  client: ProtocolClient,
  { amount, spender }: ApproveCollateralParameters,
): PreparedTransaction {
  if (amount <= 0n) throw new InvalidParameterError("amount", "must be positive");
  const data = encodeFunctionCall(erc20Abi, "approve", [addressOf(client, spender), amount]);
  return { to: addressOf(client, "CollateralToken"), data, value: 0n };
}

/** Approves the collateral and returns the hash. */
export async function approveCollateral(
  client: ProtocolClient,
  parameters: ApproveCollateralParameters,
): Promise<string> {
  return sendPrepared(client, prepareApproveCollateral(client, parameters), "approve");
}

/**
 * Approves the collateral and waits for the receipt.
 *
 * @example
 * await approveCollateralSync(client, { amount, spender: "MintingAgent" });
 */
export async function approveCollateralSync(
  client: ProtocolClient,
  parameters: ApproveCollateralParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await approveCollateral(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "approve") };
}
