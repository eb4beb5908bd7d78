import { expect } from "chai";
import { network } from "hardhat";
import { id } from "ethers";
import type { Signer } from "ethers";

import {
  castVoteSync,
  ContractRevertedError,
  createProtocolClient,
  delegateVotesSync,
  executeProposal,
  executeProposalSync,
  getProposalState,
  InvalidParameterError,
  prepareCastVote,
  prepareExecuteProposal,
  preparePropose,
  proposalCall,
  proposalIdOf,
  proposalOf,
  proposeSync,
  queueProposalSync,
  redemptionManagerAbi,
} from "@compute-capacity/sdk";
import type { ProtocolClient } from "@compute-capacity/sdk";
import { GOVERNANCE, deployGovernedProtocol } from "../../helpers/governance.js";
import type { GovernedFixture } from "../../helpers/governance.js";

const connection = await network.create();
const { networkHelpers } = connection;
const { loadFixture, time } = networkHelpers;

async function governed() {
  return deployGovernedProtocol(connection);
}

async function clientOf(f: GovernedFixture, runner: Signer): Promise<ProtocolClient> {
  return createProtocolClient({
    runner,
    deployment: {
      ProtocolGovernor: await f.governor.getAddress(),
      GovernanceToken: await f.governanceToken.getAddress(),
    },
  });
}

/** A proposal setting the redemption fee, built from the manager's ABI. */
async function feeProposal(f: GovernedFixture, fee: bigint, description: string) {
  const call = proposalCall({
    abi: redemptionManagerAbi,
    address: await f.redemptionManager.getAddress(),
    functionName: "setRedemptionFee",
    args: [fee],
  });
  return proposalOf([call], description);
}

describe("SDK governance actions (delegate, propose, vote, queue, execute, state)", function () {
  it("computes the id as the governor does, and builds calls from a contract's ABI", async function () {
    const f = await loadFixture(governed);
    const proposal = await feeProposal(f, 25n, "RP-9: fee 25 bps");
    expect(proposalIdOf(proposal)).to.equal(
      await f.governor.hashProposal(proposal.targets, proposal.values, proposal.calldatas, id(proposal.description)),
    );
    expect(f.redemptionManager.interface.decodeFunctionData("setRedemptionFee", proposal.calldatas[0]!)).to.deep.equal([
      25n,
    ]);
  });

  it("runs a proposal's whole life through the actions, each state read back with getProposalState", async function () {
    const f = await loadFixture(governed);
    const [treasury, voter, anyone] = await Promise.all([
      clientOf(f, f.treasury),
      clientOf(f, f.voter),
      clientOf(f, f.stranger),
    ]);
    const proposal = await feeProposal(f, 25n, "RP-10: fee 25 bps");
    const { proposalId } = await proposeSync(treasury, { proposal });
    expect(proposalId).to.equal(proposalIdOf(proposal));
    expect((await getProposalState(anyone, { proposalId })).state).to.equal("Pending");

    await time.increase(GOVERNANCE.votingDelay + 1n);
    await castVoteSync(treasury, { proposalId, support: "For", reason: "cheaper redemptions" });
    await castVoteSync(voter, { proposalId, support: "Against" });
    const voting = await getProposalState(anyone, { proposalId });
    expect(voting.state).to.equal("Active");
    expect(voting.votes.for).to.equal(await f.governanceToken.getVotes(f.treasury.address));
    expect(voting.votes.against).to.equal(await f.governanceToken.getVotes(f.voter.address));
    const [cast] = await f.governor.queryFilter(f.governor.filters.VoteCast(f.treasury.address));
    expect(cast!.args.reason).to.equal("cheaper redemptions");

    await time.increase(GOVERNANCE.votingPeriod);
    expect((await getProposalState(anyone, { proposalId })).state).to.equal("Succeeded");
    await queueProposalSync(anyone, { proposal });
    const queued = await getProposalState(anyone, { proposalId });
    expect(queued.state).to.equal("Queued");
    expect(queued.eta).to.be.greaterThan(0n);

    const early = await executeProposal(anyone, { proposal }).catch((e: unknown) => e);
    expect(early).to.be.instanceOf(ContractRevertedError);
    expect((early as ContractRevertedError).errorName).to.equal("TimelockUnexpectedOperationState");
    await time.increaseTo(queued.eta);
    await executeProposalSync(anyone, { proposal });
    expect((await getProposalState(anyone, { proposalId })).state).to.equal("Executed");
    expect(await f.redemptionViews.feeBps()).to.equal(25n);
  });

  it("delegates votes (a holder's tokens count only once delegated)", async function () {
    const f = await loadFixture(governed);
    const amount = 1_000n * 10n ** 18n;
    await f.governanceToken.connect(f.treasury).transfer(f.stranger.address, amount);
    expect(await f.governanceToken.getVotes(f.stranger.address)).to.equal(0n);
    await delegateVotesSync(await clientOf(f, f.stranger), { delegatee: f.stranger.address });
    expect(await f.governanceToken.getVotes(f.stranger.address)).to.equal(amount);
  });

  it("refuses a proposer below the threshold with the governor's error", async function () {
    const f = await loadFixture(governed);
    const error = await proposeSync(await clientOf(f, f.stranger), {
      proposal: await feeProposal(f, 0n, "RP-11"),
    }).catch((e: unknown) => e);
    expect((error as ContractRevertedError).errorName).to.equal("GovernorInsufficientProposerVotes");
  });

  it("refuses malformed proposals and votes before any call; execute sends the calls' total value", async function () {
    const f = await loadFixture(governed);
    const client = await clientOf(f, f.treasury);
    expect(() => preparePropose(client, { proposal: proposalOf([], "empty") })).to.throw(
      InvalidParameterError,
      "Invalid proposal: must make at least one call.",
    );
    const lopsided = { targets: [f.treasury.address], values: [], calldatas: ["0x"], description: "x" };
    expect(() => preparePropose(client, { proposal: lopsided })).to.throw(InvalidParameterError, "same length");
    expect(() => prepareCastVote(client, { proposalId: 1n, support: "Maybe" as "For" })).to.throw(
      InvalidParameterError,
      'Invalid support: must be "For", "Against" or "Abstain".',
    );
    const paying = proposalOf(
      [
        { target: f.treasury.address, value: 3n, calldata: "0x" },
        { target: f.voter.address, value: 4n, calldata: "0x" },
      ],
      "pay",
    );
    expect(prepareExecuteProposal(client, { proposal: paying }).value).to.equal(7n);
  });
});
