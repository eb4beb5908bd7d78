import { expect } from "chai";
import { network } from "hardhat";
import { parseEther, parseUnits } from "ethers";

import { PROPOSAL_STATES, Vote, proposalCall, proposalOf, propose } from "../../../scripts/lib/governance.js";
import { LOCAL_GOVERNANCE } from "../../../scripts/lib/samples.js";
import { ETH, TRANSPORT_FEE, deployBridgePair } from "../../helpers/bridge.js";
import type { BridgePair } from "../../helpers/bridge.js";

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

/**
 * The arbitrum deployment with a satellite route, after a holder (alice) bridged 60% of the
 * STBGOV supply to ethereum: the arbitrum bridge holds it in escrow, undelegated. A voter (bob)
 * holds 3% of the supply and delegated to itself; the treasury keeps the rest undelegated.
 */
async function bridgedOut(): Promise<BridgePair> {
  const f = await deployBridgePair(connection);
  const { primary, treasury, alice, bob } = f;
  const token = primary.governanceToken;
  // governance lifts the route's STBGOV limit for the test's large transfer
  await primary.bridge.setRateLimit(ETH, GOVERNANCE_TOKEN, true, {
    enabled: true,
    capacity: SUPPLY,
    rate: SUPPLY,
  });
  await token.connect(treasury).transfer(alice.address, BRIDGED);
  await token.connect(treasury).transfer(bob.address, VOTES);
  await token.connect(bob).delegate(bob.address);
  await primary.collateral.mint(alice.address, parseUnits("1000000", 6));
  await primary.bridge
    .connect(alice)
    .send(ETH, alice.address, await token.getAddress(), BRIDGED, DEFAULT_FEE, { value: TRANSPORT_FEE });
  return f;
}

describe("Property: bridged governance tokens do not count toward quorum (issue 17, property 5)", function () {
  it("a proposal that reaches quorum of the circulating supply passes while STBGOV is bridged out", async function () {
    const f = await loadFixture(bridgedOut);
    const { governor, timelock, governanceToken: token, bridge } = f.primary;
    expect(await token.totalSupply()).to.equal(SUPPLY);
    expect(await token.balanceOf(await bridge.getAddress())).to.equal(BRIDGED);

    const proposal = proposalOf(
      [await proposalCall(timelock, "updateDelay", [LOCAL_GOVERNANCE.timelockDelay + 1n])],
      "Lengthen the timelock delay by a second",
    );
    const { proposalId } = await propose(governor, f.bob, proposal);
    await time.increase(LOCAL_GOVERNANCE.votingDelay + 1n);
    await governor.connect(f.bob).castVote(proposalId, Vote.For);
    await time.increase(LOCAL_GOVERNANCE.votingPeriod);

    expect(PROPOSAL_STATES[Number(await governor.state(proposalId))]).to.equal("Succeeded");
    // 4% of the 40,000,000 STBGOV outside the bridge's escrow at the snapshot
    const snapshot = await governor.proposalSnapshot(proposalId);
    expect(await governor.quorum(snapshot)).to.equal(parseEther("1600000"));
  });
});
