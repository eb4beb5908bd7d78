import { expect } from "chai";
import { network } from "hardhat";
import { id, parseEther } from "ethers";

import { decryptAccessDetails, envelopeContext, generateAccessKeyPair, Roles, statusName } from "@compute-capacity/sdk";
import { fulfilEncrypted, readAccessDetails } from "../../../testing/redemption.js";
import { sampleAccessDetails } from "../../../devnet/samples.js";
import { DAY, Status, Tier, collateralFor, mintFor, registerActive } from "../../helpers/protocol.js";
import { HOUR, IssueType, RStatus, deployRedemptionScenario, managerState } from "../../helpers/redemption.js";
import type { RedemptionFixture } from "../../helpers/redemption.js";
import { pauseAs } from "../../helpers/pause.js";
import { protocolState } from "../../helpers/snapshot.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture, time } = networkHelpers;

const AMOUNT = parseEther("10");
const FEE = parseEther("0.01"); // 10 bps of 10 sSTB
const LOCK = collateralFor(AMOUNT); // 12 USDC: 120% of 10 sSTB at 1 USDC each
// an expiry during the provider's staking period: the user is made whole at 100%, the rest of the
// lock is the early-exit penalty to the treasury
const VALUE = 10_000_000n;
const PENALTY = LOCK - VALUE;
const EVIDENCE = id("evidence: benchmark logs");
const RESPONSE = id("response: provisioning logs");

async function scenario(): Promise<RedemptionFixture> {
  return deployRedemptionScenario(connection);
}

/** A pending redemption of AMOUNT by the user with the provider (id 1). */
async function pending() {
  const f = await loadFixture(scenario);
  await f.redemptionManager.connect(f.user).initiateRedemption(AMOUNT, f.provider.address);
  return { f, rid: 1n };
}

/** A fulfilled redemption (id 1) with a real envelope to the user's key. */
async function fulfilled() {
  const { f, rid } = await pending();
  const { envelope } = await fulfilEncrypted(
    f.redemptionManager,
    f.provider,
    rid,
    sampleAccessDetails(rid),
    f.userKeys.publicKey,
    f.chainId,
  );
  return { f, rid, envelope };
}

async function now(): Promise<bigint> {
  return BigInt((await ethers.provider.getBlock("latest"))!.timestamp);
}

/** Balances and accounting of user, provider and treasury, plus the manager's records. */
async function everything(f: RedemptionFixture, ids: readonly bigint[] = [1n]) {
  return {
    protocol: await protocolState(f, [f.user.address, f.provider.address, f.treasury.address, f.stranger.address]),
    manager: await managerState(f, ids),
  };
}

describe("RedemptionManager", function () {
  describe("initialize", function () {
    it("starts with the defaults of DESIGN.md section 5 and the deployment's collaborators", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager;
      expect(await f.redemptionViews.feeBps()).to.equal(10n);
      expect(await f.redemptionViews.treasury()).to.equal(f.treasury.address);
      expect(await f.redemptionViews.tierDeadline(Tier.Standard)).to.equal(24n * HOUR);
      expect(await f.redemptionViews.tierDeadline(Tier.Premium)).to.equal(6n * HOUR);
      expect(await f.redemptionViews.tierDeadline(Tier.Enterprise)).to.equal(1n * HOUR);
      expect(await f.redemptionViews.disputeWindow()).to.equal(72n * HOUR);
      expect(await m.registry()).to.equal(await f.registry.getAddress());
      expect(await m.sstb()).to.equal(await f.sstb.getAddress());
      expect(await f.redemptionViews.redemptionCount()).to.equal(0n);
      await expect(m.initialize(f.deployer.address, f.treasury.address)).to.be.revertedWithCustomError(
        m,
        "InvalidInitialization",
      );
    });
  });

  describe("initiateRedemption", function () {
    it("burns the amount, pays the fee to the treasury, locks 120% and stores the spec's record", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager;
      const supply = await f.sstb.totalSupply();
      expect(await m.connect(f.user).initiateRedemption.staticCall(AMOUNT, f.provider.address)).to.equal(1n);

      const tx = m.connect(f.user).initiateRedemption(AMOUNT, f.provider.address);
      await expect(tx).to.emit(m, "RedemptionInitiated").withArgs(1n, f.user.address, AMOUNT, f.provider.address);
      const t = await now();
      await expect(tx)
        .to.emit(m, "RedemptionTerms")
        .withArgs(1n, FEE, LOCK, t + 24n * HOUR);
      await expect(tx).to.emit(f.registry, "CollateralLocked").withArgs(f.provider.address, AMOUNT, LOCK);
      await expect(tx).to.changeTokenBalances(ethers, f.sstb, [f.user, f.treasury], [-(AMOUNT + FEE), FEE]);

      expect(await f.sstb.totalSupply()).to.equal(supply - AMOUNT);
      expect(await m.redemptions(1n)).to.deep.equal([f.user.address, AMOUNT, t, f.provider.address, false, false]);
      expect(await f.redemptionViews.redemptionStatus(1n)).to.equal(RStatus.Pending);
      expect(statusName(await f.redemptionViews.redemptionStatus(1n))).to.equal("pending");
      const stored = await f.redemptionViews.redemptionOf(1n);
      expect(stored.deadline).to.equal(t + 24n * HOUR);
      expect(stored.lock).to.equal(LOCK);
      expect(stored.fulfilledAt).to.equal(0n);
      expect(await f.redemptionViews.deadlinesOf(1n)).to.deep.equal([t + 24n * HOUR, t + 72n * HOUR]);

      const account = await f.registry.accountOf(f.provider.address);
      expect(account.availableCU).to.equal(parseEther("90"));
      expect(account.lockedCollateral).to.equal(LOCK);
      expect(account.freeCollateral).to.equal(collateralFor(parseEther("100")) - LOCK);
    });

    it("issues sequential ids from 1", async function () {
      const f = await loadFixture(scenario);
      for (const expected of [1n, 2n, 3n]) {
        await expect(f.redemptionManager.connect(f.user).initiateRedemption(parseEther("1"), f.provider.address))
          .to.emit(f.redemptionManager, "RedemptionInitiated")
          .withArgs(expected, f.user.address, parseEther("1"), f.provider.address);
      }
      expect(await f.redemptionViews.redemptionCount()).to.equal(3n);
    });

    it("sets the deadline from the provider's tier: 24 h, 6 h, 1 h", async function () {
      const f = await loadFixture(scenario);
      const signers = await ethers.getSigners();
      const premium = f.provider2;
      const enterprise = signers[9];
      await f.collateral.mint(enterprise.address, parseEther("1"));
      await f.collateral.connect(enterprise).approve(await f.mintingAgent.getAddress(), ethers.MaxUint256);
      await registerActive(f, premium, Tier.Premium);
      await registerActive(f, enterprise, Tier.Enterprise);
      await mintFor(f, premium, parseEther("5"));
      await mintFor(f, enterprise, parseEther("5"));

      for (const [provider, hours, rid] of [
        [f.provider, 24n, 1n],
        [premium, 6n, 2n],
        [enterprise, 1n, 3n],
      ] as const) {
        await f.redemptionManager.connect(f.user).initiateRedemption(parseEther("1"), provider.address);
        expect((await f.redemptionViews.redemptionOf(rid)).deadline).to.equal((await now()) + hours * HOUR);
      }
    });

    it("rounds the fee up and charges none when governance sets it to zero", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager;
      expect(await f.redemptionViews.quoteFee(1n)).to.deep.equal([1n, 2n]);
      expect(await f.redemptionViews.quoteFee(parseEther("1"))).to.deep.equal([
        parseEther("0.001"),
        parseEther("1.001"),
      ]);
      // 10 bps of 1 sSTB + 1 wei is 0.0010...01 sSTB: rounded up to the next wei
      const odd = parseEther("1") + 1n;
      await expect(m.connect(f.user).initiateRedemption(odd, f.provider.address)).to.changeTokenBalances(
        ethers,
        f.sstb,
        [f.user, f.treasury],
        [-(odd + parseEther("0.001") + 1n), parseEther("0.001") + 1n],
      );
      await m.setRedemptionFee(0n);
      await expect(m.connect(f.user).initiateRedemption(AMOUNT, f.provider.address)).to.changeTokenBalances(
        ethers,
        f.sstb,
        [f.user, f.treasury],
        [-AMOUNT, 0n],
      );
    });

    it("reverts below the minimum, for an unknown provider or too little capacity, and changes nothing", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager.connect(f.user);
      const before = await everything(f);
      for (const amount of [0n, parseEther("1") - 1n]) {
        await expect(m.initiateRedemption(amount, f.provider.address))
          .to.be.revertedWithCustomError(m, "RedemptionBelowMinimum")
          .withArgs(amount, parseEther("1"));
      }
      await expect(m.initiateRedemption(parseEther("101"), f.provider.address))
        .to.be.revertedWithCustomError(f.registry, "InsufficientCapacity")
        .withArgs(parseEther("101"), parseEther("100"));
      await expect(m.initiateRedemption(AMOUNT, f.stranger.address))
        .to.be.revertedWithCustomError(f.registry, "ProviderNotRegistered")
        .withArgs(f.stranger.address);
      expect(await everything(f)).to.deep.equal(before);
    });

    it("reverts without allowance or balance for amount plus fee, and changes nothing", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager;
      await f.sstb.connect(f.user).approve(f.managerAddress, AMOUNT); // fee not covered
      const before = await everything(f);
      // one allowance spend covers the burn and the fee
      await expect(m.connect(f.user).initiateRedemption(AMOUNT, f.provider.address))
        .to.be.revertedWithCustomError(f.sstb, "ERC20InsufficientAllowance")
        .withArgs(f.managerAddress, AMOUNT, AMOUNT + FEE);
      await f.sstb.connect(f.stranger).approve(f.managerAddress, ethers.MaxUint256);
      await expect(m.connect(f.stranger).initiateRedemption(AMOUNT, f.provider.address))
        .to.be.revertedWithCustomError(f.sstb, "ERC20InsufficientBalance")
        .withArgs(f.stranger.address, 0n, FEE);
      expect(await everything(f)).to.deep.equal(before);
    });
  });

  describe("fulfillRedemption", function () {
    it("records the fulfilment and carries an envelope only the user can open", async function () {
      const { f, rid } = await pending();
      const m = f.redemptionManager;
      const details = sampleAccessDetails(rid);
      const { envelope, receipt } = await fulfilEncrypted(m, f.provider, rid, details, f.userKeys.publicKey, f.chainId);
      const t = BigInt((await ethers.provider.getBlock(receipt.blockNumber))!.timestamp);
      const [event] = await m.queryFilter(m.filters.RedemptionFulfilled(rid));
      expect(event.args.provider).to.equal(f.provider.address);
      expect(event.args.accessDetails).to.equal(envelope);
      expect(envelope).to.not.contain(details.hostname);
      expect(envelope).to.not.contain(details.username);

      expect(await readAccessDetails(m, rid, f.userKeys.privateKey, f.chainId)).to.deep.equal(details);
      expect(await m.redemptions(rid)).to.deep.equal([
        f.user.address,
        AMOUNT,
        (await f.redemptionViews.redemptionOf(rid)).timestamp,
        f.provider.address,
        true,
        false,
      ]);
      expect(await f.redemptionViews.redemptionStatus(rid)).to.equal(RStatus.Fulfilled);
      expect((await f.redemptionViews.redemptionOf(rid)).fulfilledAt).to.equal(t);
      expect((await f.redemptionViews.deadlinesOf(rid))[1]).to.equal(t + 72n * HOUR);
    });

    it("is accepted after the deadline while nobody has expired the redemption", async function () {
      const { f, rid } = await pending();
      await time.increase(25n * HOUR);
      await expect(f.redemptionManager.connect(f.provider).fulfillRedemption(rid, "envelope"))
        .to.emit(f.redemptionManager, "RedemptionFulfilled")
        .withArgs(rid, f.provider.address, "envelope");
    });

    it("reverts 'Only provider can fulfill' for the user and a stranger", async function () {
      const { f, rid } = await pending();
      const before = await everything(f);
      for (const caller of [f.user, f.stranger]) {
        await expect(f.redemptionManager.connect(caller).fulfillRedemption(rid, "envelope")).to.be.revertedWith(
          "Only provider can fulfill",
        );
      }
      expect(await everything(f)).to.deep.equal(before);
    });

    it("reverts 'Already fulfilled' when fulfilled again, also after confirmation", async function () {
      const { f, rid } = await fulfilled();
      const m = f.redemptionManager.connect(f.provider);
      await expect(m.fulfillRedemption(rid, "again")).to.be.revertedWith("Already fulfilled");
      await f.redemptionManager.connect(f.user).confirmRedemption(rid);
      await expect(m.fulfillRedemption(rid, "again")).to.be.revertedWith("Already fulfilled");
    });

    it("reverts after expiry, during a dispute opened after the deadline, and with an empty envelope", async function () {
      const { f, rid } = await pending();
      const m = f.redemptionManager;
      await expect(m.connect(f.provider).fulfillRedemption(rid, "")).to.be.revertedWithCustomError(
        m,
        "RedemptionEmptyAccessDetails",
      );
      await m.connect(f.user).initiateRedemption(AMOUNT, f.provider.address);
      await time.increase(24n * HOUR + 1n);
      await m.connect(f.user).openDispute(2n, IssueType.NotDelivered, EVIDENCE);
      await expect(m.connect(f.provider).fulfillRedemption(2n, "late"))
        .to.be.revertedWithCustomError(m, "RedemptionInvalidStatus")
        .withArgs(2n, RStatus.Disputed);
      await m.connect(f.stranger).expireRedemption(rid);
      await expect(m.connect(f.provider).fulfillRedemption(rid, "late"))
        .to.be.revertedWithCustomError(m, "RedemptionInvalidStatus")
        .withArgs(rid, RStatus.Expired);
    });

    it("reverts for an id never issued", async function () {
      const f = await loadFixture(scenario);
      await expect(f.redemptionManager.connect(f.provider).fulfillRedemption(7n, "envelope"))
        .to.be.revertedWithCustomError(f.redemptionManager, "RedemptionNotFound")
        .withArgs(7n);
    });
  });

  describe("confirmRedemption", function () {
    it("releases the lock, raises reputation, records statistics and emits RedemptionConfirmed", async function () {
      const { f, rid } = await fulfilled();
      const m = f.redemptionManager;
      const stored = await f.redemptionViews.redemptionOf(rid);
      const freeBefore = (await f.registry.accountOf(f.provider.address)).freeCollateral;
      const tx = m.connect(f.user).confirmRedemption(rid);
      await expect(tx).to.emit(m, "RedemptionConfirmed").withArgs(rid, f.user.address);
      await expect(tx)
        .to.emit(f.registry, "CollateralReleased")
        .withArgs(f.provider.address, LOCK, stored.fulfilledAt - stored.timestamp, 1n);
      await expect(tx).to.emit(f.registry, "ReputationChanged").withArgs(f.provider.address, 5000n, 5100n);

      const account = await f.registry.accountOf(f.provider.address);
      expect(account.freeCollateral).to.equal(freeBefore + LOCK);
      expect(account.lockedCollateral).to.equal(0n);
      expect(account.availableCU).to.equal(parseEther("90")); // the redeemed capacity stays used
      expect(account.totalRedemptions).to.equal(1n);
      expect(account.successfulRedemptions).to.equal(1n);
      expect((await m.redemptions(rid))[4]).to.equal(true);
      expect((await m.redemptions(rid))[5]).to.equal(true);
      expect(statusName(await f.redemptionViews.redemptionStatus(rid))).to.equal("confirmed");
    });

    it("reverts 'Only user can confirm' for the provider and a stranger", async function () {
      const { f, rid } = await fulfilled();
      const before = await everything(f);
      for (const caller of [f.provider, f.stranger]) {
        await expect(f.redemptionManager.connect(caller).confirmRedemption(rid)).to.be.revertedWith(
          "Only user can confirm",
        );
      }
      expect(await everything(f)).to.deep.equal(before);
    });

    it("reverts 'Not fulfilled yet' while pending and after expiry", async function () {
      const { f, rid } = await pending();
      const m = f.redemptionManager.connect(f.user);
      await expect(m.confirmRedemption(rid)).to.be.revertedWith("Not fulfilled yet");
      await time.increase(24n * HOUR + 1n);
      await m.expireRedemption(rid);
      await expect(m.confirmRedemption(rid)).to.be.revertedWith("Not fulfilled yet");
    });

    it("reverts 'Already confirmed' on a second confirmation, which changes nothing", async function () {
      const { f, rid } = await fulfilled();
      const m = f.redemptionManager.connect(f.user);
      await m.confirmRedemption(rid);
      const before = await everything(f);
      await expect(m.confirmRedemption(rid)).to.be.revertedWith("Already confirmed");
      expect(await everything(f)).to.deep.equal(before);
    });

    it("reverts while a dispute is open", async function () {
      const { f, rid } = await fulfilled();
      const m = f.redemptionManager.connect(f.user);
      await m.openDispute(rid, IssueType.AccessFailure, EVIDENCE);
      await expect(m.confirmRedemption(rid))
        .to.be.revertedWithCustomError(m, "RedemptionInvalidStatus")
        .withArgs(rid, RStatus.Disputed);
    });
  });

  describe("finalizeRedemption", function () {
    it("lets anyone complete a fulfilled redemption once the dispute window passed in silence", async function () {
      const { f, rid } = await fulfilled();
      const m = f.redemptionManager;
      const { fulfilledAt } = await f.redemptionViews.redemptionOf(rid);
      const end = fulfilledAt + 72n * HOUR;
      await time.setNextBlockTimestamp(end);
      await expect(m.connect(f.stranger).finalizeRedemption(rid))
        .to.be.revertedWithCustomError(m, "DisputeWindowOpen")
        .withArgs(rid, end);

      await time.setNextBlockTimestamp(end + 1n);
      const tx = m.connect(f.stranger).finalizeRedemption(rid);
      await expect(tx).to.emit(m, "RedemptionConfirmed").withArgs(rid, f.user.address);
      await expect(tx).to.emit(f.registry, "ReputationChanged").withArgs(f.provider.address, 5000n, 5100n);
      expect((await f.registry.accountOf(f.provider.address)).lockedCollateral).to.equal(0n);
      expect(await f.redemptionViews.redemptionStatus(rid)).to.equal(RStatus.Confirmed);
      expect((await m.redemptions(rid))[5]).to.equal(true);
      await expect(m.connect(f.user).confirmRedemption(rid)).to.be.revertedWith("Already confirmed");
    });

    it("reverts for a pending, disputed or confirmed redemption", async function () {
      const { f, rid } = await pending();
      const m = f.redemptionManager;
      await expect(m.finalizeRedemption(rid))
        .to.be.revertedWithCustomError(m, "RedemptionInvalidStatus")
        .withArgs(rid, RStatus.Pending);
      await m.connect(f.provider).fulfillRedemption(rid, "envelope");
      await m.connect(f.user).openDispute(rid, IssueType.ResourceMismatch, EVIDENCE);
      await time.increase(73n * HOUR);
      await expect(m.finalizeRedemption(rid))
        .to.be.revertedWithCustomError(m, "RedemptionInvalidStatus")
        .withArgs(rid, RStatus.Disputed);
    });
  });

  describe("expireRedemption", function () {
    it("pays the lock out after the deadline (penalty to the treasury during the stake) and lowers reputation, called by anyone", async function () {
      const { f, rid } = await pending();
      const m = f.redemptionManager;
      const { deadline } = await f.redemptionViews.redemptionOf(rid);
      await time.setNextBlockTimestamp(deadline);
      await expect(m.connect(f.stranger).expireRedemption(rid))
        .to.be.revertedWithCustomError(m, "RedemptionDeadlineNotPassed")
        .withArgs(rid, deadline);

      await time.setNextBlockTimestamp(deadline + 1n);
      const tx = m.connect(f.stranger).expireRedemption(rid);
      await expect(tx).to.emit(m, "RedemptionExpired").withArgs(rid, f.user.address, VALUE, PENALTY);
      await expect(tx)
        .to.emit(f.registry, "CollateralPaidOut")
        .withArgs(f.provider.address, f.user.address, VALUE, PENALTY, 1n);
      await expect(tx).to.emit(f.registry, "ReputationChanged").withArgs(f.provider.address, 5000n, 4500n);
      await expect(tx).to.changeTokenBalances(
        ethers,
        f.collateral,
        [f.user, f.treasury, await f.registry.getAddress()],
        [VALUE, PENALTY, -LOCK],
      );
      expect(statusName(await f.redemptionViews.redemptionStatus(rid))).to.equal("expired");
      expect(await f.registry.providerStats(f.provider.address)).to.deep.equal([1n, 0n, 0n]);
      expect((await f.registry.accountOf(f.provider.address)).lockedCollateral).to.equal(0n);
    });

    it("never pays a lock twice, and never expires a fulfilled redemption", async function () {
      const { f, rid } = await pending();
      const m = f.redemptionManager;
      await time.increase(24n * HOUR + 1n);
      await m.expireRedemption(rid);
      const before = await everything(f);
      await expect(m.expireRedemption(rid))
        .to.be.revertedWithCustomError(m, "RedemptionInvalidStatus")
        .withArgs(rid, RStatus.Expired);
      expect(await everything(f)).to.deep.equal(before);

      await m.connect(f.user).initiateRedemption(AMOUNT, f.provider.address);
      await m.connect(f.provider).fulfillRedemption(2n, "envelope");
      await time.increase(24n * HOUR + 1n);
      await expect(m.expireRedemption(2n))
        .to.be.revertedWithCustomError(m, "RedemptionInvalidStatus")
        .withArgs(2n, RStatus.Fulfilled);
    });
  });

  describe("openDispute", function () {
    it("disputes a fulfilled redemption within 72 h of the fulfilment", async function () {
      const { f, rid } = await fulfilled();
      const m = f.redemptionManager;
      const { fulfilledAt } = await f.redemptionViews.redemptionOf(rid);
      await time.setNextBlockTimestamp(fulfilledAt + 72n * HOUR);
      await expect(m.connect(f.user).openDispute(rid, IssueType.PerformanceShortfall, EVIDENCE))
        .to.emit(m, "DisputeOpened")
        .withArgs(rid, f.user.address, IssueType.PerformanceShortfall, EVIDENCE);
      expect(statusName(await f.redemptionViews.redemptionStatus(rid))).to.equal("disputed");
      const dispute = await f.redemptionViews.disputeOf(rid);
      expect(dispute.issueType).to.equal(IssueType.PerformanceShortfall);
      expect(dispute.openedAt).to.equal(fulfilledAt + 72n * HOUR);
      expect(dispute.evidenceHash).to.equal(EVIDENCE);
      expect(dispute.resolvedAt).to.equal(0n);
      // the getter keeps the spec's flags: fulfilled, not confirmed
      expect((await m.redemptions(rid)).slice(4)).to.deep.equal([true, false]);
    });

    it("disputes a pending redemption within 72 h of the request", async function () {
      const { f, rid } = await pending();
      await time.increase(30n * HOUR); // past the 24 h deadline, still inside the window
      await expect(f.redemptionManager.connect(f.user).openDispute(rid, IssueType.NotDelivered, EVIDENCE))
        .to.emit(f.redemptionManager, "DisputeOpened")
        .withArgs(rid, f.user.address, IssueType.NotDelivered, EVIDENCE);
    });

    it("reverts after the window, and changes nothing", async function () {
      const { f, rid } = await fulfilled();
      const m = f.redemptionManager;
      const { fulfilledAt } = await f.redemptionViews.redemptionOf(rid);
      await time.setNextBlockTimestamp(fulfilledAt + 72n * HOUR + 1n);
      await networkHelpers.mine();
      const before = await everything(f);
      await expect(m.connect(f.user).openDispute(rid, IssueType.AccessFailure, EVIDENCE))
        .to.be.revertedWithCustomError(m, "DisputeWindowClosed")
        .withArgs(rid, fulfilledAt + 72n * HOUR);
      expect(await everything(f)).to.deep.equal(before);
    });

    it("reverts when disputed twice, after confirmation, without evidence, or by anyone but the user", async function () {
      const { f, rid } = await fulfilled();
      const m = f.redemptionManager;
      for (const caller of [f.provider, f.stranger]) {
        await expect(m.connect(caller).openDispute(rid, IssueType.Other, EVIDENCE))
          .to.be.revertedWithCustomError(m, "RedemptionUnauthorized")
          .withArgs(rid, caller.address);
      }
      await expect(m.connect(f.user).openDispute(rid, IssueType.Other, ethers.ZeroHash)).to.be.revertedWithCustomError(
        m,
        "DisputeEvidenceMissing",
      );
      await m.connect(f.user).openDispute(rid, IssueType.Other, EVIDENCE);
      await expect(m.connect(f.user).openDispute(rid, IssueType.Other, EVIDENCE))
        .to.be.revertedWithCustomError(m, "RedemptionInvalidStatus")
        .withArgs(rid, RStatus.Disputed);

      await m.connect(f.user).initiateRedemption(AMOUNT, f.provider.address);
      await m.connect(f.provider).fulfillRedemption(2n, "envelope");
      await m.connect(f.user).confirmRedemption(2n);
      await expect(m.connect(f.user).openDispute(2n, IssueType.Other, EVIDENCE))
        .to.be.revertedWithCustomError(m, "RedemptionInvalidStatus")
        .withArgs(2n, RStatus.Confirmed);
    });

    it("rejects an issue type outside the enum", async function () {
      const { f, rid } = await fulfilled();
      await expect(f.redemptionManager.connect(f.user).openDispute(rid, 5n, EVIDENCE)).to.be.revert(ethers);
      expect(await f.redemptionViews.redemptionStatus(rid)).to.equal(RStatus.Fulfilled);
    });
  });

  describe("respondToDispute", function () {
    it("records the provider's single response", async function () {
      const { f, rid } = await fulfilled();
      const m = f.redemptionManager;
      await m.connect(f.user).openDispute(rid, IssueType.AccessFailure, EVIDENCE);
      await expect(m.connect(f.provider).respondToDispute(rid, RESPONSE))
        .to.emit(m, "DisputeResponded")
        .withArgs(rid, f.provider.address, RESPONSE);
      const dispute = await f.redemptionViews.disputeOf(rid);
      expect(dispute.responseHash).to.equal(RESPONSE);
      expect(dispute.respondedAt).to.equal(await now());
      await expect(m.connect(f.provider).respondToDispute(rid, RESPONSE))
        .to.be.revertedWithCustomError(m, "DisputeAlreadyAnswered")
        .withArgs(rid);
    });

    it("reverts for anyone but the provider, without a hash, and when nothing is disputed", async function () {
      const { f, rid } = await fulfilled();
      const m = f.redemptionManager;
      await expect(m.connect(f.provider).respondToDispute(rid, RESPONSE))
        .to.be.revertedWithCustomError(m, "RedemptionInvalidStatus")
        .withArgs(rid, RStatus.Fulfilled);
      await m.connect(f.user).openDispute(rid, IssueType.AccessFailure, EVIDENCE);
      for (const caller of [f.user, f.stranger]) {
        await expect(m.connect(caller).respondToDispute(rid, RESPONSE))
          .to.be.revertedWithCustomError(m, "RedemptionUnauthorized")
          .withArgs(rid, caller.address);
      }
      await expect(m.connect(f.provider).respondToDispute(rid, ethers.ZeroHash)).to.be.revertedWithCustomError(
        m,
        "DisputeEvidenceMissing",
      );
    });
  });

  describe("resolveDispute", function () {
    async function disputed() {
      const { f, rid } = await fulfilled();
      await f.redemptionManager.connect(f.user).openDispute(rid, IssueType.ResourceMismatch, EVIDENCE);
      return { f, rid };
    }

    it("user wins: the lock goes to the user and reputation falls", async function () {
      const { f, rid } = await disputed();
      const m = f.redemptionManager;
      const tx = m.connect(f.arbitrator).resolveDispute(rid, true, false);
      await expect(tx).to.emit(m, "DisputeResolved").withArgs(rid, f.arbitrator.address, true, false, LOCK);
      await expect(tx).to.emit(f.registry, "ReputationChanged").withArgs(f.provider.address, 5000n, 4500n);
      await expect(tx).to.changeTokenBalances(ethers, f.collateral, [f.user], [LOCK]);
      expect(statusName(await f.redemptionViews.redemptionStatus(rid))).to.equal("resolved");
      const dispute = await f.redemptionViews.disputeOf(rid);
      expect(dispute.userWon).to.equal(true);
      expect(dispute.resolvedAt).to.equal(await now());
      expect((await f.registry.accountOf(f.provider.address)).status).to.equal(Status.Active);
      expect((await m.redemptions(rid)).slice(4)).to.deep.equal([true, false]);
    });

    it("user wins with suspension: the provider is suspended, once", async function () {
      const { f, rid } = await disputed();
      const m = f.redemptionManager;
      await m.connect(f.user).initiateRedemption(AMOUNT, f.provider.address);
      await time.increase(24n * HOUR + 1n); // a pending redemption is disputed after its deadline
      await m.connect(f.user).openDispute(2n, IssueType.NotDelivered, EVIDENCE);
      await expect(m.connect(f.arbitrator).resolveDispute(rid, true, true))
        .to.emit(f.registry, "ProviderStatusChanged")
        .withArgs(f.provider.address, Status.Active, Status.Suspended, f.managerAddress);
      expect((await f.redemptionViews.disputeOf(rid)).providerSuspended).to.equal(true);
      // a second ruling against an already suspended provider still pays the user
      await expect(m.connect(f.arbitrator).resolveDispute(2n, true, true))
        .to.emit(m, "DisputeResolved")
        .withArgs(2n, f.arbitrator.address, true, false, LOCK);
      expect((await f.registry.accountOf(f.provider.address)).status).to.equal(Status.Suspended);
    });

    it("provider wins: the lock is released as on a confirmation", async function () {
      const { f, rid } = await disputed();
      const m = f.redemptionManager;
      const stored = await f.redemptionViews.redemptionOf(rid);
      const tx = m.connect(f.arbitrator).resolveDispute(rid, false, true);
      await expect(tx).to.emit(m, "DisputeResolved").withArgs(rid, f.arbitrator.address, false, false, 0n);
      await expect(tx)
        .to.emit(f.registry, "CollateralReleased")
        .withArgs(f.provider.address, LOCK, stored.fulfilledAt - stored.timestamp, 1n);
      await expect(tx).to.changeTokenBalances(ethers, f.collateral, [f.user], [0n]);
      expect(await f.registry.providerStats(f.provider.address)).to.deep.equal([1n, 1n, 0n]);
      expect((await f.registry.accountOf(f.provider.address)).status).to.equal(Status.Active);
    });

    it("provider wins a dispute opened before fulfilment: response time runs to the ruling", async function () {
      const { f, rid } = await pending();
      const m = f.redemptionManager;
      await time.increase(24n * HOUR + 1n);
      await m.connect(f.user).openDispute(rid, IssueType.NotDelivered, EVIDENCE);
      const { timestamp } = await f.redemptionViews.redemptionOf(rid);
      await time.setNextBlockTimestamp(timestamp + 26n * HOUR);
      await expect(m.connect(f.arbitrator).resolveDispute(rid, false, false))
        .to.emit(f.registry, "CollateralReleased")
        .withArgs(f.provider.address, LOCK, 26n * HOUR, 1n);
      expect(await f.registry.providerStats(f.provider.address)).to.deep.equal([1n, 1n, 26n * 60n]);
    });

    it("refuses strangers, the user and the provider; reverts when nothing is disputed or resolved twice", async function () {
      const { f, rid } = await disputed();
      const m = f.redemptionManager;
      const before = await everything(f);
      for (const caller of [f.stranger, f.user, f.provider]) {
        await expect(m.connect(caller).resolveDispute(rid, true, false))
          .to.be.revertedWithCustomError(m, "AccessControlUnauthorizedAccount")
          .withArgs(caller.address, Roles.ARBITRATOR);
      }
      expect(await everything(f)).to.deep.equal(before);
      await m.connect(f.arbitrator).resolveDispute(rid, true, false);
      await expect(m.connect(f.arbitrator).resolveDispute(rid, false, false))
        .to.be.revertedWithCustomError(m, "RedemptionInvalidStatus")
        .withArgs(rid, RStatus.Resolved);
      await m.connect(f.user).initiateRedemption(AMOUNT, f.provider.address);
      await expect(m.connect(f.arbitrator).resolveDispute(2n, true, false))
        .to.be.revertedWithCustomError(m, "RedemptionInvalidStatus")
        .withArgs(2n, RStatus.Pending);
    });
  });

  describe("views", function () {
    it("return zeros from the spec's getter for an unknown id and revert elsewhere", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager;
      expect(await m.redemptions(1n)).to.deep.equal([ethers.ZeroAddress, 0n, 0n, ethers.ZeroAddress, false, false]);
      for (const call of [
        () => f.redemptionViews.redemptionStatus(1n),
        () => f.redemptionViews.redemptionOf(1n),
        () => f.redemptionViews.deadlinesOf(1n),
        () => f.redemptionViews.disputeOf(1n),
      ]) {
        await expect(call()).to.be.revertedWithCustomError(m, "RedemptionNotFound").withArgs(1n);
      }
    });
  });

  describe("governance", function () {
    it("sets the fee up to its 1% cap, the treasury, tier deadlines and the dispute window", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager;
      await expect(m.setRedemptionFee(100n))
        .to.emit(m, "ParameterUpdated")
        .withArgs(ethers.encodeBytes32String("redemptionFeeBps"), 10n, 100n);
      await expect(m.setTreasury(f.stranger.address))
        .to.emit(m, "TreasuryUpdated")
        .withArgs(f.treasury.address, f.stranger.address);
      await expect(m.setTierDeadline(Tier.Premium, 2n * HOUR))
        .to.emit(m, "ParameterUpdated")
        .withArgs(ethers.encodeBytes32String("premiumDeadline"), 6n * HOUR, 2n * HOUR);
      await expect(m.setDisputeWindow(48n * HOUR))
        .to.emit(m, "ParameterUpdated")
        .withArgs(ethers.encodeBytes32String("disputeWindow"), 72n * HOUR, 48n * HOUR);
      expect(await f.redemptionViews.feeBps()).to.equal(100n);
      expect(await f.redemptionViews.treasury()).to.equal(f.stranger.address);
      expect(await f.redemptionViews.tierDeadline(Tier.Premium)).to.equal(2n * HOUR);
      expect(await f.redemptionViews.tierDeadline(Tier.Standard)).to.equal(24n * HOUR);
      expect(await f.redemptionViews.disputeWindow()).to.equal(48n * HOUR);
      await expect(m.connect(f.user).initiateRedemption(AMOUNT, f.provider.address)).to.changeTokenBalances(
        ethers,
        f.sstb,
        [f.stranger],
        [AMOUNT / 100n],
      );
    });

    it("rejects values out of bounds and keeps the old ones", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager;
      const b32 = ethers.encodeBytes32String;
      for (const [call, name, value] of [
        [() => m.setRedemptionFee(101n), "redemptionFeeBps", 101n],
        [() => m.setTierDeadline(Tier.Standard, 15n * 60n - 1n), "standardDeadline", 15n * 60n - 1n],
        [() => m.setTierDeadline(Tier.Enterprise, 7n * DAY + 1n), "enterpriseDeadline", 7n * DAY + 1n],
        [() => m.setDisputeWindow(HOUR - 1n), "disputeWindow", HOUR - 1n],
        [() => m.setDisputeWindow(30n * DAY + 1n), "disputeWindow", 30n * DAY + 1n],
      ] as const) {
        await expect(call()).to.be.revertedWithCustomError(m, "ParameterOutOfBounds").withArgs(b32(name), value);
      }
      await expect(m.setTreasury(ethers.ZeroAddress)).to.be.revertedWithCustomError(m, "ZeroAddress");
      expect(await f.redemptionViews.feeBps()).to.equal(10n);
      expect(await f.redemptionViews.tierDeadline(Tier.Standard)).to.equal(24n * HOUR);
      expect(await f.redemptionViews.tierDeadline(Tier.Enterprise)).to.equal(HOUR);
      expect(await f.redemptionViews.disputeWindow()).to.equal(72n * HOUR);
      expect(await f.redemptionViews.treasury()).to.equal(f.treasury.address);
    });

    it("refuses strangers on every setter and on upgrades", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager.connect(f.stranger);
      for (const call of [
        () => m.setRedemptionFee(1n),
        () => m.setTreasury(f.stranger.address),
        () => m.setTierDeadline(Tier.Standard, HOUR),
        () => m.setDisputeWindow(HOUR),
      ]) {
        await expect(call())
          .to.be.revertedWithCustomError(m, "AccessControlUnauthorizedAccount")
          .withArgs(f.stranger.address, Roles.GOVERNANCE);
      }
      await expect(m.upgradeToAndCall(f.stranger.address, "0x"))
        .to.be.revertedWithCustomError(m, "AccessControlUnauthorizedAccount")
        .withArgs(f.stranger.address, Roles.UPGRADER);
    });

    it("a tier deadline change applies to new redemptions only", async function () {
      const { f, rid } = await pending();
      const m = f.redemptionManager;
      const { deadline } = await f.redemptionViews.redemptionOf(rid);
      await m.setTierDeadline(Tier.Standard, HOUR);
      expect((await f.redemptionViews.redemptionOf(rid)).deadline).to.equal(deadline);
      await m.connect(f.user).initiateRedemption(AMOUNT, f.provider.address);
      expect((await f.redemptionViews.redemptionOf(2n)).deadline).to.equal((await now()) + HOUR);
    });
  });

  describe("pause", function () {
    it("the guardian stops initiation; everything that settles a redemption keeps working", async function () {
      const { f, rid } = await fulfilled();
      const m = f.redemptionManager;
      await m.connect(f.user).initiateRedemption(AMOUNT, f.provider.address); // 2: will expire
      await m.connect(f.user).initiateRedemption(AMOUNT, f.provider.address); // 3: will be disputed
      await m.connect(f.user).initiateRedemption(AMOUNT, f.provider.address); // 4: fulfilled, finalized
      await pauseAs(m, f.guardian, "guardian");
      expect(await m.paused()).to.equal(true);

      const before = await everything(f, [1n, 2n, 3n, 4n]);
      await expect(m.connect(f.user).initiateRedemption(AMOUNT, f.provider.address)).to.be.revertedWithCustomError(
        m,
        "EnforcedPause",
      );
      expect(await everything(f, [1n, 2n, 3n, 4n])).to.deep.equal(before);

      await m.connect(f.user).confirmRedemption(rid);
      await m.connect(f.provider).fulfillRedemption(4n, "envelope");
      await time.increase(24n * HOUR + 1n);
      await m.connect(f.user).openDispute(3n, IssueType.NotDelivered, EVIDENCE);
      await m.connect(f.provider).respondToDispute(3n, RESPONSE);
      await m.connect(f.arbitrator).resolveDispute(3n, true, false);
      await m.connect(f.stranger).expireRedemption(2n);
      await time.increase(48n * HOUR);
      await m.finalizeRedemption(4n);
      expect(await m.paused()).to.equal(true);
      expect(await Promise.all([1n, 2n, 3n, 4n].map((id) => f.redemptionViews.redemptionStatus(id)))).to.deep.equal([
        RStatus.Confirmed,
        RStatus.Expired,
        RStatus.Resolved,
        RStatus.Confirmed,
      ]);
    });

    it("only governance unpauses; strangers cannot pause; no double pause or unpause", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager;
      await expect(m.connect(f.stranger).pause())
        .to.be.revertedWithCustomError(m, "AccessControlUnauthorizedAccount")
        .withArgs(f.stranger.address, Roles.GUARDIAN);
      await expect(m.unpause()).to.be.revertedWithCustomError(m, "ExpectedPause");
      await m.connect(f.guardian).pause();
      await expect(m.connect(f.guardian).pause()).to.be.revertedWithCustomError(m, "EnforcedPause");
      for (const caller of [f.guardian, f.stranger]) {
        await expect(m.connect(caller).unpause())
          .to.be.revertedWithCustomError(m, "AccessControlUnauthorizedAccount")
          .withArgs(caller.address, Roles.GOVERNANCE);
      }
      await expect(m.unpause()).to.emit(m, "Unpaused").withArgs(f.deployer.address);
      expect(await m.paused()).to.equal(false);
      await m.connect(f.user).initiateRedemption(AMOUNT, f.provider.address);
      // governance may pause as well
      await pauseAs(m, f.deployer, "governance");
    });
  });

  describe("access-details envelope on-chain", function () {
    it("cannot be opened for another redemption or by the provider's key", async function () {
      const { f, rid, envelope } = await fulfilled();
      const context = await envelopeContext(f.redemptionManager, rid, f.chainId);
      expect(() =>
        decryptAccessDetails(envelope, f.userKeys.privateKey, { ...context, redemptionId: rid + 1n }),
      ).to.throw(/does not open/);
      expect(() => decryptAccessDetails(envelope, generateAccessKeyPair().privateKey, context)).to.throw(
        /does not open/,
      );
    });
  });
});
