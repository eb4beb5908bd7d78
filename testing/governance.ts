import type { BaseContract, Signer, TransactionReceipt } from "ethers";

import { executeProposalSync, proposeSync, queueProposalSync } from "@compute-capacity/sdk";
import type { Proposal, ProposalCall, ProtocolClient } from "@compute-capacity/sdk";
import type { ProtocolGovernor } from "../typechain-types/index.js";

/**
 * The governance steps over TypeChain contracts (a fixture's governor and signers) rather than a
 * deployments file: what the tests and the gas benchmark call. Each builds a client of the
 * governor around the signer and runs the SDK's actions, so there is one code path.
 */

async function governorClient(governor: ProtocolGovernor, signer: Signer): Promise<ProtocolClient> {
  const { chainId } = await signer.provider!.getNetwork();
  return { runner: signer, chainId, addresses: { ProtocolGovernor: await governor.getAddress() } };
}

/** One call of a proposal on a TypeChain contract (`contractCall(manager, "setRedemptionFee", [25n])`). */
export async function contractCall(
  contract: BaseContract,
  functionName: string,
  args: readonly unknown[],
  value = 0n,
): Promise<ProposalCall> {
  return {
    target: await contract.getAddress(),
    value,
    calldata: contract.interface.encodeFunctionData(functionName, args),
  };
}

/** `proposer` proposes; returns the proposal's id and the receipt. */
export async function propose(
  governor: ProtocolGovernor,
  proposer: Signer,
  proposal: Proposal,
): Promise<{ proposalId: bigint; receipt: TransactionReceipt }> {
  return proposeSync(await governorClient(governor, proposer), { proposal });
}

/** `sender` queues a passed proposal in the timelock. */
export async function queue(
  governor: ProtocolGovernor,
  sender: Signer,
  proposal: Proposal,
): Promise<TransactionReceipt> {
  return (await queueProposalSync(await governorClient(governor, sender), { proposal })).receipt;
}

/** `sender` executes a queued proposal once the timelock delay has passed. */
export async function execute(
  governor: ProtocolGovernor,
  sender: Signer,
  proposal: Proposal,
): Promise<TransactionReceipt> {
  return (await executeProposalSync(await governorClient(governor, sender), { proposal })).receipt;
}
