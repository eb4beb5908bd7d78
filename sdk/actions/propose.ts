import type { TransactionReceipt } from "ethers";

import { protocolGovernorAbi } from "../abis/protocolGovernor.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import { InvalidParameterError } from "../errors.js";
import type { BaseError, ContractRevertedError } from "../errors.js";
import { proposalIdOf } from "../governance.js";
import type { Proposal } from "../governance.js";

export interface ProposeParameters {
  /** The calls and description (`proposalOf`). */
  proposal: Proposal;
}

export type ProposeErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds the governor's `propose(targets, values, calldatas, description)`; the proposer needs
 * the proposal threshold in delegated votes.
 *
 * @example
 * const proposal = proposalOf([proposalCall({ abi: redemptionManagerAbi, address, functionName: "setRedemptionFee", args: [25n] })], "RP-7: fee 25 bps");
 * const transaction = preparePropose(client, { proposal });
 */
export function preparePropose(client: ProtocolClient, { proposal }: ProposeParameters): PreparedTransaction {
  const { targets, values, calldatas, description } = proposal;
  if (targets.length === 0) throw new InvalidParameterError("proposal", "must make at least one call");
  if (values.length !== targets.length || calldatas.length !== targets.length) {
    throw new InvalidParameterError("proposal", "targets, values and calldatas must have the same length");
  }
  const data = encodeFunctionCall(protocolGovernorAbi, "propose", [targets, values, calldatas, description]);
  return { to: addressOf(client, "ProtocolGovernor"), data, value: 0n };
}

/**
 * Proposes and returns the transaction's hash.
 *
 * @example
 * const hash = await propose(client, { proposal });
 */
export async function propose(client: ProtocolClient, parameters: ProposeParameters): Promise<string> {
  return sendPrepared(client, preparePropose(client, parameters), "propose");
}

/**
 * Proposes, waits for the receipt and returns the proposal's id.
 *
 * @example
 * const { proposalId } = await proposeSync(client, { proposal });
 */
export async function proposeSync(
  client: ProtocolClient,
  parameters: ProposeParameters,
): Promise<{ receipt: TransactionReceipt; proposalId: bigint }> {
  const hash = await propose(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "propose"), proposalId: proposalIdOf(parameters.proposal) };
}
