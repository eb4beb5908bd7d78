import type { TransactionReceipt } from "ethers";

import { providerRegistryAbi } from "../abis/providerRegistry.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import { InvalidParameterError } from "../errors.js";
import type { BaseError, ContractRevertedError } from "../errors.js";

export interface DepositCollateralParameters {
  /** Collateral base units; approve the registry for them first ({@link approveCollateral}). */
  amount: bigint;
}

export type DepositCollateralErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds the provider's `depositCollateral(amount)`: free collateral backs capacity to be minted
 * (the registry's ratio times the collateral price per sSTB) and can be withdrawn while it backs
 * nothing.
 *
 * @example
 * const transaction = prepareDepositCollateral(client, { amount: 120_000_000n });
 */
export function prepareDepositCollateral(
  client: ProtocolClient,
  { amount }: DepositCollateralParameters,
): PreparedTransaction {
  if (amount <= 0n) throw new InvalidParameterError("amount", "must be positive");
  const data = encodeFunctionCall(providerRegistryAbi, "depositCollateral", [amount]);
  return { to: addressOf(client, "ProviderRegistry"), data, value: 0n };
}

/** Deposits collateral and returns the hash; a refusal (not registered, no allowance) throws before sending. */
export async function depositCollateral(
  client: ProtocolClient,
  parameters: DepositCollateralParameters,
): Promise<string> {
  return sendPrepared(client, prepareDepositCollateral(client, parameters), "depositCollateral");
}

/**
 * Deposits and waits for the receipt.
 *
 * @example
 * await depositCollateralSync(client, { amount: 120_000_000n });
 */
export async function depositCollateralSync(
  client: ProtocolClient,
  parameters: DepositCollateralParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await depositCollateral(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "depositCollateral") };
}
