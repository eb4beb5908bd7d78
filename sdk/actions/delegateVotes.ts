import { isAddress } from "ethers";
import type { TransactionReceipt } from "ethers";

import { governanceTokenAbi } from "../abis/governanceToken.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import { InvalidParameterError } from "../errors.js";
import type { BaseError, ContractRevertedError } from "../errors.js";

export interface DelegateVotesParameters {
  /** Who votes with the caller's governance tokens (the caller's own address to vote itself). */
  delegatee: string;
}

export type DelegateVotesErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds the governance token's `delegate(delegatee)`: tokens count as votes only once delegated,
 * from the next block's snapshots on.
 *
 * @example
 * const transaction = prepareDelegateVotes(client, { delegatee: await signer.getAddress() });
 */
export function prepareDelegateVotes(
  client: ProtocolClient,
  { delegatee }: DelegateVotesParameters,
): PreparedTransaction {
  if (!isAddress(delegatee)) throw new InvalidParameterError("delegatee", "must be an address");
  const data = encodeFunctionCall(governanceTokenAbi, "delegate", [delegatee]);
  return { to: addressOf(client, "GovernanceToken"), data, value: 0n };
}

/** Delegates the caller's votes and returns the transaction's hash. */
export async function delegateVotes(client: ProtocolClient, parameters: DelegateVotesParameters): Promise<string> {
  return sendPrepared(client, prepareDelegateVotes(client, parameters), "delegate");
}

/** Delegates the caller's votes and waits for the receipt. */
export async function delegateVotesSync(
  client: ProtocolClient,
  parameters: DelegateVotesParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await delegateVotes(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "delegate") };
}
