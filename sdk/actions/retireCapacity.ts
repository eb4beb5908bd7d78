import type { TransactionReceipt } from "ethers";

import { mintingAgentAbi } from "../abis/mintingAgent.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import { InvalidParameterError } from "../errors.js";
import type { BaseError, ContractRevertedError } from "../errors.js";

export interface RetireCapacityParameters {
  /** sSTB base units of available capacity to retire (and of sSTB to burn; approve first, {@link approveRetirement}). */
  amount: bigint;
}

export type RetireCapacityErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds the provider's `retireCapacity(amount)` on the minting agent: the sSTB is burned, the
 * capacity leaves the registry and the collateral that backed it becomes withdrawable excess.
 * Only after the staking period (`StakingPeriodActive`) and within the available capacity
 * (`InsufficientCapacity`).
 *
 * @example
 * const transaction = prepareRetireCapacity(client, { amount: parseEther("10") });
 */
export function prepareRetireCapacity(
  client: ProtocolClient,
  { amount }: RetireCapacityParameters,
): PreparedTransaction {
  if (amount <= 0n) throw new InvalidParameterError("amount", "must be positive");
  const data = encodeFunctionCall(mintingAgentAbi, "retireCapacity", [amount]);
  return { to: addressOf(client, "MintingAgent"), data, value: 0n };
}

/** Retires capacity and returns the hash; a refusal throws a `ContractRevertedError` before sending. */
export async function retireCapacity(client: ProtocolClient, parameters: RetireCapacityParameters): Promise<string> {
  return sendPrepared(client, prepareRetireCapacity(client, parameters), "retireCapacity");
}

/**
 * Retires capacity and waits for the receipt.
 *
 * @example
 * await retireCapacitySync(client, { amount: parseEther("10") });
 */
export async function retireCapacitySync(
  client: ProtocolClient,
  parameters: RetireCapacityParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await retireCapacity(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "retireCapacity") };
}
