import { expect } from "chai";
import { network } from "hardhat";
import { id, parseEther } from "ethers";

import { Roles } from "#sdk";
import { collateralFor } from "../../helpers/protocol.js";
import { DAY, firstLayoutSlots, packedWords, pricingToFirstLayout, toFirstLayout } from "../../helpers/leases.js";
import {
  HOUR,
  IssueType,
  LeaseStatus,
  RStatus,
  deployRedemptionScenario,
  managerState,
} from "../../helpers/redemption.js";
import type { RedemptionFixture } from "../../helpers/redemption.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture, time } = networkHelpers;

const AMOUNT = parseEther("10");
const LOCK = collateralFor(AMOUNT);
const EVIDENCE = id("evidence");

async function scenario(): Promise<RedemptionFixture> {
  return deployRedemptionScenario(connection);
}

async function now(): Promise<bigint> {
  return BigInt((await ethers.provider.getBlock("latest"))!.timestamp);
}

/**
 * Two redemptions in the first layout, as a manager upgraded with them in flight holds them: 1
 * fulfilled (no stated end), 2 pending; the manager has forgotten the provider's index.
 */
async function inFlightAtUpgrade() {
  const f = await loadFixture(scenario);
  const m = f.redemptionManager;
  await m.connect(f.user).initiateRedemption(AMOUNT, f.provider.address);
  await m.connect(f.provider).fulfillRedemption(1n, "envelope");
  await m.connect(f.user).initiateRedemption(AMOUNT, f.provider.address);
  const views = await managerState(f, [1n, 2n]);
  await toFirstLayout(ethers, f, 1n);
  await toFirstLayout(ethers, f, 2n, { forgetProvider: true });
  return { f, views };
}

describe("RedemptionManager: records of the first layout", function () {
  describe("reading", function () {
    it("every view shows a first-layout record as it showed the same record packed", async function () {
      const { f, views } = await inFlightAtUpgrade();
      expect(await managerState(f, [1n, 2n])).to.deep.equal(views);
      for (const rid of [1n, 2n]) {
        expect(await packedWords(ethers, f, rid)).to.deep.equal([0n, 0n]);
        expect((await firstLayoutSlots(ethers, f, rid)).every((slot) => slot !== 0n)).to.equal(true);
      }
      expect(await f.redemptionManager.redemptionStatus(1n)).to.equal(RStatus.Fulfilled);
      expect(await f.redemptionManager.leaseStatus(1n)).to.equal(LeaseStatus.Active);
      expect(await f.redemptionManager.leaseIdOf(2n)).to.equal(0n);
    });
  });

  describe("operations", function () {
    it("a fulfilled first-layout record is confirmed in place: the lock is released", async function () {
      const { f } = await inFlightAtUpgrade();
      const m = f.redemptionManager;
      const stored = await m.redemptionOf(1n);
      await expect(m.connect(f.user).confirmRedemption(1n))
        .to.emit(f.registry, "CollateralReleased")
        .withArgs(f.provider.address, LOCK, stored.fulfilledAt - stored.timestamp, 1n);
      expect(await m.redemptions(1n)).to.deep.equal([
        f.user.address,
        AMOUNT,
        stored.timestamp,
        f.provider.address,
        true,
        true,
      ]);
      expect(await packedWords(ethers, f, 1n)).to.deep.equal([0n, 0n]);
      // the status byte of the first slot moved to Confirmed
      expect(((await firstLayoutSlots(ethers, f, 1n))[0] >> 240n) & 0xffn).to.equal(RStatus.Confirmed);
    });

    it("a pending first-layout record expires in place, and a fulfilled one is finalized", async function () {
      const { f } = await inFlightAtUpgrade();
      const m = f.redemptionManager;
      await time.increase(72n * HOUR + 1n);
      await expect(m.connect(f.stranger).expireRedemption(2n)).to.emit(m, "RedemptionExpired");
      await expect(m.connect(f.stranger).finalizeRedemption(1n))
        .to.emit(m, "RedemptionConfirmed")
        .withArgs(1n, f.user.address);
      expect(await m.redemptionStatus(2n)).to.equal(RStatus.Expired);
      expect(await m.redemptionStatus(1n)).to.equal(RStatus.Confirmed);
      expect((await f.registry.accountOf(f.provider.address)).lockedCollateral).to.equal(0n);
    });

    it("a pending first-layout record is fulfilled with a stated end; the lease renews and terminates", async function () {
      const { f } = await inFlightAtUpgrade();
      const m = f.redemptionManager;
      const end = (await now()) + 30n * DAY;
      await expect(m.connect(f.provider).fulfillRedemptionWithLease(2n, "envelope", end))
        .to.emit(m, "LeaseStarted")
        .withArgs(2n, f.user.address, f.provider.address, end);
      expect(await packedWords(ethers, f, 2n)).to.deep.equal([0n, 0n]);
      expect(await m.leaseOf(2n)).to.deep.equal([
        LeaseStatus.Active,
        f.user.address,
        f.provider.address,
        end,
        0n,
        0n,
        0n,
        0n,
      ]);
      await m.connect(f.provider).offerRenewal(2n, AMOUNT, DAY, end);
      await expect(m.connect(f.user).acceptRenewal(2n, AMOUNT, DAY))
        .to.emit(m, "LeaseRenewed")
        .withArgs(2n, 3n, end + DAY, parseEther("0.01"), LOCK);
      expect(await m.leaseIdOf(3n)).to.equal(2n);
      // a dispute of the first-layout redemption counts on its lease, in place
      await m.connect(f.user).openDispute(2n, IssueType.AccessFailure, EVIDENCE);
      expect((await m.leaseOf(2n)).openDisputes).to.equal(1n);
      await m.connect(f.arbitrator).resolveDispute(2n, false, false);
      expect((await m.leaseOf(2n)).openDisputes).to.equal(0n);
      await expect(m.connect(f.user).terminateLease(2n))
        .to.emit(m, "LeaseTerminated")
        .withArgs(2n, f.user.address, f.provider.address);
      expect(await m.leaseStatus(2n)).to.equal(LeaseStatus.Terminated);
    });

    it("a fulfilled first-layout record without a stated end is terminated (a flag in its first slot's spare byte)", async function () {
      const { f } = await inFlightAtUpgrade();
      const m = f.redemptionManager;
      await expect(m.connect(f.user).terminateLease(1n))
        .to.emit(m, "LeaseTerminated")
        .withArgs(1n, f.user.address, f.provider.address);
      expect(await m.leaseStatus(1n)).to.equal(LeaseStatus.Terminated);
      expect((await firstLayoutSlots(ethers, f, 1n))[0] >> 248n).to.equal(4n);
      expect(await m.redemptionStatus(1n)).to.equal(RStatus.Fulfilled);
      await m.connect(f.user).openDispute(1n, IssueType.AccessFailure, EVIDENCE);
      expect((await m.leaseOf(1n)).openDisputes).to.equal(1n);
      await expect(m.connect(f.arbitrator).resolveDispute(1n, true, false)).to.changeTokenBalances(
        ethers,
        f.collateral,
        [f.user],
        [LOCK],
      );
    });

    it("a forgotten provider gets a new index at its next redemption; its first-layout records still settle", async function () {
      const { f } = await inFlightAtUpgrade();
      const m = f.redemptionManager;
      await m.connect(f.user).initiateRedemption(AMOUNT, f.provider.address);
      expect((await m.redemptionOf(3n)).provider).to.equal(f.provider.address);
      expect((await packedWords(ethers, f, 3n))[0]).to.not.equal(0n);
      await m.connect(f.provider).fulfillRedemption(2n, "envelope");
      await m.connect(f.user).confirmRedemption(2n);
      expect(await m.redemptionStatus(2n)).to.equal(RStatus.Confirmed);
    });
  });
});

describe("ProviderRegistry: pricing of the first layout", function () {
  it("a registry upgraded from the first layout prices from the old fields until governance sets one", async function () {
    const f = await loadFixture(scenario);
    const r = f.registry;
    await r.grantRole(Roles.REDEMPTION_MANAGER, f.deployer.address);
    await pricingToFirstLayout(ethers, f, 15_000n, 2_000_000n);
    expect([await r.collateralRatioBps(), await r.collateralPerCU()]).to.deep.equal([15_000n, 2_000_000n]);
    expect(await r.requiredCollateral(parseEther("1"))).to.equal(3_000_000n);
    // a redemption locks at the first layout's pricing: 10 sSTB at 150% of 2 USDC
    expect(await r.reserveCapacity.staticCall(f.provider.address, AMOUNT)).to.deep.equal([30_000_000n, 15_000n]);

    // setting one parameter writes the whole pair, the other half taken from the old field
    const name = ethers.encodeBytes32String;
    await expect(r.setCollateralRatio(13_000n))
      .to.emit(r, "ParameterUpdated")
      .withArgs(name("collateralRatioBps"), 15_000n, 13_000n);
    expect([await r.collateralRatioBps(), await r.collateralPerCU()]).to.deep.equal([13_000n, 2_000_000n]);
    // from then on the old fields are never read
    await pricingToFirstLayout(ethers, f, 30_000n, 9n, { keepPair: true });
    expect([await r.collateralRatioBps(), await r.collateralPerCU()]).to.deep.equal([13_000n, 2_000_000n]);
    expect(await r.reserveCapacity.staticCall(f.provider.address, AMOUNT)).to.deep.equal([26_000_000n, 13_000n]);
  });

  it("setting the price first keeps the old ratio", async function () {
    const f = await loadFixture(scenario);
    const r = f.registry;
    await pricingToFirstLayout(ethers, f, 15_000n, 2_000_000n);
    await expect(r.setCollateralPerCU(1_000_000n))
      .to.emit(r, "ParameterUpdated")
      .withArgs(ethers.encodeBytes32String("collateralPerCU"), 2_000_000n, 1_000_000n);
    expect([await r.collateralRatioBps(), await r.collateralPerCU()]).to.deep.equal([15_000n, 1_000_000n]);
  });
});
