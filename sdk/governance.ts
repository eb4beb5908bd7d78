import { id } from "ethers";
import type { BaseContract, ContractTransactionReceipt, Signer } from "ethers";

import type { ProtocolGovernor } from "../typechain-types/index.js";

/** A proposal: calls the timelock makes if it passes, and its description. */
export interface Proposal {
  targets: string[];
  values: bigint[];
  calldatas: string[];
  description: string;
}

/** One call of a proposal, on a typed contract. */
export async function proposalCall<C extends BaseContract>(
  contract: C,
  fn: string,
  args: readonly unknown[],
): Promise<{ target: string; value: bigint; calldata: string }> {
  return { target: await contract.getAddress(), value: 0n, calldata: contract.interface.encodeFunctionData(fn, args) };
}

/** A proposal of the given calls. */
export function proposalOf(
  calls: ReadonlyArray<{ target: string; value: bigint; calldata: string }>,
  description: string,
): Proposal {
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

/** The governor's id of a proposal. */
export async function proposalIdOf(governor: ProtocolGovernor, proposal: Proposal): Promise<bigint> {
  return governor.hashProposal(proposal.targets, proposal.values, proposal.calldatas, descriptionHash(proposal));
}

/** Proposes; returns the proposal id and the receipt. */
export async function propose(
  governor: ProtocolGovernor,
  proposer: Signer,
  proposal: Proposal,
): Promise<{ proposalId: bigint; receipt: ContractTransactionReceipt }> {
  const tx = await governor
    .connect(proposer)
    .propose(proposal.targets, proposal.values, proposal.calldatas, proposal.description);
  return { proposalId: await proposalIdOf(governor, proposal), receipt: (await tx.wait())! };
}

/** Queues a passed proposal in the timelock. */
export async function queue(governor: ProtocolGovernor, sender: Signer, proposal: Proposal) {
  const tx = await governor
    .connect(sender)
    .queue(proposal.targets, proposal.values, proposal.calldatas, descriptionHash(proposal));
  return (await tx.wait())!;
}

/** Executes a queued proposal once the timelock delay has passed. */
export async function execute(governor: ProtocolGovernor, sender: Signer, proposal: Proposal) {
  const tx = await governor
    .connect(sender)
    .execute(proposal.targets, proposal.values, proposal.calldatas, descriptionHash(proposal));
  return (await tx.wait())!;
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
