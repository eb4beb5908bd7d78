import { protocolGovernorAbi } from "../abis/protocolGovernor.js";
import { addressOf } from "../client.js";
import type { ProtocolClient } from "../client.js";
import { readContract } from "../contract-calls.js";
import type { BaseError, ContractRevertedError, InvalidParameterError } from "../errors.js";
import { PROPOSAL_STATES } from "../governance.js";
import type { ProposalStateName } from "../governance.js";

export interface GetProposalStateParameters {
  proposalId: bigint;
}

export interface GetProposalStateReturnType {
  state: ProposalStateName;
  /** Votes at the proposal's snapshot, by kind. */
  votes: { against: bigint; for: bigint; abstain: bigint };
  /** The block (or time, by the token's clock) voting starts after and ends at. */
  snapshot: bigint;
  deadline: bigint;
  /** When a queued proposal can execute (Unix seconds; 0 before it is queued). */
  eta: bigint;
}

export type GetProposalStateErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * A proposal's state, its votes and its timeline; an id the governor does not know throws a
 * `ContractRevertedError` (`GovernorNonexistentProposal`).
 *
 * @example
 * const { state, votes } = await getProposalState(client, { proposalId });
 */
export async function getProposalState(
  client: ProtocolClient,
  { proposalId }: GetProposalStateParameters,
): Promise<GetProposalStateReturnType> {
  const read = { abi: protocolGovernorAbi, address: addressOf(client, "ProtocolGovernor") } as const;
  const [state, [against, forVotes, abstain], snapshot, deadline, eta] = await Promise.all([
    readContract(client, { ...read, functionName: "state", args: [proposalId] }),
    readContract(client, { ...read, functionName: "proposalVotes", args: [proposalId] }),
    readContract(client, { ...read, functionName: "proposalSnapshot", args: [proposalId] }),
    readContract(client, { ...read, functionName: "proposalDeadline", args: [proposalId] }),
    readContract(client, { ...read, functionName: "proposalEta", args: [proposalId] }),
  ]);
  return {
    state: PROPOSAL_STATES[Number(state)] ?? "Pending",
    votes: { against, for: forVotes, abstain },
    snapshot,
    deadline,
    eta,
  };
}
