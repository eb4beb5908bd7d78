import { expect } from "chai";
import { network } from "hardhat";
import { getAddress, id, parseEther, toBeHex } from "ethers";

import { currentRoleHolders, PROPOSAL_STATES, proposalOf, Roles, Vote } from "@compute-capacity/sdk";
import { contractCall, execute, propose, queue } from "../../../testing/governance.js";
import type { Proposal } from "@compute-capacity/sdk";
import { RedemptionManagerV2__factory } from "../../../typechain-types/index.js";
import { GOVERNANCE, deployGovernedProtocol } from "../../helpers/governance.js";
import { reviewedSample } from "../../helpers/protocol.js";
import type { GovernedFixture } from "../../helpers/governance.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture, time } = networkHelpers;

/** ERC-1967 implementation slot: keccak256("eip1967.proxy.implementation") - 1. */
const IMPLEMENTATION_SLOT = toBeHex(BigInt(id("eip1967.proxy.implementation")) - 1n, 32);

async function governed(): Promise<GovernedFixture> {
  return deployGovernedProtocol(connection);
}

async function implementationOf(proxy: string): Promise<string> {
  const raw = BigInt(await ethers.provider.getStorage(proxy, IMPLEMENTATION_SLOT));
  return getAddress("0x" + raw.toString(16).padStart(40, "0"));
}

async function stateName(f: GovernedFixture, proposalId: bigint): Promise<string> {
  return PROPOSAL_STATES[Number(await f.governor.state(proposalId))];
}

/** Votes `proposal` through: propose, wait, vote for (treasury), wait, queue, wait, execute. */
async function pass(f: GovernedFixture, proposal: Proposal) {
  const { proposalId } = await propose(f.governor, f.treasury, proposal);
  await time.increase(GOVERNANCE.votingDelay + 1n);
  await f.governor.connect(f.treasury).castVote(proposalId, Vote.For);
  await time.increase(GOVERNANCE.votingPeriod);
  await queue(f.governor, f.stranger, proposal);
  await time.increase(GOVERNANCE.timelockDelay);
  await execute(f.governor, f.stranger, proposal);
  return proposalId;
}

describe("Governance (after the hand-off to the timelock)", function () {
  describe("hand-off", function () {
    it("leaves no admin, upgrade or parameter role with an EOA, and none with the deployer", async function () {
      const f = await loadFixture(governed);
      const holdings = await currentRoleHolders({
        SSTB: f.sstb,
        CUToken: f.cuToken,
        GovernanceToken: f.governanceToken,
        ProviderRegistry: f.registry,
        AttestationVerifier: f.verifier,
        MintingAgent: f.mintingAgent,
        RedemptionManager: f.redemptionManager,
        SpotMarket: f.spotMarket,
        FuturesMarket: f.futuresMarket,
        OptionsMarket: f.optionsMarket,
        Bridge: f.bridge,
        ProtocolTimelock: f.timelock,
      });
      const timelock = await f.timelock.getAddress();
      const contracts = new Set(
        await Promise.all(
          [f.timelock, f.governor, f.mintingAgent, f.redemptionManager, f.bridge].map((c) => c.getAddress()),
        ),
      );
      const operational: Record<string, string> = {
        [Roles.APPROVER]: f.approver.address,
        [Roles.ARBITRATOR]: f.arbitrator.address,
        [Roles.GUARDIAN]: f.guardian.address,
        [Roles.TIMELOCK_EXECUTOR]: ethers.ZeroAddress, // anyone may execute a passed, delayed proposal
      };
      expect(holdings.length).to.be.greaterThan(30);
      // each market: admin, governance and upgrader with the timelock, the guardian's pause role
      for (const market of [f.spotMarket, f.futuresMarket, f.optionsMarket]) {
        for (const role of [Roles.DEFAULT_ADMIN, Roles.GOVERNANCE, Roles.UPGRADER]) {
          expect(await market.hasRole(role, timelock)).to.equal(true);
          expect(await market.hasRole(role, f.deployer.address)).to.equal(false);
        }
        expect(await market.hasRole(Roles.GUARDIAN, f.guardian.address)).to.equal(true);
      }
      for (const { contract, role, account } of holdings) {
        expect(account, `${contract} ${role}`).to.not.equal(f.deployer.address);
        if (role in operational) {
          expect(account, `${contract} ${role}`).to.equal(operational[role]);
        } else {
          expect(contracts.has(account), `${contract} ${role} held by ${account}`).to.equal(true);
          expect(await ethers.provider.getCode(account)).to.not.equal("0x");
        }
      }
      const privileged = [Roles.DEFAULT_ADMIN, Roles.GOVERNANCE, Roles.UPGRADER];
      const adminHolders = holdings.filter((h) => privileged.includes(h.role as never)).map((h) => h.account);
      expect(new Set(adminHolders)).to.deep.equal(new Set([timelock]));
      expect(await f.timelock.hasRole(Roles.TIMELOCK_PROPOSER, await f.governor.getAddress())).to.equal(true);
      expect(await f.timelock.getMinDelay()).to.equal(GOVERNANCE.timelockDelay);
    });
  });

  describe("proposal lifecycle", function () {
    it("changes the fee and upgrades the redemption manager in one proposal; old redemptions stay intact", async function () {
      const f = await loadFixture(governed);
      const rm = f.redemptionManager;
      const rmAddress = await rm.getAddress();
      const v2 = await new RedemptionManagerV2__factory(f.deployer).deploy(
        await f.registry.getAddress(),
        await f.sstb.getAddress(),
      );
      const proposal = proposalOf(
        [
          await contractCall(rm, "setRedemptionFee", [25n]),
          await contractCall(rm, "upgradeToAndCall", [await v2.getAddress(), "0x"]),
        ],
        "RP-1: redemption fee to 25 bps; RedemptionManager v2",
      );
      const oldRecord = await rm.redemptions(1n);
      const oldStored = await f.redemptionViews.redemptionOf(1n);
      const oldImplementation = await implementationOf(rmAddress);

      const { proposalId } = await propose(f.governor, f.treasury, proposal);
      expect(await stateName(f, proposalId)).to.equal("Pending");
      await time.increase(GOVERNANCE.votingDelay + 1n);
      expect(await stateName(f, proposalId)).to.equal("Active");
      await expect(f.governor.connect(f.treasury).castVote(proposalId, Vote.For)).to.emit(f.governor, "VoteCast");
      await f.governor.connect(f.voter).castVote(proposalId, Vote.Against);
      await time.increase(GOVERNANCE.votingPeriod);
      expect(await stateName(f, proposalId)).to.equal("Succeeded");

      await queue(f.governor, f.stranger, proposal);
      expect(await stateName(f, proposalId)).to.equal("Queued");
      await expect(execute(f.governor, f.stranger, proposal)).to.be.revertedWithCustomError(
        f.timelock,
        "TimelockUnexpectedOperationState",
      );
      expect(await f.redemptionViews.feeBps()).to.equal(10n);

      await time.increase(GOVERNANCE.timelockDelay);
      await execute(f.governor, f.stranger, proposal);
      expect(await stateName(f, proposalId)).to.equal("Executed");

      expect(await f.redemptionViews.feeBps()).to.equal(25n);
      expect(await implementationOf(rmAddress)).to.equal(await v2.getAddress());
      expect(await implementationOf(rmAddress)).to.not.equal(oldImplementation);
      expect(await RedemptionManagerV2__factory.connect(rmAddress, ethers.provider).version()).to.equal(2n);
      expect(await rm.redemptions(1n)).to.deep.equal(oldRecord);
      expect(await f.redemptionViews.redemptionOf(1n)).to.deep.equal(oldStored);

      // the old redemption completes under the new code; a new one pays the new fee
      await rm.connect(f.provider).fulfillRedemption(1n, "envelope");
      await expect(rm.connect(f.user).confirmRedemption(1n))
        .to.emit(rm, "RedemptionConfirmed")
        .withArgs(1n, f.user.address);
      await expect(rm.connect(f.user).initiateRedemption(parseEther("4"), f.provider.address)).to.changeTokenBalances(
        ethers,
        f.sstb,
        [f.treasury],
        [parseEther("0.01")],
      );
    });

    it("a proposal voted down is defeated and cannot be queued", async function () {
      const f = await loadFixture(governed);
      const proposal = proposalOf(
        [await contractCall(f.redemptionManager, "setRedemptionFee", [100n])],
        "RP-2: fee to 1%",
      );
      const { proposalId } = await propose(f.governor, f.voter, proposal);
      await time.increase(GOVERNANCE.votingDelay + 1n);
      await f.governor.connect(f.voter).castVote(proposalId, Vote.For);
      await f.governor.connect(f.treasury).castVote(proposalId, Vote.Against);
      await time.increase(GOVERNANCE.votingPeriod);
      expect(await stateName(f, proposalId)).to.equal("Defeated");
      await expect(queue(f.governor, f.stranger, proposal)).to.be.revertedWithCustomError(
        f.governor,
        "GovernorUnexpectedProposalState",
      );
      expect(await f.redemptionViews.feeBps()).to.equal(10n);
    });

    it("refuses a proposer below the threshold", async function () {
      const f = await loadFixture(governed);
      const proposal = proposalOf([await contractCall(f.redemptionManager, "setRedemptionFee", [0n])], "RP-3");
      await expect(propose(f.governor, f.stranger, proposal))
        .to.be.revertedWithCustomError(f.governor, "GovernorInsufficientProposerVotes")
        .withArgs(f.stranger.address, 0n, GOVERNANCE.proposalThreshold);
    });

    it("only a proposal unpauses what the guardian paused", async function () {
      const f = await loadFixture(governed);
      await f.redemptionManager.connect(f.guardian).pause();
      await expect(f.redemptionManager.connect(f.guardian).unpause()).to.be.revertedWithCustomError(
        f.redemptionManager,
        "AccessControlUnauthorizedAccount",
      );
      await pass(f, proposalOf([await contractCall(f.redemptionManager, "unpause", [])], "RP-4: unpause"));
      expect(await f.redemptionManager.paused()).to.equal(false);
    });
  });

  describe("governed functions", function () {
    it("refuse strangers, the guardian and the deployer", async function () {
      const f = await loadFixture(governed);
      const impl = f.stranger.address;
      for (const caller of [f.stranger, f.guardian, f.deployer]) {
        const a = caller.address;
        const registry = f.registry.connect(caller);
        const agent = f.mintingAgent.connect(caller);
        const rm = f.redemptionManager.connect(caller);
        const verifier = f.verifier.connect(caller);
        const accessControlled = [
          [f.registry, () => registry.setCollateralRatio(12_000n)],
          [f.registry, () => registry.setCollateralPerCU(1n)],
          [f.registry, () => registry.setStakingPeriodBounds(3_600n, 86_400n)],
          [f.registry, () => registry.setReputationDeltas(1n, 1n)],
          [f.registry, () => registry.reinstateProvider(f.provider.address, reviewedSample())],
          [f.registry, () => registry.grantRole(Roles.APPROVER, a)],
          [f.registry, () => registry.upgradeToAndCall(impl, "0x")],
          [f.mintingAgent, () => agent.setVerifier(impl)],
          [f.mintingAgent, () => agent.unpause()],
          [f.mintingAgent, () => agent.upgradeToAndCall(impl, "0x")],
          [f.redemptionManager, () => rm.setRedemptionFee(1n)],
          [f.redemptionManager, () => rm.setTreasury(a)],
          [f.redemptionManager, () => rm.setTierDeadline(0n, 3_600n)],
          [f.redemptionManager, () => rm.setDisputeWindow(3_600n)],
          [f.redemptionManager, () => rm.unpause()],
          [f.redemptionManager, () => rm.resolveDispute(1n, true, true)],
          [f.redemptionManager, () => rm.upgradeToAndCall(impl, "0x")],
          [f.verifier, () => verifier.addVerifier(a)],
          [f.verifier, () => verifier.removeVerifier(a)],
          [f.verifier, () => verifier.setThreshold(1n)],
          [f.sstb, () => f.sstb.connect(caller).grantRole(Roles.MINTER, a)],
          [f.sstb, () => f.sstb.connect(caller).upgradeToAndCall(impl, "0x")],
          [f.cuToken, () => f.cuToken.connect(caller).grantRole(Roles.MINTER, a)],
          [f.timelock, () => f.timelock.connect(caller).grantRole(Roles.TIMELOCK_PROPOSER, a)],
          [f.timelock, () => f.timelock.connect(caller).schedule(impl, 0n, "0x", ethers.ZeroHash, ethers.ZeroHash, 0n)],
        ] as const;
        for (const [contract, call] of accessControlled) {
          await expect(call()).to.be.revertedWithCustomError(contract, "AccessControlUnauthorizedAccount");
        }
        const governor = f.governor.connect(caller);
        for (const call of [
          () => governor.setVotingDelay(1n),
          () => governor.setVotingPeriod(1n),
          () => governor.setProposalThreshold(0n),
          () => governor.updateQuorumNumerator(1n),
        ]) {
          await expect(call()).to.be.revertedWithCustomError(f.governor, "GovernorOnlyExecutor").withArgs(a);
        }
        await expect(f.timelock.connect(caller).updateDelay(0n)).to.be.revertedWithCustomError(
          f.timelock,
          "TimelockUnauthorizedCaller",
        );
      }
      // nothing moved
      expect(await f.redemptionViews.feeBps()).to.equal(10n);
      expect(await f.registry.collateralRatioBps()).to.equal(12_000n);
      expect(await f.sstb.hasRole(Roles.MINTER, f.deployer.address)).to.equal(false);
    });
  });
});
