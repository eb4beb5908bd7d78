import { expect } from "chai";
import { network } from "hardhat";

import { descriptionHash, PROPOSAL_STATES, proposalOf, Vote } from "@compute-capacity/sdk";
import { contractCall, execute, propose, queue } from "../../../testing/governance.js";
import type { Proposal } from "@compute-capacity/sdk";
import { GOVERNANCE, deployGovernedProtocol } from "../../helpers/governance.js";
import type { GovernedFixture } from "../../helpers/governance.js";

const connection = await network.create();
const { networkHelpers } = connection;
const { loadFixture, time } = networkHelpers;

const State = Object.fromEntries(PROPOSAL_STATES.map((name, i) => [name, BigInt(i)])) as Record<
  (typeof PROPOSAL_STATES)[number],
  bigint
>;

/** The governor's `expectedStates` argument: one bit per allowed state. */
const expectedStates = (...states: bigint[]) =>
  "0x" +
  states
    .reduce((bits, s) => bits | (1n << s), 0n)
    .toString(16)
    .padStart(64, "0");

interface PendingFixture extends GovernedFixture {
  proposal: Proposal;
  proposalId: bigint;
}

/** A governed deployment with a proposal by the treasury (fee to 1%), still pending. */
async function pending(): Promise<PendingFixture> {
  const f = await deployGovernedProtocol(connection);
  const proposal = proposalOf([await contractCall(f.redemptionManager, "setRedemptionFee", [100n])], "RP-5: fee to 1%");
  const { proposalId } = await propose(f.governor, f.treasury, proposal);
  return { ...f, proposal, proposalId };
}

function cancel(f: PendingFixture, caller = f.treasury) {
  const { targets, values, calldatas } = f.proposal;
  return f.governor.connect(caller).cancel(targets, values, calldatas, descriptionHash(f.proposal));
}

/** The pending proposal, cancelled by its proposer. */
async function cancelled(): Promise<PendingFixture> {
  // built on the pending proposal's snapshot, so that switching between the two fixtures never redeploys
  const f = await loadFixture(pending);
  await cancel(f);
  return f;
}

describe("Governor: a cancelled proposal", function () {
  describe("cancel", function () {
    it("lets the proposer cancel a pending proposal", async function () {
      const f = await loadFixture(pending);
      expect(await f.governor.state(f.proposalId)).to.equal(State.Pending);
      await expect(cancel(f)).to.emit(f.governor, "ProposalCanceled").withArgs(f.proposalId);
      expect(await f.governor.state(f.proposalId)).to.equal(State.Canceled);
    });

    it("refuses anyone but the proposer", async function () {
      const f = await loadFixture(pending);
      for (const caller of [f.voter, f.stranger, f.deployer]) {
        await expect(cancel(f, caller))
          .to.be.revertedWithCustomError(f.governor, "GovernorUnableToCancel")
          .withArgs(f.proposalId, caller.address);
      }
      expect(await f.governor.state(f.proposalId)).to.equal(State.Pending);
    });

    it("refuses the proposer once voting has started", async function () {
      const f = await loadFixture(pending);
      await time.increase(GOVERNANCE.votingDelay + 1n);
      expect(await f.governor.state(f.proposalId)).to.equal(State.Active);
      await expect(cancel(f))
        .to.be.revertedWithCustomError(f.governor, "GovernorUnableToCancel")
        .withArgs(f.proposalId, f.treasury.address);
    });

    it("cannot cancel twice", async function () {
      const f = await loadFixture(cancelled);
      await expect(cancel(f))
        .to.be.revertedWithCustomError(f.governor, "GovernorUnableToCancel")
        .withArgs(f.proposalId, f.treasury.address);
    });
  });

  describe("after cancellation", function () {
    it("stays Canceled through the voting period and cannot be voted", async function () {
      const f = await loadFixture(cancelled);
      await time.increase(GOVERNANCE.votingDelay + 1n);
      expect(await f.governor.state(f.proposalId)).to.equal(State.Canceled);
      await expect(f.governor.connect(f.treasury).castVote(f.proposalId, Vote.For))
        .to.be.revertedWithCustomError(f.governor, "GovernorUnexpectedProposalState")
        .withArgs(f.proposalId, State.Canceled, expectedStates(State.Active));
      expect(await f.governor.hasVoted(f.proposalId, f.treasury.address)).to.equal(false);
      await time.increase(GOVERNANCE.votingPeriod);
      expect(await f.governor.state(f.proposalId)).to.equal(State.Canceled);
    });

    it("cannot be queued or executed, and changes nothing", async function () {
      const f = await loadFixture(cancelled);
      await time.increase(GOVERNANCE.votingDelay + GOVERNANCE.votingPeriod + 1n);
      await expect(queue(f.governor, f.stranger, f.proposal))
        .to.be.revertedWithCustomError(f.governor, "GovernorUnexpectedProposalState")
        .withArgs(f.proposalId, State.Canceled, expectedStates(State.Succeeded));
      // the timelock's proposals must be queued before they execute
      await time.increase(GOVERNANCE.timelockDelay);
      await expect(execute(f.governor, f.stranger, f.proposal))
        .to.be.revertedWithCustomError(f.governor, "GovernorUnexpectedProposalState")
        .withArgs(f.proposalId, State.Canceled, expectedStates(State.Queued));
      expect(await f.redemptionViews.feeBps()).to.equal(10n);
    });

    it("cannot be proposed again as is; the same calls under a new description can", async function () {
      const f = await loadFixture(cancelled);
      await expect(propose(f.governor, f.treasury, f.proposal))
        .to.be.revertedWithCustomError(f.governor, "GovernorUnexpectedProposalState")
        .withArgs(f.proposalId, State.Canceled, expectedStates());
      const again = { ...f.proposal, description: `${f.proposal.description} (again)` };
      const { proposalId } = await propose(f.governor, f.treasury, again);
      expect(proposalId).to.not.equal(f.proposalId);
      expect(await f.governor.state(proposalId)).to.equal(State.Pending);
    });
  });
});
