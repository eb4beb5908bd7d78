import { AbiCoder, id, keccak256 } from "ethers";

import type { Abi, FunctionArgs, FunctionName } from "./abi-types.js";
import { encodeFunctionCall } from "./contract-calls.js";

/**
 * Proposals to the governor (`ProtocolGovernor`, OpenZeppelin's Governor with a timelock): what a
 * proposal is, its id and description hash, and the calls it makes. The actions that propose,
 * vote, queue and execute are `actions/{propose,castVote,queueProposal,executeProposal}.ts`.
 */

/** A proposal: calls the timelock makes if it passes, and its description. */
export interface Proposal {
  targets: string[];
  values: bigint[];
  calldatas: string[];
  description: string;
}

/** One call of a proposal. */
export interface ProposalCall {
  target: string;
  value: bigint;
  calldata: string;
}

/** What {@link proposalCall} encodes: a function of a contract, typed from its ABI. */
export interface ProposalCallParameters<A extends Abi, N extends FunctionName<A>> {
  abi: A;
  address: string;
  functionName: N;
  args: FunctionArgs<A, N>;
  /** Native value the timelock sends with the call (default 0). */
  value?: bigint;
}

/**
 * One call of a proposal, its arguments checked against the contract's ABI.
 *
 * @example
 * const call = proposalCall({ abi: redemptionManagerAbi, address: manager, functionName: "setRedemptionFee", args: [25n] });
 */
export function proposalCall<const A extends Abi, N extends FunctionName<A>>({
  abi,
  address,
  functionName,
  args,
  value = 0n,
}: ProposalCallParameters<A, N>): ProposalCall {
  return { target: address, value, calldata: encodeFunctionCall(abi, functionName, args) };
}

/** A proposal of the given calls. */
export function proposalOf(calls: readonly ProposalCall[], description: string): Proposal {
  return {
    targets: calls.map((c) => c.target),
    values: calls.map((c) => c.value),
    calldatas: calls.map((c) => c.calldata),
    description,
  };
}

/** The description hash the governor and timelock key a proposal by. */
export function descriptionHash(proposal: Proposal): string {
  return id(proposal.description);
}

/**
 * The governor's id of a proposal, computed as its `hashProposal` does:
 * `uint256(keccak256(abi.encode(targets, values, calldatas, descriptionHash)))`.
 */
export function proposalIdOf(proposal: Proposal): bigint {
  const encoded = AbiCoder.defaultAbiCoder().encode(
    ["address[]", "uint256[]", "bytes[]", "bytes32"],
    [proposal.targets, proposal.values, proposal.calldatas, descriptionHash(proposal)],
  );
  return BigInt(keccak256(encoded));
}

/** `IGovernor.ProposalState`, by index. */
export const PROPOSAL_STATES = [
  "Pending",
  "Active",
  "Canceled",
  "Defeated",
  "Succeeded",
  "Queued",
  "Expired",
  "Executed",
] as const;

/** A proposal's state by name. */
export type ProposalStateName = (typeof PROPOSAL_STATES)[number];

/** `GovernorCountingSimple` vote types. */
export const Vote = { Against: 0n, For: 1n, Abstain: 2n } as const;

/** A role held by an account on a contract. */
export interface RoleHolding {
  contract: string;
  role: string;
  account: string;
}

interface AccessControlled {
  getAddress(): Promise<string>;
  hasRole(role: string, account: string): Promise<boolean>;
  queryFilter(event: string): Promise<Array<{ args?: unknown }>>;
}

/**
 * Every role currently held on `contracts`, found by replaying their `RoleGranted` events and
 * keeping the grants still in force (`hasRole`). Works for any OpenZeppelin `AccessControl`
 * without the enumerable extension.
 */
export async function currentRoleHolders(contracts: Record<string, AccessControlled>): Promise<RoleHolding[]> {
  const holdings: RoleHolding[] = [];
  for (const [name, contract] of Object.entries(contracts)) {
    const seen = new Set<string>();
    for (const event of await contract.queryFilter("RoleGranted")) {
      const [role, account] = event.args as unknown as [string, string];
      const key = `${role}:${account}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (await contract.hasRole(role, account)) holdings.push({ contract: name, role, account });
    }
  }
  return holdings;
}
