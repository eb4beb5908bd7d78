import type { TransactionReceipt } from "ethers";

import { providerRegistryAbi } from "../abis/providerRegistry.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import { InvalidParameterError } from "../errors.js";
import type { BaseError, ContractRevertedError } from "../errors.js";

export interface WithdrawCollateralParameters {
  /** Collateral base units, at most what `getProviderAccount` reports as `withdrawable`. */
  amount: bigint;
}

export type WithdrawCollateralErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds the provider's `withdrawCollateral(amount)`: collateral beyond what its available capacity
 * and open redemptions need, once the staking period has ended (`StakingPeriodActive` before,
 * `InsufficientCollateral` above the excess).
 *
 * @example
 * const transaction = prepareWithdrawCollateral(client, { amount: 120_000_000n });
 */
export function prepareWithdrawCollateral(
  client: ProtocolClient,
  { amount }: WithdrawCollateralParameters,
): PreparedTransaction {
  if (amount <= 0n) throw new InvalidParameterError("amount", "must be positive");
  const data = encodeFunctionCall(providerRegistryAbi, "withdrawCollateral", [amount]);
  return { to: addressOf(client, "ProviderRegistry"), data, value: 0n };
}

/** Withdraws collateral and returns the hash; a refusal (not registered, no allowance) throws before sending. */
export async function withdrawCollateral(
  client: ProtocolClient,
  parameters: WithdrawCollateralParameters,
): Promise<string> {
  return sendPrepared(client, prepareWithdrawCollateral(client, parameters), "withdrawCollateral");
}

/**
 * Withdraws and waits for the receipt.
 *
 * @example
 * await withdrawCollateralSync(client, { amount: 120_000_000n });
 */
export async function withdrawCollateralSync(
  client: ProtocolClient,
  parameters: WithdrawCollateralParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await withdrawCollateral(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "withdrawCollateral") };
}
