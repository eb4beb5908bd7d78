import { expect } from "chai";
import { network } from "hardhat";
import { id, parseEther } from "ethers";

import { Roles } from "@compute-capacity/sdk";
import { collateralFor, mintFor, sampleProfile } from "../../helpers/protocol.js";
import {
  DAY,
  accountSlots,
  accountToFirstLayout,
  deltasToFirstLayout,
  firstLayoutSlots,
  namedManager,
  packedWords,
  pricingToFirstLayout,
  toFirstLayout,
} from "../../helpers/leases.js";
import type { FirstLayoutAccount } from "../../helpers/leases.js";
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
      expect(await f.redemptionViews.redemptionStatus(1n)).to.equal(RStatus.Fulfilled);
      expect(await f.redemptionViews.leaseStatus(1n)).to.equal(LeaseStatus.Active);
      expect(await f.redemptionViews.leaseIdOf(2n)).to.equal(0n);
    });
  });

  describe("operations", function () {
    it("a fulfilled first-layout record is confirmed in place: the lock is released", async function () {
      const { f } = await inFlightAtUpgrade();
      const m = f.redemptionManager;
      const stored = await f.redemptionViews.redemptionOf(1n);
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
      expect(await f.redemptionViews.redemptionStatus(2n)).to.equal(RStatus.Expired);
      expect(await f.redemptionViews.redemptionStatus(1n)).to.equal(RStatus.Confirmed);
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
      expect(await f.redemptionViews.leaseOf(2n)).to.deep.equal([
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
      expect(await f.redemptionViews.leaseIdOf(3n)).to.equal(2n);
      // a dispute of the first-layout redemption counts on its lease, in place
      await m.connect(f.user).openDispute(2n, IssueType.AccessFailure, EVIDENCE);
      expect((await f.redemptionViews.leaseOf(2n)).openDisputes).to.equal(1n);
      await m.connect(f.arbitrator).resolveDispute(2n, false, false);
      expect((await f.redemptionViews.leaseOf(2n)).openDisputes).to.equal(0n);
      await expect(m.connect(f.user).terminateLease(2n))
        .to.emit(m, "LeaseTerminated")
        .withArgs(2n, f.user.address, f.provider.address);
      expect(await f.redemptionViews.leaseStatus(2n)).to.equal(LeaseStatus.Terminated);
    });

    it("a fulfilled first-layout record without a stated end is terminated (a flag in its first slot's spare byte)", async function () {
      const { f } = await inFlightAtUpgrade();
      const m = f.redemptionManager;
      await expect(m.connect(f.user).terminateLease(1n))
        .to.emit(m, "LeaseTerminated")
        .withArgs(1n, f.user.address, f.provider.address);
      expect(await f.redemptionViews.leaseStatus(1n)).to.equal(LeaseStatus.Terminated);
      expect((await firstLayoutSlots(ethers, f, 1n))[0] >> 248n).to.equal(4n);
      expect(await f.redemptionViews.redemptionStatus(1n)).to.equal(RStatus.Fulfilled);
      await m.connect(f.user).openDispute(1n, IssueType.AccessFailure, EVIDENCE);
      expect((await f.redemptionViews.leaseOf(1n)).openDisputes).to.equal(1n);
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
      expect((await f.redemptionViews.redemptionOf(3n)).provider).to.equal(f.provider.address);
      expect((await packedWords(ethers, f, 3n))[0]).to.not.equal(0n);
      await m.connect(f.provider).fulfillRedemption(2n, "envelope");
      await m.connect(f.user).confirmRedemption(2n);
      expect(await f.redemptionViews.redemptionStatus(2n)).to.equal(RStatus.Confirmed);
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

/**
 * A provider with a history, as a registry upgraded from the first layout holds it: one
 * redemption confirmed (statistics and reputation moved), one fulfilled (locked), one pending
 * (locked); then its account is moved into the first layout's three slots.
 */
async function providerInFirstLayout() {
  const f = await loadFixture(scenario);
  const m = f.redemptionManager;
  for (let i = 0; i < 3; i++) await m.connect(f.user).initiateRedemption(AMOUNT, f.provider.address);
  await time.increase(HOUR);
  await m.connect(f.provider).fulfillRedemption(1n, "envelope");
  await m.connect(f.provider).fulfillRedemption(2n, "envelope");
  await m.connect(f.user).confirmRedemption(1n);
  const views = await registryViews(f);
  const words = (await accountSlots(ethers, f, f.provider.address)).words;
  await accountToFirstLayout(ethers, f, f.provider.address);
  return { f, views, words };
}

/** The named fields of an account as `accountOf` returns it. */
function fieldsOf(a: FirstLayoutAccount): FirstLayoutAccount {
  return {
    status: a.status,
    tier: a.tier,
    reputation: a.reputation,
    registeredAt: a.registeredAt,
    stakedUntil: a.stakedUntil,
    totalRedemptions: a.totalRedemptions,
    successfulRedemptions: a.successfulRedemptions,
    totalResponseTime: a.totalResponseTime,
    availableCU: a.availableCU,
    totalCU: a.totalCU,
    freeCollateral: a.freeCollateral,
    lockedCollateral: a.lockedCollateral,
  };
}

/** Everything the registry shows of the fixture's provider. */
async function registryViews(f: RedemptionFixture) {
  const r = f.registry;
  const p = f.provider.address;
  return {
    account: await r.accountOf(p),
    info: await r.providerInfo(p),
    statusAndTier: await r.statusAndTierOf(p),
    stats: await r.providerStats(p),
    excess: await r.excessCollateral(p),
    reviewed: await r.reviewedProfileHash(p),
  };
}

describe("ProviderRegistry: accounts of the first layout", function () {
  it("every view shows a first-layout account as it showed the same account in words", async function () {
    const { f, views } = await providerInFirstLayout();
    const slots = await accountSlots(ethers, f, f.provider.address);
    expect(slots.words).to.deep.equal([0n, 0n, 0n]);
    expect(slots.firstLayout.every((slot) => slot !== 0n)).to.equal(true);
    expect(await registryViews(f)).to.deep.equal(views);
    // the history is really there: a success counted, locks held, reputation moved
    expect(views.stats[0]).to.equal(1n);
    expect(views.account.lockedCollateral).to.equal(2n * LOCK);
    expect(views.account.reputation).to.not.equal(5_000n);
  });

  it("every field of the first layout keeps its meaning (each set to a distinct value)", async function () {
    const f = await loadFixture(scenario);
    const account = {
      status: 3n, // suspended
      tier: 2n, // enterprise
      reputation: 7_777n,
      registeredAt: 1_700_000_001n,
      stakedUntil: 1_800_000_002n,
      totalRedemptions: 70_003n,
      successfulRedemptions: 60_004n,
      totalResponseTime: 2n ** 63n + 5n,
      availableCU: 2n ** 100n + 6n,
      totalCU: 2n ** 127n + 7n,
      freeCollateral: 2n ** 110n + 8n,
      lockedCollateral: 2n ** 103n + 9n,
    };
    await accountToFirstLayout(ethers, f, f.provider.address, account);
    const shown = await f.registry.accountOf(f.provider.address);
    expect(fieldsOf(shown)).to.deep.equal(account);
    expect(await f.registry.statusAndTierOf(f.provider.address)).to.deep.equal([3n, 2n]);
    // the first touch moves every field into the words unchanged (suspending again is refused,
    // but reinstating is allowed from suspended and keeps everything else)
    await f.registry
      .connect(f.deployer)
      .reinstateProvider(f.provider.address, await f.registry.reviewedProfileHash(f.provider.address));
    const slots = await accountSlots(ethers, f, f.provider.address);
    expect(slots.firstLayout).to.deep.equal([0n, 0n, 0n]);
    expect(fieldsOf(await f.registry.accountOf(f.provider.address))).to.deep.equal({ ...account, status: 2n });
  });

  it("a provider's first operation moves its account into words once, as if it had never left them", async function () {
    type Operation = (f: RedemptionFixture) => Promise<unknown>;
    const operations: [string, Operation][] = [
      ["confirmation (releaseLock)", (f) => f.redemptionManager.connect(f.user).confirmRedemption(2n)],
      [
        "expiry (payOutLock)",
        async (f) => {
          await time.increase(DAY);
          return f.redemptionManager.connect(f.stranger).expireRedemption(3n);
        },
      ],
      [
        "dispute lost (payOutLock with a penalty)",
        async (f) => {
          await f.redemptionManager.connect(f.user).openDispute(2n, IssueType.AccessFailure, EVIDENCE);
          return f.redemptionManager.connect(f.arbitrator).resolveDispute(2n, true, false);
        },
      ],
      [
        "initiation (reserveCapacity)",
        (f) => f.redemptionManager.connect(f.user).initiateRedemption(AMOUNT, f.provider.address),
      ],
      ["deposit", (f) => f.registry.connect(f.provider).depositCollateral(1_000n)],
      ["mint (recordMint)", (f) => mintFor(f, f.provider, parseEther("5"))],
      ["suspension", (f) => f.registry.connect(f.arbitrator).suspendProvider(f.provider.address)],
      ["profile update", (f) => f.registry.connect(f.provider).updateProfile(sampleProfile("renamed"))],
    ];
    for (const [name, operation] of operations) {
      // the same operation at the same time on the account in words and in the first layout
      const control = await loadFixture(scenario);
      const m = control.redemptionManager;
      for (let i = 0; i < 3; i++) await m.connect(control.user).initiateRedemption(AMOUNT, control.provider.address);
      await time.increase(HOUR);
      await m.connect(control.provider).fulfillRedemption(1n, "envelope");
      await m.connect(control.provider).fulfillRedemption(2n, "envelope");
      await m.connect(control.user).confirmRedemption(1n);
      const at = (await now()) + 10n;
      await time.setNextBlockTimestamp(at);
      await operation(control);
      const expected = {
        views: await registryViews(control),
        slots: await accountSlots(ethers, control, control.provider.address),
      };

      const { f } = await providerInFirstLayout();
      await time.setNextBlockTimestamp(at);
      await operation(f);
      expect(
        { views: await registryViews(f), slots: await accountSlots(ethers, f, f.provider.address) },
        name,
      ).to.deep.equal(expected);
      expect(expected.slots.firstLayout, name).to.deep.equal([0n, 0n, 0n]);
    }
  });

  it("a first-layout provider cannot register again; an unregistered account is still refused, nothing written", async function () {
    const { f } = await providerInFirstLayout();
    await expect(f.registry.connect(f.provider).register(sampleProfile(), 0n))
      .to.be.revertedWithCustomError(f.registry, "ProviderAlreadyRegistered")
      .withArgs(f.provider.address);
    await expect(f.registry.connect(f.stranger).depositCollateral(1n))
      .to.be.revertedWithCustomError(f.registry, "ProviderNotRegistered")
      .withArgs(f.stranger.address);
    expect(await accountSlots(ethers, f, f.stranger.address)).to.deep.equal({
      firstLayout: [0n, 0n, 0n],
      words: [0n, 0n, 0n],
    });
  });

  it("reputation deltas come from the first layout's fields until governance sets them", async function () {
    const { f } = await providerInFirstLayout();
    const r = f.registry;
    await deltasToFirstLayout(ethers, f, 40n, 300n);
    expect(await r.reputationDeltas()).to.deep.equal([40n, 300n]);
    // the manager's slot is empty too (as after an upgrade): its hooks pass the role check
    expect(await namedManager(ethers, f)).to.equal(ethers.ZeroAddress);
    const before = (await r.accountOf(f.provider.address)).reputation;
    await f.redemptionManager.connect(f.user).confirmRedemption(2n);
    expect((await r.accountOf(f.provider.address)).reputation).to.equal(before + 40n);

    const name = ethers.encodeBytes32String;
    await expect(r.setReputationDeltas(60n, 200n))
      .to.emit(r, "ParameterUpdated")
      .withArgs(name("reputationReward"), 40n, 60n)
      .and.to.emit(r, "ParameterUpdated")
      .withArgs(name("reputationPenalty"), 300n, 200n);
    // from then on the old fields are never read
    await deltasToFirstLayout(ethers, f, 7n, 9n, { keepNew: true });
    expect(await r.reputationDeltas()).to.deep.equal([60n, 200n]);
    await time.increase(HOUR);
    const rep = (await r.accountOf(f.provider.address)).reputation;
    await f.redemptionManager.connect(f.provider).fulfillRedemption(3n, "envelope");
    await f.redemptionManager.connect(f.user).confirmRedemption(3n);
    expect((await r.accountOf(f.provider.address)).reputation).to.equal(rep + 60n);
  });

  it("the manager's slot names the last holder of its role granted, and nobody once it is revoked", async function () {
    const f = await loadFixture(scenario);
    const r = f.registry;
    const manager = f.managerAddress;
    expect(await namedManager(ethers, f)).to.equal(manager);
    await r.grantRole(Roles.REDEMPTION_MANAGER, f.deployer.address);
    expect(await namedManager(ethers, f)).to.equal(f.deployer.address);
    // the manager, no longer named, still holds the role: its hooks pass through the role check
    await f.redemptionManager.connect(f.user).initiateRedemption(AMOUNT, f.provider.address);
    // revoking an account the slot does not name leaves the slot alone
    await r.grantRole(Roles.REDEMPTION_MANAGER, f.stranger.address);
    await r.revokeRole(Roles.REDEMPTION_MANAGER, f.deployer.address);
    expect(await namedManager(ethers, f)).to.equal(f.stranger.address);
    await r.revokeRole(Roles.REDEMPTION_MANAGER, f.stranger.address);
    expect(await namedManager(ethers, f)).to.equal(ethers.ZeroAddress);
    await expect(r.connect(f.stranger).reserveCapacity(f.provider.address, AMOUNT))
      .to.be.revertedWithCustomError(r, "AccessControlUnauthorizedAccount")
      .withArgs(f.stranger.address, Roles.REDEMPTION_MANAGER);
    // the deltas in the same slot are untouched by the role's moves
    expect(await r.reputationDeltas()).to.deep.equal([100n, 500n]);
  });
});
