import type { TransactionReceipt } from "ethers";

import { protocolGovernorAbi } from "../abis/protocolGovernor.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import type { BaseError, ContractRevertedError, InvalidParameterError } from "../errors.js";
import { descriptionHash } from "../governance.js";
import type { Proposal } from "../governance.js";

export interface ExecuteProposalParameters {
  /** The proposal as proposed (its calls and description). */
  proposal: Proposal;
}

export type ExecuteProposalErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds the governor's `execute(...)`: the timelock makes the proposal's calls once its delay has
 * passed. Anyone may send it; the value sent is the sum of the calls' values.
 *
 * @example
 * const transaction = prepareExecuteProposal(client, { proposal });
 */
export function prepareExecuteProposal(
  client: ProtocolClient,
  { proposal }: ExecuteProposalParameters,
): PreparedTransaction {
  const { targets, values, calldatas } = proposal;
  const data = encodeFunctionCall(protocolGovernorAbi, "execute", [
    targets,
    values,
    calldatas,
    descriptionHash(proposal),
  ]);
  const value = values.reduce((sum, v) => sum + v, 0n);
  return { to: addressOf(client, "ProtocolGovernor"), data, value };
}

/**
 * Executes a queued proposal and returns the transaction's hash; before the timelock's delay it is
 * refused (`TimelockUnexpectedOperationState`) before anything is sent.
 */
export async function executeProposal(client: ProtocolClient, parameters: ExecuteProposalParameters): Promise<string> {
  return sendPrepared(client, prepareExecuteProposal(client, parameters), "execute");
}

/** Executes a queued proposal and waits for the receipt. */
export async function executeProposalSync(
  client: ProtocolClient,
  parameters: ExecuteProposalParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await executeProposal(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "execute") };
}
