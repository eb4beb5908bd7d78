import type { TransactionReceipt } from "ethers";

import { protocolGovernorAbi } from "../abis/protocolGovernor.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import type { BaseError, ContractRevertedError, InvalidParameterError } from "../errors.js";
import { descriptionHash } from "../governance.js";
import type { Proposal } from "../governance.js";

export interface QueueProposalParameters {
  /** The proposal as proposed (its calls and description). */
  proposal: Proposal;
}

export type QueueProposalErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds the governor's `queue(...)`: a proposal that passed goes into the timelock, executable
 * after its delay. Anyone may send it.
 *
 * @example
 * const transaction = prepareQueueProposal(client, { proposal });
 */
export function prepareQueueProposal(
  client: ProtocolClient,
  { proposal }: QueueProposalParameters,
): PreparedTransaction {
  const { targets, values, calldatas } = proposal;
  const data = encodeFunctionCall(protocolGovernorAbi, "queue", [
    targets,
    values,
    calldatas,
    descriptionHash(proposal),
  ]);
  return { to: addressOf(client, "ProtocolGovernor"), data, value: 0n };
}

/**
 * Queues a passed proposal and returns the transaction's hash; one that has not passed is refused
 * (`GovernorUnexpectedProposalState`) before anything is sent.
 */
export async function queueProposal(client: ProtocolClient, parameters: QueueProposalParameters): Promise<string> {
  return sendPrepared(client, prepareQueueProposal(client, parameters), "queue");
}

/** Queues a passed proposal and waits for the receipt. */
export async function queueProposalSync(
  client: ProtocolClient,
  parameters: QueueProposalParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await queueProposal(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "queue") };
}
