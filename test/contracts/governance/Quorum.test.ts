import { expect } from "chai";
import { network } from "hardhat";
import { parseEther, parseUnits } from "ethers";

import { PROPOSAL_STATES, Roles, Vote, proposalOf } from "@compute-capacity/sdk";
import { contractCall, propose } from "../../../testing/governance.js";
import type { Proposal } from "@compute-capacity/sdk";
import { LOCAL_GOVERNANCE } from "../../../devnet/samples.js";
import { ARB, ETH, TRANSPORT_FEE, deployBridgePair, withRelayer } from "../../helpers/bridge.js";
import type { BridgePair } from "../../helpers/bridge.js";
import { deployGovernedProtocol } from "../../helpers/governance.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture, time } = networkHelpers;

const SUPPLY = parseEther("100000000");
const BRIDGED = parseEther("60000000");
/** 3% of the supply: below 4% of the supply, above 4% of what is not in the bridge's escrow. */
const VOTES = parseEther("3000000");
/** `IBridge.Token.Governance` and `FeeOption.Default`. */
const GOVERNANCE_TOKEN = 1;
const DEFAULT_FEE = 0;
/** A limit that lets the whole supply through a route at once. */
const UNLIMITED = { enabled: true, capacity: SUPPLY, rate: SUPPLY };

async function now(): Promise<bigint> {
  return BigInt((await ethers.provider.getBlock("latest"))!.timestamp);
}

/**
 * The arbitrum deployment with a satellite route, where a holder (alice) holds 60% of the STBGOV
 * supply and may bridge all of it, a voter (bob) holds 3% and delegated to itself, and the
 * treasury keeps the rest undelegated.
 */
async function holders(): Promise<BridgePair> {
  const f = await deployBridgePair(connection);
  const { primary, satellite, treasury, alice, bob } = f;
  const token = primary.governanceToken;
  // governance lifts the routes' STBGOV limits for the test's large transfers
  await primary.bridge.setRateLimit(ETH, GOVERNANCE_TOKEN, true, UNLIMITED);
  await primary.bridge.setRateLimit(ETH, GOVERNANCE_TOKEN, false, UNLIMITED);
  await satellite.bridge.setRateLimit(ARB, GOVERNANCE_TOKEN, true, UNLIMITED);
  await satellite.bridge.setRateLimit(ARB, GOVERNANCE_TOKEN, false, UNLIMITED);
  await token.connect(treasury).transfer(alice.address, BRIDGED);
  await token.connect(treasury).transfer(bob.address, VOTES);
  await token.connect(bob).delegate(bob.address);
  await primary.collateral.mint(alice.address, parseUnits("1000000", 6));
  await satellite.stablecoin.mint(alice.address, parseUnits("1000000", 6));
  return f;
}

/** After `holders`, alice bridged her 60% to ethereum: the arbitrum bridge holds it in escrow. */
async function bridgedOut(): Promise<BridgePair> {
  // built on the holders' snapshot, so that switching between the two fixtures never redeploys
  const f = await loadFixture(holders);
  const token = f.primary.governanceToken;
  await f.primary.bridge
    .connect(f.alice)
    .send(ETH, f.alice.address, await token.getAddress(), BRIDGED, DEFAULT_FEE, { value: TRANSPORT_FEE });
  return f;
}

/** A proposal the timelock can execute without any protocol role. */
async function harmlessProposal(f: BridgePair, description: string): Promise<Proposal> {
  const delay = LOCAL_GOVERNANCE.timelockDelay + 1n;
  return proposalOf([await contractCall(f.primary.timelock, "updateDelay", [delay])], description);
}

/** Proposes, lets bob vote for it, and returns its state after the vote. */
async function voteThrough(f: BridgePair, description: string) {
  const { governor } = f.primary;
  const { proposalId } = await propose(governor, f.bob, await harmlessProposal(f, description));
  await time.increase(LOCAL_GOVERNANCE.votingDelay + 1n);
  await governor.connect(f.bob).castVote(proposalId, Vote.For);
  await time.increase(LOCAL_GOVERNANCE.votingPeriod);
  return { proposalId, state: PROPOSAL_STATES[Number(await governor.state(proposalId))] };
}

describe("Property: bridged governance tokens do not count toward quorum (issue 17, property 5)", function () {
  it("a proposal that reaches quorum of the circulating supply passes while STBGOV is bridged out", async function () {
    const f = await loadFixture(bridgedOut);
    const { governor, governanceToken: token, bridge } = f.primary;
    expect(await token.totalSupply()).to.equal(SUPPLY);
    expect(await token.balanceOf(await bridge.getAddress())).to.equal(BRIDGED);

    const { proposalId, state } = await voteThrough(f, "Lengthen the timelock delay by a second");
    expect(state).to.equal("Succeeded");
    // 4% of the 40,000,000 STBGOV outside the bridge's escrow at the snapshot
    const snapshot = await governor.proposalSnapshot(proposalId);
    expect(await governor.quorum(snapshot)).to.equal(parseEther("1600000"));
  });

  it("with nothing bridged out, the same votes stay below quorum", async function () {
    const f = await loadFixture(holders);
    const { proposalId, state } = await voteThrough(f, "Lengthen the timelock delay by a second");
    expect(state).to.equal("Defeated");
    expect(await f.primary.governor.quorum(await f.primary.governor.proposalSnapshot(proposalId))).to.equal(
      parseEther("4000000"),
    );
  });

  it("the quorum follows the escrow at each timepoint, and a past quorum never changes", async function () {
    const f = withRelayer(await loadFixture(holders));
    const { primary, satellite, alice } = f;
    const { governor, governanceToken: token } = primary;
    const beforeSend = await now();
    await primary.bridge
      .connect(alice)
      .send(ETH, alice.address, await token.getAddress(), BRIDGED, DEFAULT_FEE, { value: TRANSPORT_FEE });
    const afterSend = await now();
    await f.relayer.poll();
    expect(await satellite.governanceToken.balanceOf(alice.address)).to.equal(BRIDGED);
    // 20,000,000 come back: the arbitrum bridge releases them from escrow
    await satellite.bridge
      .connect(alice)
      .send(ARB, alice.address, await satellite.governanceToken.getAddress(), parseEther("20000000"), DEFAULT_FEE, {
        value: TRANSPORT_FEE,
      });
    await f.relayer.poll();
    const afterReturn = await now();
    await time.increase(1n);

    expect(await governor.circulatingSupply(beforeSend)).to.equal(SUPPLY);
    expect(await governor.circulatingSupply(afterSend)).to.equal(parseEther("40000000"));
    expect(await governor.circulatingSupply(afterReturn)).to.equal(parseEther("60000000"));
    expect(await governor.quorum(beforeSend)).to.equal(parseEther("4000000"));
    expect(await governor.quorum(afterSend)).to.equal(parseEther("1600000"));
    expect(await governor.quorum(afterReturn)).to.equal(parseEther("2400000"));
    expect(await token.getPastTotalSupply(afterReturn)).to.equal(SUPPLY);
  });

  it("nobody can vote with the escrow", async function () {
    const f = await loadFixture(bridgedOut);
    const { governor, governanceToken: token, bridge } = f.primary;
    const tokenAddress = await token.getAddress();
    expect(await token.getVotes(await bridge.getAddress())).to.equal(0n);
    // the excluded supply is recorded as the votes of the token's own address, which has no key
    // and no code that votes, and signs nothing (no ERC-1271)
    expect(await token.getVotes(tokenAddress)).to.equal(BRIDGED);
    const { proposalId } = await propose(governor, f.bob, await harmlessProposal(f, "Escrow vote"));
    await time.increase(LOCAL_GOVERNANCE.votingDelay + 1n);
    await expect(governor.castVoteBySig(proposalId, Vote.For, tokenAddress, "0x"))
      .to.be.revertedWithCustomError(governor, "GovernorInvalidSignature")
      .withArgs(tokenAddress);
  });
});

describe("GovernanceToken voting supply", function () {
  describe("excludeFromVotingSupply", function () {
    it("moves an undelegated holder's balance out of the voting supply, with events", async function () {
      const f = await loadFixture(holders);
      const token = f.primary.governanceToken;
      const tokenAddress = await token.getAddress();
      const balance = await token.balanceOf(f.treasury.address);
      await expect(token.excludeFromVotingSupply(f.treasury.address))
        .to.emit(token, "VotingSupplyExclusionUpdated")
        .withArgs(f.treasury.address, true)
        .and.to.emit(token, "DelegateChanged")
        .withArgs(f.treasury.address, ethers.ZeroAddress, tokenAddress);
      expect(await token.isExcludedFromVotingSupply(f.treasury.address)).to.equal(true);
      const at = await now();
      await time.increase(1n);
      expect(await f.primary.governor.circulatingSupply(at)).to.equal(SUPPLY - balance);
      // and what it receives later is excluded too
      await token.connect(f.alice).transfer(f.treasury.address, parseEther("1"));
      expect(await token.getVotes(tokenAddress)).to.equal(balance + parseEther("1"));
    });

    it("refuses an account with a delegate, or one already excluded", async function () {
      const f = await loadFixture(bridgedOut);
      const token = f.primary.governanceToken;
      await expect(token.excludeFromVotingSupply(f.bob.address))
        .to.be.revertedWithCustomError(token, "GovernanceTokenDelegated")
        .withArgs(f.bob.address, f.bob.address);
      const bridge = await f.primary.bridge.getAddress();
      await expect(token.excludeFromVotingSupply(bridge))
        .to.be.revertedWithCustomError(token, "GovernanceTokenDelegated")
        .withArgs(bridge, await token.getAddress());
    });

    it("refuses a stranger, changing nothing", async function () {
      const f = await loadFixture(holders);
      const token = f.primary.governanceToken;
      const before = [await token.getVotes(await token.getAddress()), await token.delegates(f.treasury.address)];
      await expect(token.connect(f.stranger).excludeFromVotingSupply(f.treasury.address))
        .to.be.revertedWithCustomError(token, "AccessControlUnauthorizedAccount")
        .withArgs(f.stranger.address, Roles.GOVERNANCE);
      expect([await token.getVotes(await token.getAddress()), await token.delegates(f.treasury.address)]).to.deep.equal(
        before,
      );
    });
  });

  describe("includeInVotingSupply", function () {
    it("counts an excluded account again, undelegated", async function () {
      const f = await loadFixture(bridgedOut);
      const token = f.primary.governanceToken;
      const bridge = await f.primary.bridge.getAddress();
      await expect(token.includeInVotingSupply(bridge))
        .to.emit(token, "VotingSupplyExclusionUpdated")
        .withArgs(bridge, false);
      expect(await token.isExcludedFromVotingSupply(bridge)).to.equal(false);
      expect(await token.delegates(bridge)).to.equal(ethers.ZeroAddress);
      expect(await token.getVotes(await token.getAddress())).to.equal(0n);
    });

    it("refuses an account that is not excluded", async function () {
      const f = await loadFixture(holders);
      const token = f.primary.governanceToken;
      await expect(token.includeInVotingSupply(f.treasury.address))
        .to.be.revertedWithCustomError(token, "GovernanceTokenNotExcluded")
        .withArgs(f.treasury.address);
    });

    it("refuses a stranger, changing nothing", async function () {
      const f = await loadFixture(bridgedOut);
      const token = f.primary.governanceToken;
      const bridge = await f.primary.bridge.getAddress();
      await expect(token.connect(f.stranger).includeInVotingSupply(bridge))
        .to.be.revertedWithCustomError(token, "AccessControlUnauthorizedAccount")
        .withArgs(f.stranger.address, Roles.GOVERNANCE);
      expect(await token.isExcludedFromVotingSupply(bridge)).to.equal(true);
      expect(await token.getVotes(await token.getAddress())).to.equal(BRIDGED);
    });
  });

  describe("delegate", function () {
    it("refuses the token itself as a delegate: only governance excludes", async function () {
      const f = await loadFixture(holders);
      const token = f.primary.governanceToken;
      await expect(token.connect(f.alice).delegate(await token.getAddress())).to.be.revertedWithCustomError(
        token,
        "GovernanceTokenInvalidDelegate",
      );
      expect(await token.delegates(f.alice.address)).to.equal(ethers.ZeroAddress);
    });

    it("lets an excluded holder delegate, which includes it again: exclusion never takes votes", async function () {
      const f = await loadFixture(holders);
      const token = f.primary.governanceToken;
      await token.excludeFromVotingSupply(f.alice.address);
      await expect(token.connect(f.alice).delegate(f.alice.address))
        .to.emit(token, "DelegateChanged")
        .withArgs(f.alice.address, await token.getAddress(), f.alice.address);
      expect(await token.getVotes(f.alice.address)).to.equal(await token.balanceOf(f.alice.address));
      expect(await token.getVotes(await token.getAddress())).to.equal(0n);
      expect(await token.isExcludedFromVotingSupply(f.alice.address)).to.equal(false);
    });
  });

  it("the deployment excludes the arbitrum bridge and hands the token's roles to the timelock", async function () {
    const f = await deployGovernedProtocol(connection);
    const token = f.governanceToken;
    expect(await token.isExcludedFromVotingSupply(await f.bridge.getAddress())).to.equal(true);
    const timelock = await f.timelock.getAddress();
    for (const role of [Roles.GOVERNANCE, Roles.DEFAULT_ADMIN]) {
      expect(await token.hasRole(role, timelock)).to.equal(true);
      expect(await token.hasRole(role, f.deployer.address)).to.equal(false);
    }
  });
});
