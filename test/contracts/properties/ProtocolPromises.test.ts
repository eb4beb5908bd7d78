import { expect } from "chai";
import { network } from "hardhat";
import { id, parseEther } from "ethers";

import { attestationDomain, buildProof, Roles } from "@compute-capacity/sdk";
import { AttestationVerifier__factory } from "../../../typechain-types/index.js";
import { DAY, Status, Tier, collateralFor, mintFor, reviewedSample, sampleProfile } from "../../helpers/protocol.js";
import { GUARDIAN_PAUSE, PAUSED_INDEFINITELY, pauseAs } from "../../helpers/pause.js";
import { HOUR, IssueType, RStatus, deployRedemptionScenario } from "../../helpers/redemption.js";
import type { RedemptionFixture } from "../../helpers/redemption.js";
import { protocolState } from "../../helpers/snapshot.js";

/**
 * The seven promises of issue 9, each as a property named after it, with the scenario the external
 * review used to break it. The scenario is driven through the real contracts exactly as the review
 * did; the assertions are the property, so each test failed on the code before the fix.
 */

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture, time } = networkHelpers;

const EVIDENCE = id("evidence");

/** One standard-tier provider with 100 sSTB (30-day stake), 50 of them sold to the user. */
async function scenario(): Promise<RedemptionFixture> {
  return deployRedemptionScenario(connection);
}

/** The provider's "second account" (here: the stranger) holding 40 of its sSTB, approved to redeem. */
async function withSecondAccount() {
  const f = await loadFixture(scenario);
  await f.sstb.connect(f.provider).transfer(f.stranger.address, parseEther("40"));
  await f.sstb.connect(f.stranger).approve(f.managerAddress, ethers.MaxUint256);
  return f;
}

async function reputationOf(f: RedemptionFixture): Promise<bigint> {
  return (await f.registry.accountOf(f.provider.address)).reputation;
}

describe("Protocol promises (issue 9)", function () {
  describe("1. a holder is never left with neither compute nor compensation, even when a provider is suspended", function () {
    it("the only provider, suspended, stays redeemable and an expiry compensates the holder", async function () {
      const f = await loadFixture(scenario);
      await f.registry.connect(f.arbitrator).suspendProvider(f.provider.address);
      const amount = parseEther("10");
      await expect(f.redemptionManager.connect(f.user).initiateRedemption(amount, f.provider.address)).to.emit(
        f.redemptionManager,
        "RedemptionInitiated",
      );
      await time.increase(24n * HOUR + 1n);
      const before = await f.collateral.balanceOf(f.user.address);
      await f.redemptionManager.connect(f.stranger).expireRedemption(1n);
      // at least the full value at the collateral price (1 USDC per sSTB): 10 USDC
      expect((await f.collateral.balanceOf(f.user.address)) - before).to.be.gte(10_000_000n);
    });

    it("a suspended provider may still deliver the compute", async function () {
      const f = await loadFixture(scenario);
      await f.registry.connect(f.arbitrator).suspendProvider(f.provider.address);
      await f.redemptionManager.connect(f.user).initiateRedemption(parseEther("10"), f.provider.address);
      await f.redemptionManager.connect(f.provider).fulfillRedemption(1n, "envelope");
      await f.redemptionManager.connect(f.user).confirmRedemption(1n);
      expect(await f.redemptionViews.redemptionStatus(1n)).to.equal(RStatus.Confirmed);
    });

    it("a suspended provider's collateral stays in the vault while it backs capacity or open redemptions", async function () {
      const f = await loadFixture(scenario);
      await f.registry.connect(f.provider).depositCollateral(5_000_000n); // excess above the 120%
      await f.redemptionManager.connect(f.user).initiateRedemption(parseEther("10"), f.provider.address);
      await f.registry.connect(f.arbitrator).suspendProvider(f.provider.address);
      await time.increase(31n * DAY); // past the staking period
      const account = await f.registry.accountOf(f.provider.address);
      const before = await protocolState(f, [f.provider.address, f.user.address]);
      await expect(f.registry.connect(f.provider).withdrawCollateral(1n))
        .to.be.revertedWithCustomError(f.registry, "ProviderCollateralHeld")
        .withArgs(account.availableCU, account.lockedCollateral);
      expect(await protocolState(f, [f.provider.address, f.user.address])).to.deep.equal(before);

      // a suspended account that backs nothing withdraws freely
      await f.registry.connect(f.provider2).register(sampleProfile("Idle"), Tier.Standard);
      await f.collateral.mint(f.provider2.address, 1_000_000n);
      await f.collateral.connect(f.provider2).approve(await f.registry.getAddress(), 1_000_000n);
      await f.registry.connect(f.provider2).depositCollateral(1_000_000n);
      await f.registry.connect(f.arbitrator).suspendProvider(f.provider2.address);
      await expect(f.registry.connect(f.provider2).withdrawCollateral(1_000_000n)).to.changeTokenBalance(
        ethers,
        f.collateral,
        f.provider2,
        1_000_000n,
      );
    });
  });

  describe("2. reputation and statistics cannot be bought or destroyed with dust", function () {
    it("a stranger's 1-wei redemptions are refused and change nothing", async function () {
      const f = await loadFixture(scenario);
      const before = await protocolState(f, [f.user.address, f.provider.address]);
      for (let i = 0; i < 10; i++) {
        await expect(f.redemptionManager.connect(f.user).initiateRedemption(1n, f.provider.address))
          .to.be.revertedWithCustomError(f.redemptionManager, "RedemptionBelowMinimum")
          .withArgs(1n, parseEther("1"));
      }
      expect(await protocolState(f, [f.user.address, f.provider.address])).to.deep.equal(before);
      expect(await reputationOf(f)).to.equal(5000n);
    });

    it("redemptions below one reputation unit that expire leave reputation and statistics where they were", async function () {
      const f = await loadFixture(scenario);
      for (let i = 0; i < 10; i++) {
        await f.redemptionManager.connect(f.user).initiateRedemption(parseEther("1"), f.provider.address);
      }
      await time.increase(24n * HOUR + 1n);
      for (let rid = 1n; rid <= 10n; rid++) await f.redemptionManager.expireRedemption(rid);
      expect(await reputationOf(f)).to.equal(5000n);
      expect(await f.registry.providerStats(f.provider.address)).to.deep.equal([0n, 0n, 0n]);
    });

    it("a provider cannot redeem against itself", async function () {
      const f = await loadFixture(scenario);
      await f.sstb.connect(f.provider).approve(f.managerAddress, ethers.MaxUint256);
      await expect(f.redemptionManager.connect(f.provider).initiateRedemption(parseEther("1"), f.provider.address))
        .to.be.revertedWithCustomError(f.redemptionManager, "RedemptionByProvider")
        .withArgs(f.provider.address);
    });

    it("wash redemptions of the minimum size through a second account buy no reputation and no statistics", async function () {
      const f = await withSecondAccount();
      for (let i = 1n; i <= 35n; i++) {
        await f.redemptionManager.connect(f.stranger).initiateRedemption(parseEther("1"), f.provider.address);
        await f.redemptionManager.connect(f.provider).fulfillRedemption(i, "x");
        await f.redemptionManager.connect(f.stranger).confirmRedemption(i);
      }
      expect(await reputationOf(f)).to.equal(5000n);
      expect(await f.registry.providerStats(f.provider.address)).to.deep.equal([0n, 0n, 0n]);
    });

    it("reputation moves in proportion to the value at stake", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager;
      await m.connect(f.user).initiateRedemption(parseEther("30"), f.provider.address); // 3 units
      await m.connect(f.provider).fulfillRedemption(1n, "x");
      await expect(m.connect(f.user).confirmRedemption(1n))
        .to.emit(f.registry, "ReputationChanged")
        .withArgs(f.provider.address, 5000n, 5300n);
      await m.connect(f.user).initiateRedemption(parseEther("10"), f.provider.address); // 1 unit
      await time.increase(24n * HOUR + 1n);
      await expect(m.expireRedemption(2n))
        .to.emit(f.registry, "ReputationChanged")
        .withArgs(f.provider.address, 5300n, 4800n);
      expect(await f.registry.providerStats(f.provider.address)).to.deep.equal([2n, 1n, 0n]);
    });

    it("a lock of 0 never moves reputation", async function () {
      const f = await loadFixture(scenario);
      await f.registry.grantRole(Roles.REDEMPTION_MANAGER, f.deployer.address);
      await f.registry.releaseLock(f.provider.address, 0n, 0n, 100n);
      await f.registry.payOutLock(f.provider.address, 0n, f.user.address, f.treasury.address, 12_000n, 100n);
      expect(await reputationOf(f)).to.equal(5000n);
      expect(await f.registry.providerStats(f.provider.address)).to.deep.equal([0n, 0n, 0n]);
    });
  });

  describe("3. the staking period binds", function () {
    it("redeeming its own sSTB through a second account and letting it expire costs more than waiting", async function () {
      const f = await withSecondAccount();
      const amount = parseEther("39"); // the second account holds 40: amount plus fee
      const lock = collateralFor(amount); // 46.8 USDC: what waiting out the stake returns for 40 sSTB
      await f.redemptionManager.connect(f.stranger).initiateRedemption(amount, f.provider.address);
      await time.increase(24n * HOUR + 1n);
      const tx = f.redemptionManager.expireRedemption(1n);
      const compensation = (lock * 10_000n + 11_999n) / 12_000n; // the value at 100%, rounded up
      await expect(tx)
        .to.emit(f.redemptionManager, "RedemptionExpired")
        .withArgs(1n, f.stranger.address, compensation, lock - compensation);
      await expect(tx).to.changeTokenBalances(
        ethers,
        f.collateral,
        [f.stranger, f.treasury],
        [compensation, lock - compensation],
      );
      // the early exit returned 39 USDC for what waiting returns as 46.8 (plus the fee it paid)
      expect(compensation).to.be.lessThan(lock);
    });

    it("a repricing after the lock changes neither the holder's 100% nor the penalty", async function () {
      const f = await loadFixture(scenario);
      const lock = collateralFor(parseEther("10")); // 12 USDC at 120%
      await f.redemptionManager.connect(f.user).initiateRedemption(parseEther("10"), f.provider.address);
      await f.registry.setCollateralRatio(30_000n); // 300% after the lock was taken
      await time.increase(24n * HOUR + 1n);
      await expect(f.redemptionManager.expireRedemption(1n))
        .to.emit(f.redemptionManager, "RedemptionExpired")
        .withArgs(1n, f.user.address, 10_000_000n, lock - 10_000_000n);
    });

    it("after the staking period an expiry pays the holder the whole lock", async function () {
      const f = await loadFixture(scenario);
      await time.increase(31n * DAY);
      await f.redemptionManager.connect(f.user).initiateRedemption(parseEther("10"), f.provider.address);
      await time.increase(24n * HOUR + 1n);
      await expect(f.redemptionManager.expireRedemption(1n)).to.changeTokenBalance(
        ethers,
        f.collateral,
        f.user,
        collateralFor(parseEther("10")),
      );
    });
  });

  describe("4. every dispute ends", function () {
    it("a dispute nobody rules on closes by default after its resolution deadline: unfulfilled pays as an expiry", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager;
      await time.increase(31n * DAY); // stake over: the holder gets the whole lock
      await m.connect(f.user).initiateRedemption(parseEther("10"), f.provider.address);
      await time.increase(24n * HOUR + 1n);
      await m.connect(f.user).openDispute(1n, IssueType.NotDelivered, EVIDENCE);
      const deadline = await f.redemptionViews.disputeResolutionDeadline(1n);
      await expect(m.connect(f.stranger).closeLapsedDispute(1n))
        .to.be.revertedWithCustomError(m, "DisputeNotLapsed")
        .withArgs(1n, deadline);
      await time.increaseTo(deadline + 1n);
      const tx = m.connect(f.stranger).closeLapsedDispute(1n);
      await expect(tx)
        .to.emit(m, "DisputeLapsed")
        .withArgs(1n, f.stranger.address, true, collateralFor(parseEther("10")), 0n);
      await expect(tx).to.changeTokenBalance(ethers, f.collateral, f.user, collateralFor(parseEther("10")));
      expect(await f.redemptionViews.redemptionStatus(1n)).to.equal(RStatus.Resolved);
    });

    it("a lapsed dispute within the provider's stake pays as an expiry, penalty included", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager;
      await m.connect(f.user).initiateRedemption(parseEther("10"), f.provider.address);
      await time.increase(24n * HOUR + 1n);
      await m.connect(f.user).openDispute(1n, IssueType.NotDelivered, EVIDENCE);
      await time.increaseTo((await f.redemptionViews.disputeResolutionDeadline(1n)) + 1n);
      const lock = collateralFor(parseEther("10"));
      const tx = m.closeLapsedDispute(1n);
      await expect(tx)
        .to.emit(m, "DisputeLapsed")
        .withArgs(1n, f.deployer.address, true, 10_000_000n, lock - 10_000_000n);
      await expect(tx).to.changeTokenBalances(
        ethers,
        f.collateral,
        [f.user, f.treasury],
        [10_000_000n, lock - 10_000_000n],
      );
    });

    it("an early dispute cannot block the provider, and a fulfilled redemption is never turned into a payout", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager;
      await m.connect(f.user).initiateRedemption(parseEther("10"), f.provider.address);
      const [deadline] = await f.redemptionViews.deadlinesOf(1n);
      await expect(m.connect(f.user).openDispute(1n, IssueType.NotDelivered, EVIDENCE))
        .to.be.revertedWithCustomError(m, "DisputeTooEarly")
        .withArgs(1n, deadline);
      await m.connect(f.provider).fulfillRedemption(1n, "envelope");
      await m.connect(f.user).openDispute(1n, IssueType.AccessFailure, EVIDENCE);
      await time.increaseTo((await f.redemptionViews.disputeResolutionDeadline(1n)) + 1n);
      const userBefore = await f.collateral.balanceOf(f.user.address);
      await expect(m.closeLapsedDispute(1n))
        .to.emit(m, "DisputeLapsed")
        .withArgs(1n, f.deployer.address, false, 0n, 0n);
      expect(await f.collateral.balanceOf(f.user.address)).to.equal(userBefore);
      expect((await f.registry.accountOf(f.provider.address)).lockedCollateral).to.equal(0n);
    });
  });

  describe("5. a compute unit backs sSTB at most once, whatever verifier is installed", function () {
    it("after setVerifier the same cuHash does not mint again", async function () {
      const f = await loadFixture(scenario);
      const attestation = await f.attestation(f.provider.address, { cuValue: parseEther("10") });
      await f.mintingAgent
        .connect(f.provider)
        .verifyAndMintSSTB(await f.proof(attestation), collateralFor(parseEther("10")), 30n * DAY);
      const cuId = await f.cuToken.totalComputeUnits();

      const fresh = await new AttestationVerifier__factory(f.deployer).deploy(
        f.deployer.address,
        f.verifierKeys.map((k) => k.address),
        2n,
      );
      await fresh.grantRole(Roles.CONSUMER, await f.mintingAgent.getAddress());
      await f.mintingAgent.setVerifier(await fresh.getAddress());
      const proof = await buildProof(
        { ...attestation, nonce: attestation.nonce + 1n },
        attestationDomain(f.chainId, await fresh.getAddress()),
        f.verifierKeys.slice(0, 2),
      );
      const supply = await f.sstb.totalSupply();
      await expect(
        f.mintingAgent.connect(f.provider).verifyAndMintSSTB(proof, collateralFor(parseEther("10")), 30n * DAY),
      )
        .to.be.revertedWithCustomError(f.cuToken, "CUTokenDuplicateUnit")
        .withArgs(attestation.cuHash, cuId);
      expect(await f.sstb.totalSupply()).to.equal(supply);
    });
  });

  describe("6. an approval covers the profile that was reviewed", function () {
    it("a profile changed between review and approval cannot be approved", async function () {
      const f = await loadFixture(scenario);
      await f.registry.connect(f.provider2).register(sampleProfile("Reviewed"), Tier.Premium);
      const reviewed = reviewedSample(Tier.Premium, "Reviewed");
      await f.registry.connect(f.provider2).updateProfile({ ...sampleProfile("Reviewed"), totalCpuCores: 9999 });
      const current = await f.registry.reviewedProfileHash(f.provider2.address);
      await expect(f.registry.connect(f.approver).approveProvider(f.provider2.address, reviewed))
        .to.be.revertedWithCustomError(f.registry, "ProviderProfileMismatch")
        .withArgs(reviewed, current);
      expect((await f.registry.accountOf(f.provider2.address)).status).to.equal(Status.Pending);
    });

    it("an approved provider that rewrites its location or hardware goes back to review; contact details do not", async function () {
      const f = await loadFixture(scenario);
      const r = f.registry.connect(f.provider);
      await r.updateProfile({ ...sampleProfile(), email: "new@acme.example", website: "https://new.example" });
      expect((await f.registry.accountOf(f.provider.address)).status).to.equal(Status.Active);

      const moved = { ...sampleProfile(), country: "US", region: "us-east" };
      await expect(r.updateProfile(moved))
        .to.emit(f.registry, "ProviderStatusChanged")
        .withArgs(f.provider.address, Status.Active, Status.Pending, f.provider.address);
      // no new capacity until approved again; the capacity it backs stays redeemable
      await expect(mintFor(f, f.provider, parseEther("1")))
        .to.be.revertedWithCustomError(f.registry, "ProviderInvalidStatus")
        .withArgs(f.provider.address, Status.Pending);
      await f.redemptionManager.connect(f.user).initiateRedemption(parseEther("10"), f.provider.address);
      await f.registry
        .connect(f.approver)
        .approveProvider(f.provider.address, await f.registry.hashReviewedProfile(moved, Tier.Standard));
      expect((await f.registry.accountOf(f.provider.address)).status).to.equal(Status.Active);
    });
  });

  describe("6b. a ruling and a reinstatement are not dodged or staled by a profile change", function () {
    it("a ruling suspends a provider that sent itself back to review by editing its profile", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager;
      await m.connect(f.user).initiateRedemption(parseEther("10"), f.provider.address);
      await time.increase(24n * HOUR + 1n);
      await m.connect(f.user).openDispute(1n, IssueType.NotDelivered, EVIDENCE);
      await f.registry.connect(f.provider).updateProfile({ ...sampleProfile(), region: "elsewhere" });
      expect((await f.registry.accountOf(f.provider.address)).status).to.equal(Status.Pending);
      await expect(m.connect(f.arbitrator).resolveDispute(1n, true, true))
        .to.emit(f.registry, "ProviderStatusChanged")
        .withArgs(f.provider.address, Status.Pending, Status.Suspended, f.managerAddress);
      expect((await f.redemptionViews.disputeOf(1n)).providerSuspended).to.equal(true);
    });

    it("reinstatement is bound to the profile governance reviewed", async function () {
      const f = await loadFixture(scenario);
      await f.registry.connect(f.arbitrator).suspendProvider(f.provider.address);
      const reviewed = reviewedSample();
      await f.registry.connect(f.provider).updateProfile({ ...sampleProfile(), totalRamGb: 4096 });
      const current = await f.registry.reviewedProfileHash(f.provider.address);
      await expect(f.registry.reinstateProvider(f.provider.address, reviewed))
        .to.be.revertedWithCustomError(f.registry, "ProviderProfileMismatch")
        .withArgs(reviewed, current);
      await expect(f.registry.reinstateProvider(f.provider.address, current))
        .to.emit(f.registry, "ProviderStatusChanged")
        .withArgs(f.provider.address, Status.Suspended, Status.Active, f.deployer.address);
    });

    it("governance cannot set a reputation unit below the minimum redemption, nor the reverse", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager;
      await expect(m.setReputationUnit(parseEther("0.5")))
        .to.be.revertedWithCustomError(m, "ParameterOutOfBounds")
        .withArgs(ethers.encodeBytes32String("reputationUnit"), parseEther("0.5"));
      await expect(m.setMinRedemptionAmount(parseEther("11")))
        .to.be.revertedWithCustomError(m, "ParameterOutOfBounds")
        .withArgs(ethers.encodeBytes32String("minRedemptionAmount"), parseEther("11"));
      await m.setReputationUnit(parseEther("1"));
      expect(await f.redemptionViews.reputationUnit()).to.equal(parseEther("1"));
    });
  });

  describe("7. a pause ends", function () {
    it("a guardian pause lapses by itself and initiation resumes without governance", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager;
      const until = await pauseAs(m, f.guardian, "guardian");
      await time.setNextBlockTimestamp(until - 1n); // the pause's last second
      await expect(
        m.connect(f.user).initiateRedemption(parseEther("10"), f.provider.address),
      ).to.be.revertedWithCustomError(m, "EnforcedPause");
      await time.setNextBlockTimestamp(until);
      await expect(m.connect(f.user).initiateRedemption(parseEther("10"), f.provider.address)).to.emit(
        m,
        "RedemptionInitiated",
      );
    });

    it("the guardian cannot pause again until governance re-arms it", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager;
      await pauseAs(m, f.guardian, "guardian");
      await m.unpause();
      await expect(m.connect(f.guardian).pause()).to.be.revertedWithCustomError(m, "GuardianPauseSpent");
      expect(await m.guardianArmed()).to.equal(false);
      await expect(m.connect(f.stranger).rearmGuardian())
        .to.be.revertedWithCustomError(m, "AccessControlUnauthorizedAccount")
        .withArgs(f.stranger.address, Roles.GOVERNANCE);
      await expect(m.rearmGuardian()).to.emit(m, "GuardianPauseRearmed").withArgs(f.deployer.address);
      await pauseAs(m, f.guardian, "guardian");
      // a lapsed pause does not re-arm either
      await time.increase(GUARDIAN_PAUSE);
      await expect(m.connect(f.guardian).pause()).to.be.revertedWithCustomError(m, "GuardianPauseSpent");
    });

    it("governance pauses until it unpauses, and may make a guardian pause indefinite", async function () {
      const f = await loadFixture(scenario);
      const m = f.mintingAgent;
      await pauseAs(m, f.guardian, "guardian");
      await pauseAs(m, f.deployer, "governance");
      await expect(m.pause()).to.be.revertedWithCustomError(m, "EnforcedPause");
      await time.increase(365n * DAY);
      expect(await m.paused()).to.equal(true);
      expect(await m.pausedUntil()).to.equal(PAUSED_INDEFINITELY);
      await m.unpause();
      expect(await m.paused()).to.equal(false);
    });

    it("the guardian pause duration is governed and bounded", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager;
      expect(await m.guardianPauseDuration()).to.equal(GUARDIAN_PAUSE);
      await expect(m.setGuardianPauseDuration(HOUR - 1n))
        .to.be.revertedWithCustomError(m, "GuardianPauseDurationOutOfBounds")
        .withArgs(HOUR - 1n);
      await expect(m.setGuardianPauseDuration(30n * DAY + 1n))
        .to.be.revertedWithCustomError(m, "GuardianPauseDurationOutOfBounds")
        .withArgs(30n * DAY + 1n);
      await expect(m.connect(f.guardian).setGuardianPauseDuration(DAY))
        .to.be.revertedWithCustomError(m, "AccessControlUnauthorizedAccount")
        .withArgs(f.guardian.address, Roles.GOVERNANCE);
      await expect(m.setGuardianPauseDuration(DAY))
        .to.emit(m, "GuardianPauseDurationUpdated")
        .withArgs(GUARDIAN_PAUSE, DAY);
      await pauseAs(m, f.guardian, "guardian", DAY);
    });

    it("while paused, every way out stays open: settlement, disputes, retirement and withdrawal", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager;
      await m.connect(f.user).initiateRedemption(parseEther("10"), f.provider.address);
      await time.increase(24n * HOUR + 1n);
      await m.connect(f.user).openDispute(1n, IssueType.NotDelivered, EVIDENCE);
      await pauseAs(m, f.deployer, "governance");
      await pauseAs(f.mintingAgent, f.deployer, "governance");
      await time.increaseTo((await f.redemptionViews.disputeResolutionDeadline(1n)) + 1n);
      await m.closeLapsedDispute(1n);
      await time.increase(31n * DAY); // staking over, both contracts still paused
      await f.sstb.connect(f.provider).approve(await f.mintingAgent.getAddress(), parseEther("10"));
      await f.mintingAgent.connect(f.provider).retireCapacity(parseEther("10"));
      await f.registry.connect(f.provider).withdrawCollateral(await f.registry.excessCollateral(f.provider.address));
      expect(await f.redemptionViews.redemptionStatus(1n)).to.equal(RStatus.Resolved);
    });
  });
});
