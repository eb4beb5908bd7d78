import type { TransactionReceipt } from "ethers";

import { protocolGovernorAbi } from "../abis/protocolGovernor.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import { InvalidParameterError } from "../errors.js";
import type { BaseError, ContractRevertedError } from "../errors.js";
import { Vote } from "../governance.js";

export interface CastVoteParameters {
  proposalId: bigint;
  /** `For`, `Against` or `Abstain`. */
  support: keyof typeof Vote;
  /** A reason recorded with the vote (`castVoteWithReason`). */
  reason?: string;
}

export type CastVoteErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds the governor's `castVote(proposalId, support)` (or `castVoteWithReason`): the voter's
 * weight is its delegated votes at the proposal's snapshot.
 *
 * @example
 * const transaction = prepareCastVote(client, { proposalId, support: "For" });
 */
export function prepareCastVote(
  client: ProtocolClient,
  { proposalId, support, reason }: CastVoteParameters,
): PreparedTransaction {
  const vote = Vote[support];
  if (vote === undefined) throw new InvalidParameterError("support", 'must be "For", "Against" or "Abstain"');
  const data =
    reason === undefined
      ? encodeFunctionCall(protocolGovernorAbi, "castVote", [proposalId, vote])
      : encodeFunctionCall(protocolGovernorAbi, "castVoteWithReason", [proposalId, vote, reason]);
  return { to: addressOf(client, "ProtocolGovernor"), data, value: 0n };
}

/**
 * Votes and returns the transaction's hash.
 *
 * @example
 * const hash = await castVote(client, { proposalId, support: "Against", reason: "fee too high" });
 */
export async function castVote(client: ProtocolClient, parameters: CastVoteParameters): Promise<string> {
  return sendPrepared(client, prepareCastVote(client, parameters), "castVote");
}

/** Votes and waits for the receipt. */
export async function castVoteSync(
  client: ProtocolClient,
  parameters: CastVoteParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await castVote(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "castVote") };
}
