import { readFile } from "node:fs/promises";

import { FunctionFragment, Interface, getAddress } from "ethers";
import type { Signer } from "ethers";

import {
  castVoteSync,
  createProtocolClient,
  descriptionHash,
  executeProposalSync,
  getProposalState,
  proposalIdOf,
  proposalOf,
  proposeSync,
  queueProposalSync,
} from "@compute-capacity/sdk";
import type { Proposal } from "@compute-capacity/sdk";

/**
 * A proposal as a reviewable JSON file (see `proposals/example-redemption-fee.json`):
 *
 *   { "description": "...", "calls": [{ "target": "0x...", "function": "setRedemptionFee(uint256)", "args": ["25"] }] }
 *
 * Arguments are strings or JSON values as ethers' ABI encoder takes them; `value` (wei) is
 * optional. The description is part of the proposal's identity, so keep the file unchanged from
 * propose to execute.
 */
export interface ProposalFile {
  description: string;
  calls: Array<{ target: string; function: string; args: unknown[]; value?: string }>;
}

/** Why a proposal file or governance action was refused. */
export class ProposalFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProposalFileError";
  }
}

/** Parses and encodes a proposal file's content. */
export function proposalFromJson(json: unknown): Proposal {
  const file = json as Partial<ProposalFile>;
  if (typeof file?.description !== "string" || file.description.trim() === "") {
    throw new ProposalFileError("description must be a non-empty string");
  }
  if (!Array.isArray(file.calls) || file.calls.length === 0) {
    throw new ProposalFileError("calls must be a non-empty array");
  }
  const calls = file.calls.map((call, i) => {
    let target: string;
    try {
      target = getAddress(call.target);
    } catch {
      throw new ProposalFileError(`calls[${i}].target is not an address: ${String(call.target)}`);
    }
    let calldata: string;
    try {
      const fragment = FunctionFragment.from(`function ${call.function}`);
      calldata = new Interface([fragment]).encodeFunctionData(fragment, call.args ?? []);
    } catch (error) {
      throw new ProposalFileError(`calls[${i}] (${call.function}): ${(error as Error).message}`);
    }
    return { target, value: BigInt(call.value ?? "0"), calldata };
  });
  return proposalOf(calls, file.description);
}

/** Reads and encodes a proposal file. */
export async function loadProposalFile(path: string): Promise<Proposal> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new ProposalFileError(`cannot read ${path}: ${(error as Error).message}`);
  }
  return proposalFromJson(json);
}

export const GOVERNANCE_ACTIONS = ["status", "propose", "vote", "queue", "execute"] as const;
export type GovernanceAction = (typeof GOVERNANCE_ACTIONS)[number];

/**
 * One step of a proposal's life, as the deployer's or a delegate's signer: `status` prints the
 * id and state, `propose`, `vote` (for), `queue` and `execute` send the transaction.
 */
export async function runGovernanceAction(
  action: string,
  governorAddress: string,
  proposal: Proposal,
  signer: Signer,
  log: (line: string) => void,
): Promise<string> {
  if (!(GOVERNANCE_ACTIONS as readonly string[]).includes(action)) {
    throw new ProposalFileError(`action must be one of ${GOVERNANCE_ACTIONS.join(", ")}, not "${action}"`);
  }
  const client = await createProtocolClient({ runner: signer, deployment: { ProtocolGovernor: governorAddress } });
  const proposalId = proposalIdOf(proposal);
  log(`proposal ${proposalId}`);
  log(`description hash ${descriptionHash(proposal)}`);
  if (action === "propose") {
    await proposeSync(client, { proposal });
  } else if (action === "vote") {
    await castVoteSync(client, { proposalId, support: "For" });
  } else if (action === "queue") {
    await queueProposalSync(client, { proposal });
  } else if (action === "execute") {
    await executeProposalSync(client, { proposal });
  }
  const { state, deadline, eta } = await getProposalState(client, { proposalId });
  log(`state ${state}`);
  if (state === "Active" || state === "Pending") {
    log(`voting ends at ${new Date(Number(deadline) * 1000).toISOString()}`);
  }
  if (state === "Queued") {
    log(`executable from ${new Date(Number(eta) * 1000).toISOString()}`);
  }
  return state;
}
