import { expect } from "chai";
import { network } from "hardhat";
import { hexlify, id, parseEther } from "ethers";

import { Roles } from "@compute-capacity/sdk";
import { collateralFor } from "../../helpers/protocol.js";
import { DAY, clearMaxLeaseTerm } from "../../helpers/leases.js";
import {
  HOUR,
  IssueType,
  LeaseStatus,
  RStatus,
  deployRedemptionScenario,
  managerState,
} from "../../helpers/redemption.js";
import type { RedemptionFixture } from "../../helpers/redemption.js";
import { pauseAs } from "../../helpers/pause.js";
import { protocolState } from "../../helpers/snapshot.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture, time } = networkHelpers;

const AMOUNT = parseEther("10");
const FEE = parseEther("0.01");
const LOCK = collateralFor(AMOUNT);
const TERM = 30n * DAY;
/** The renewal the provider offers in these tests: 20 sSTB for 30 more days. */
const PRICE = parseEther("20");
const PRICE_FEE = parseEther("0.02");
const PRICE_LOCK = collateralFor(PRICE);
const EXTENSION = 30n * DAY;
const MAX_TERM = 365n * DAY;
const EVIDENCE = id("evidence: the host refuses the key");
/** An X25519 public key (any 32 bytes; the contract keeps what the user registers). */
const KEY = hexlify(Uint8Array.from({ length: 32 }, (_, i) => i + 1));
const OTHER_KEY = hexlify(Uint8Array.from({ length: 32 }, (_, i) => 200 - i));

/** The redemption scenario, with the user holding 90 of the provider's 100 sSTB (renewals cost more). */
async function scenario(): Promise<RedemptionFixture> {
  const f = await deployRedemptionScenario(connection);
  await f.sstb.connect(f.provider).transfer(f.user.address, parseEther("40"));
  return f;
}

async function now(): Promise<bigint> {
  return BigInt((await ethers.provider.getBlock("latest"))!.timestamp);
}

/** A pending redemption of AMOUNT by the user with the provider (id 1). */
async function pending() {
  const f = await loadFixture(scenario);
  await f.redemptionManager.connect(f.user).initiateRedemption(AMOUNT, f.provider.address);
  return { f, rid: 1n };
}

/** Redemption 1 fulfilled with a lease ending TERM after the fulfilment. */
async function leased() {
  const { f, rid } = await pending();
  await time.setNextBlockTimestamp((await now()) + 60n);
  const end = (await now()) + 1n + TERM;
  await f.redemptionManager.connect(f.provider).fulfillRedemptionWithLease(rid, "envelope", end);
  return { f, rid, end };
}

/** Redemption 1 fulfilled by the spec's two-argument call: a lease without a stated end. */
async function endless() {
  const { f, rid } = await pending();
  await f.redemptionManager.connect(f.provider).fulfillRedemption(rid, "envelope");
  return { f, rid };
}

/** The lease of `leased()` with a standing offer: PRICE for EXTENSION, open until a day before the end. */
async function offered() {
  const { f, rid, end } = await leased();
  const validUntil = end - DAY;
  await f.redemptionManager.connect(f.provider).offerRenewal(rid, PRICE, EXTENSION, validUntil);
  return { f, rid, end, validUntil };
}

/** The offer of `offered()` accepted: renewal 2 of lease 1, which now ends EXTENSION later. */
async function renewed() {
  const { f, rid, end } = await offered();
  await f.redemptionManager.connect(f.user).acceptRenewal(rid, PRICE, EXTENSION);
  return { f, rid, renewalId: 2n, end: end + EXTENSION };
}

/** The lease of `offered()` terminated by its user. */
async function terminated() {
  const { f, rid, end } = await offered();
  await f.redemptionManager.connect(f.user).terminateLease(rid);
  return { f, rid, end };
}

/** Balances, accounting, every record and lease of `ids`, and the three parties' access keys. */
async function everything(f: RedemptionFixture, ids: readonly bigint[] = [1n]) {
  const accounts = [f.user.address, f.provider.address, f.treasury.address, f.stranger.address];
  return { protocol: await protocolState(f, accounts), manager: await managerState(f, ids, accounts) };
}

describe("RedemptionManager: access keys and leases", function () {
  describe("registerAccessKey", function () {
    it("registers the caller's key, shown by accessKeyOf; a second call replaces it", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager;
      expect(await f.redemptionViews.accessKeyOf(f.user.address)).to.equal(ethers.ZeroHash);
      await expect(m.connect(f.user).registerAccessKey(KEY))
        .to.emit(m, "AccessKeyRegistered")
        .withArgs(f.user.address, KEY);
      expect(await f.redemptionViews.accessKeyOf(f.user.address)).to.equal(KEY);
      await expect(m.connect(f.user).registerAccessKey(OTHER_KEY))
        .to.emit(m, "AccessKeyRegistered")
        .withArgs(f.user.address, OTHER_KEY);
      expect(await f.redemptionViews.accessKeyOf(f.user.address)).to.equal(OTHER_KEY);
    });

    it("registers for the caller only: a stranger's call leaves the user's key alone", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager;
      await m.connect(f.user).registerAccessKey(KEY);
      await expect(m.connect(f.stranger).registerAccessKey(OTHER_KEY))
        .to.emit(m, "AccessKeyRegistered")
        .withArgs(f.stranger.address, OTHER_KEY);
      expect(await f.redemptionViews.accessKeyOf(f.user.address)).to.equal(KEY);
      expect(await f.redemptionViews.accessKeyOf(f.stranger.address)).to.equal(OTHER_KEY);
    });

    it("announces nothing when the key is the one already registered", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager;
      await m.connect(f.user).registerAccessKey(KEY);
      await expect(m.connect(f.user).registerAccessKey(KEY)).to.not.emit(m, "AccessKeyRegistered");
      expect(await f.redemptionViews.accessKeyOf(f.user.address)).to.equal(KEY);
    });

    it("refuses a zero key and changes nothing", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager;
      await m.connect(f.user).registerAccessKey(KEY);
      const before = await everything(f);
      await expect(m.connect(f.user).registerAccessKey(ethers.ZeroHash)).to.be.revertedWithCustomError(
        m,
        "AccessKeyInvalid",
      );
      expect(await everything(f)).to.deep.equal(before);
    });
  });

  describe("initiateRedemptionWithAccessKey", function () {
    it("registers the key and initiates in one transaction, as initiateRedemption does", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager;
      expect(
        await m.connect(f.user).initiateRedemptionWithAccessKey.staticCall(AMOUNT, f.provider.address, KEY),
      ).to.equal(1n);
      const tx = m.connect(f.user).initiateRedemptionWithAccessKey(AMOUNT, f.provider.address, KEY);
      await expect(tx).to.emit(m, "AccessKeyRegistered").withArgs(f.user.address, KEY);
      await expect(tx).to.emit(m, "RedemptionInitiated").withArgs(1n, f.user.address, AMOUNT, f.provider.address);
      const t = await now();
      await expect(tx)
        .to.emit(m, "RedemptionTerms")
        .withArgs(1n, FEE, LOCK, t + 24n * HOUR);
      await expect(tx).to.changeTokenBalances(ethers, f.sstb, [f.user, f.treasury], [-(AMOUNT + FEE), FEE]);
      expect(await f.redemptionViews.accessKeyOf(f.user.address)).to.equal(KEY);
      expect(await m.redemptions(1n)).to.deep.equal([f.user.address, AMOUNT, t, f.provider.address, false, false]);
    });

    it("keeps a key already registered without announcing it again", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager;
      await m.connect(f.user).registerAccessKey(KEY);
      const tx = m.connect(f.user).initiateRedemptionWithAccessKey(AMOUNT, f.provider.address, KEY);
      await expect(tx).to.not.emit(m, "AccessKeyRegistered");
      await expect(tx).to.emit(m, "RedemptionInitiated");
    });

    it("reverts as a whole: a refused initiation keeps the old key, a zero key refuses the initiation", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager.connect(f.user);
      await m.registerAccessKey(KEY);
      const before = await everything(f);
      await expect(m.initiateRedemptionWithAccessKey(parseEther("0.5"), f.provider.address, OTHER_KEY))
        .to.be.revertedWithCustomError(m, "RedemptionBelowMinimum")
        .withArgs(parseEther("0.5"), parseEther("1"));
      await expect(
        m.initiateRedemptionWithAccessKey(AMOUNT, f.provider.address, ethers.ZeroHash),
      ).to.be.revertedWithCustomError(m, "AccessKeyInvalid");
      await pauseAs(f.redemptionManager, f.guardian, "guardian");
      await expect(
        m.initiateRedemptionWithAccessKey(AMOUNT, f.provider.address, OTHER_KEY),
      ).to.be.revertedWithCustomError(m, "EnforcedPause");
      expect(await everything(f)).to.deep.equal(before);
    });
  });

  describe("fulfillRedemptionWithLease", function () {
    it("fulfils with a stated end: RedemptionFulfilled and LeaseStarted, the end shown beside the record", async function () {
      const { f, rid } = await pending();
      const m = f.redemptionManager;
      const end = (await now()) + TERM;
      const tx = m.connect(f.provider).fulfillRedemptionWithLease(rid, "envelope", end);
      await expect(tx).to.emit(m, "RedemptionFulfilled").withArgs(rid, f.provider.address, "envelope");
      await expect(tx).to.emit(m, "LeaseStarted").withArgs(rid, f.user.address, f.provider.address, end);
      const t = await now();
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
      expect(await f.redemptionViews.leaseOf(rid)).to.deep.equal([
        LeaseStatus.Active,
        f.user.address,
        f.provider.address,
        end,
        0n,
        0n,
        0n,
        0n,
      ]);
      expect(await f.redemptionViews.leaseStatus(rid)).to.equal(LeaseStatus.Active);
      expect(await f.redemptionViews.leaseIdOf(rid)).to.equal(rid);
    });

    it("accepts an end from the next second up to the maximum term from now", async function () {
      const { f, rid } = await pending();
      const m = f.redemptionManager;
      await m.connect(f.user).initiateRedemption(AMOUNT, f.provider.address);
      let t = (await now()) + 10n;
      await time.setNextBlockTimestamp(t);
      await expect(m.connect(f.provider).fulfillRedemptionWithLease(rid, "envelope", t + 1n))
        .to.emit(m, "LeaseStarted")
        .withArgs(rid, f.user.address, f.provider.address, t + 1n);
      t += 10n;
      await time.setNextBlockTimestamp(t);
      await expect(m.connect(f.provider).fulfillRedemptionWithLease(2n, "envelope", t + MAX_TERM))
        .to.emit(m, "LeaseStarted")
        .withArgs(2n, f.user.address, f.provider.address, t + MAX_TERM);
    });

    it("refuses an end in the past, at the current second, or beyond the maximum term, and changes nothing", async function () {
      const { f, rid } = await pending();
      const m = f.redemptionManager.connect(f.provider);
      const before = await everything(f);
      const t = (await now()) + 100n;
      for (const end of [0n, t - 1n, t, t + MAX_TERM + 1n]) {
        await time.setNextBlockTimestamp(t);
        await expect(m.fulfillRedemptionWithLease(rid, "envelope", end))
          .to.be.revertedWithCustomError(m, "LeaseEndOutOfRange")
          .withArgs(end, t + 1n, t + MAX_TERM);
      }
      expect(await everything(f)).to.deep.equal(before);
    });

    it("keeps the spec's strings: 'Only provider can fulfill' for the user and a stranger, 'Already fulfilled' after either fulfilment", async function () {
      const { f, rid } = await pending();
      const m = f.redemptionManager;
      const end = (await now()) + TERM;
      const before = await everything(f);
      for (const caller of [f.user, f.stranger]) {
        await expect(m.connect(caller).fulfillRedemptionWithLease(rid, "envelope", end)).to.be.revertedWith(
          "Only provider can fulfill",
        );
      }
      expect(await everything(f)).to.deep.equal(before);
      await m.connect(f.provider).fulfillRedemption(rid, "envelope");
      await expect(m.connect(f.provider).fulfillRedemptionWithLease(rid, "again", end)).to.be.revertedWith(
        "Already fulfilled",
      );
      await m.connect(f.user).initiateRedemption(AMOUNT, f.provider.address);
      await m.connect(f.provider).fulfillRedemptionWithLease(2n, "envelope", end);
      await expect(m.connect(f.provider).fulfillRedemptionWithLease(2n, "again", end)).to.be.revertedWith(
        "Already fulfilled",
      );
      await expect(m.connect(f.provider).fulfillRedemption(2n, "again")).to.be.revertedWith("Already fulfilled");
    });

    it("refuses an empty envelope, an expired redemption and an id never issued", async function () {
      const { f, rid } = await pending();
      const m = f.redemptionManager.connect(f.provider);
      const end = (await now()) + TERM;
      await expect(m.fulfillRedemptionWithLease(rid, "", end)).to.be.revertedWithCustomError(
        m,
        "RedemptionEmptyAccessDetails",
      );
      await expect(m.fulfillRedemptionWithLease(9n, "envelope", end))
        .to.be.revertedWithCustomError(m, "RedemptionNotFound")
        .withArgs(9n);
      await time.increase(24n * HOUR + 1n);
      await m.expireRedemption(rid);
      await expect(m.fulfillRedemptionWithLease(rid, "late", end))
        .to.be.revertedWithCustomError(m, "RedemptionInvalidStatus")
        .withArgs(rid, RStatus.Expired);
    });

    it("refuses every stated end while the maximum term is unset (a proxy upgraded before its reinitializer)", async function () {
      const { f, rid } = await pending();
      await clearMaxLeaseTerm(ethers, f);
      expect(await f.redemptionViews.maxLeaseTerm()).to.equal(0n);
      const t = (await now()) + 5n;
      await time.setNextBlockTimestamp(t);
      await expect(f.redemptionManager.connect(f.provider).fulfillRedemptionWithLease(rid, "envelope", t + 1n))
        .to.be.revertedWithCustomError(f.redemptionManager, "LeaseEndOutOfRange")
        .withArgs(t + 1n, t + 1n, t);
      // the spec's fulfilment, without a stated end, is unaffected
      await f.redemptionManager.connect(f.provider).fulfillRedemption(rid, "envelope");
    });
  });

  describe("offerRenewal", function () {
    it("the provider offers a renewal, shown in leaseOf; a second offer replaces the first", async function () {
      const { f, rid, end } = await leased();
      const m = f.redemptionManager;
      await expect(m.connect(f.provider).offerRenewal(rid, PRICE, EXTENSION, end - DAY))
        .to.emit(m, "RenewalOffered")
        .withArgs(rid, f.provider.address, PRICE, EXTENSION, end - DAY);
      let lease = await f.redemptionViews.leaseOf(rid);
      expect([lease.offerPrice, lease.offerExtension, lease.offerValidUntil]).to.deep.equal([
        PRICE,
        EXTENSION,
        end - DAY,
      ]);
      await expect(m.connect(f.provider).offerRenewal(rid, AMOUNT, 7n * DAY, end))
        .to.emit(m, "RenewalOffered")
        .withArgs(rid, f.provider.address, AMOUNT, 7n * DAY, end);
      lease = await f.redemptionViews.leaseOf(rid);
      expect([lease.offerPrice, lease.offerExtension, lease.offerValidUntil]).to.deep.equal([AMOUNT, 7n * DAY, end]);
      expect(lease.end).to.equal(end); // an offer alone moves nothing
    });

    it("refuses the user and a stranger, and changes nothing", async function () {
      const { f, rid, end } = await leased();
      const before = await everything(f);
      for (const caller of [f.user, f.stranger]) {
        await expect(f.redemptionManager.connect(caller).offerRenewal(rid, PRICE, EXTENSION, end - DAY))
          .to.be.revertedWithCustomError(f.redemptionManager, "RedemptionUnauthorized")
          .withArgs(rid, caller.address);
      }
      expect(await everything(f)).to.deep.equal(before);
    });

    it("refuses a price below the minimum, an extension of 0 or beyond the maximum term, a validity not ahead or after the end", async function () {
      const { f, rid, end } = await leased();
      const m = f.redemptionManager.connect(f.provider);
      const before = await everything(f);
      const t = (await now()) + 100n;
      const maxExtension = t + MAX_TERM - end;
      const cases = [
        [parseEther("1") - 1n, EXTENSION, end - DAY, "RedemptionBelowMinimum", [parseEther("1") - 1n, parseEther("1")]],
        [PRICE, 0n, end - DAY, "RenewalExtensionOutOfRange", [0n, maxExtension]],
        [PRICE, maxExtension + 1n, end - DAY, "RenewalExtensionOutOfRange", [maxExtension + 1n, maxExtension]],
        [PRICE, EXTENSION, t, "RenewalValidityOutOfRange", [t, t + 1n, end]],
        [PRICE, EXTENSION, end + 1n, "RenewalValidityOutOfRange", [end + 1n, t + 1n, end]],
      ] as const;
      for (const [price, extension, validUntil, error, args] of cases) {
        await time.setNextBlockTimestamp(t);
        await expect(m.offerRenewal(rid, price, extension, validUntil))
          .to.be.revertedWithCustomError(m, error)
          .withArgs(...args);
      }
      expect(await everything(f)).to.deep.equal(before);
      // the largest extension the maximum term allows is taken
      await time.setNextBlockTimestamp(t);
      await expect(m.offerRenewal(rid, PRICE, maxExtension, end)).to.emit(m, "RenewalOffered");
    });

    it("offers no extension while governance's maximum term is shorter than the time the lease has left", async function () {
      const { f, rid, end } = await leased();
      const m = f.redemptionManager;
      await m.setMaxLeaseTerm(7n * DAY); // the lease still runs for about 30 days
      await expect(m.connect(f.provider).offerRenewal(rid, PRICE, 1n, end))
        .to.be.revertedWithCustomError(m, "RenewalExtensionOutOfRange")
        .withArgs(1n, 0n);
      // the running lease keeps its end
      expect((await f.redemptionViews.leaseOf(rid)).end).to.equal(end);
    });

    it("offers nothing on a lease without a stated end, a renewal, a pending redemption or an id never issued", async function () {
      const { f, rid } = await renewed();
      const m = f.redemptionManager;
      await m.connect(f.user).initiateRedemption(AMOUNT, f.provider.address); // 3: pending
      await m.connect(f.user).initiateRedemption(AMOUNT, f.provider.address); // 4: fulfilled, no end
      await m.connect(f.provider).fulfillRedemption(4n, "envelope");
      const validUntil = (await now()) + DAY;
      for (const leaseId of [2n, 3n, 4n, 9n]) {
        await expect(m.connect(f.provider).offerRenewal(leaseId, PRICE, EXTENSION, validUntil))
          .to.be.revertedWithCustomError(m, "LeaseNotRenewable")
          .withArgs(leaseId);
      }
      expect(await f.redemptionViews.leaseStatus(rid)).to.equal(LeaseStatus.Active);
    });

    it("offers nothing on a terminated, an ended or a disputed lease, and changes nothing", async function () {
      const { f, rid, end } = await terminated();
      let before = await everything(f);
      await expect(f.redemptionManager.connect(f.provider).offerRenewal(rid, PRICE, EXTENSION, end))
        .to.be.revertedWithCustomError(f.redemptionManager, "LeaseAlreadyTerminated")
        .withArgs(rid);
      expect(await everything(f)).to.deep.equal(before);

      const { f: g, rid: leaseId, end: leaseEnd } = await leased();
      const m = g.redemptionManager;
      await m.connect(g.user).openDispute(leaseId, IssueType.AccessFailure, EVIDENCE);
      before = await everything(g);
      await expect(m.connect(g.provider).offerRenewal(leaseId, PRICE, EXTENSION, leaseEnd))
        .to.be.revertedWithCustomError(m, "LeaseUnderDispute")
        .withArgs(leaseId, 1n);
      expect(await everything(g)).to.deep.equal(before);
      await time.increaseTo(leaseEnd);
      await expect(m.connect(g.provider).offerRenewal(leaseId, PRICE, EXTENSION, leaseEnd + DAY))
        .to.be.revertedWithCustomError(m, "LeaseEnded")
        .withArgs(leaseId, leaseEnd);
    });

    it("is open while the manager is paused (an offer moves no value)", async function () {
      const { f, rid, end } = await leased();
      await pauseAs(f.redemptionManager, f.guardian, "guardian");
      await expect(f.redemptionManager.connect(f.provider).offerRenewal(rid, PRICE, EXTENSION, end)).to.emit(
        f.redemptionManager,
        "RenewalOffered",
      );
    });
  });

  describe("withdrawRenewalOffer", function () {
    it("the provider withdraws its offer, which can then no longer be accepted", async function () {
      const { f, rid } = await offered();
      const m = f.redemptionManager;
      await expect(m.connect(f.provider).withdrawRenewalOffer(rid))
        .to.emit(m, "RenewalOfferWithdrawn")
        .withArgs(rid, f.provider.address);
      const lease = await f.redemptionViews.leaseOf(rid);
      expect([lease.offerPrice, lease.offerExtension, lease.offerValidUntil]).to.deep.equal([0n, 0n, 0n]);
      const before = await everything(f);
      await expect(m.connect(f.user).acceptRenewal(rid, PRICE, EXTENSION))
        .to.be.revertedWithCustomError(m, "RenewalOfferNotFound")
        .withArgs(rid);
      expect(await everything(f)).to.deep.equal(before);
    });

    it("refuses the user and a stranger, and a lease with no offer; changes nothing", async function () {
      const { f, rid } = await offered();
      const m = f.redemptionManager;
      const before = await everything(f);
      for (const caller of [f.user, f.stranger]) {
        await expect(m.connect(caller).withdrawRenewalOffer(rid))
          .to.be.revertedWithCustomError(m, "RedemptionUnauthorized")
          .withArgs(rid, caller.address);
      }
      expect(await everything(f)).to.deep.equal(before);
      await m.connect(f.provider).withdrawRenewalOffer(rid);
      await expect(m.connect(f.provider).withdrawRenewalOffer(rid))
        .to.be.revertedWithCustomError(m, "RenewalOfferNotFound")
        .withArgs(rid);
      await expect(m.connect(f.provider).withdrawRenewalOffer(7n))
        .to.be.revertedWithCustomError(m, "LeaseNotRenewable")
        .withArgs(7n);
    });

    it("clears a lapsed offer after the lease ended", async function () {
      const { f, rid, end } = await offered();
      await time.increaseTo(end + 1n);
      await expect(f.redemptionManager.connect(f.provider).withdrawRenewalOffer(rid)).to.emit(
        f.redemptionManager,
        "RenewalOfferWithdrawn",
      );
      expect((await f.redemptionViews.leaseOf(rid)).offerPrice).to.equal(0n);
    });
  });

  describe("acceptRenewal", function () {
    it("is a redemption: price burned, fee to the treasury, 120% locked; created fulfilled; the end moves", async function () {
      const { f, rid, end } = await offered();
      const m = f.redemptionManager;
      const supply = await f.sstb.totalSupply();
      const accountBefore = await f.registry.accountOf(f.provider.address);
      expect(await m.connect(f.user).acceptRenewal.staticCall(rid, PRICE, EXTENSION)).to.equal(2n);
      const tx = m.connect(f.user).acceptRenewal(rid, PRICE, EXTENSION);
      await expect(tx).to.emit(m, "RedemptionInitiated").withArgs(2n, f.user.address, PRICE, f.provider.address);
      await expect(tx)
        .to.emit(m, "LeaseRenewed")
        .withArgs(rid, 2n, end + EXTENSION, PRICE_FEE, PRICE_LOCK);
      await expect(tx).to.not.emit(m, "RedemptionTerms");
      await expect(tx).to.emit(f.registry, "CollateralLocked").withArgs(f.provider.address, PRICE, PRICE_LOCK);
      await expect(tx).to.changeTokenBalances(ethers, f.sstb, [f.user, f.treasury], [-(PRICE + PRICE_FEE), PRICE_FEE]);
      const t = await now();

      expect(await f.sstb.totalSupply()).to.equal(supply - PRICE);
      const account = await f.registry.accountOf(f.provider.address);
      expect(account.availableCU).to.equal(accountBefore.availableCU - PRICE);
      expect(account.lockedCollateral).to.equal(accountBefore.lockedCollateral + PRICE_LOCK);
      expect(account.freeCollateral).to.equal(accountBefore.freeCollateral - PRICE_LOCK);

      expect(await m.redemptions(2n)).to.deep.equal([f.user.address, PRICE, t, f.provider.address, true, false]);
      expect(await f.redemptionViews.redemptionStatus(2n)).to.equal(RStatus.Fulfilled);
      const renewal = await f.redemptionViews.redemptionOf(2n);
      expect([renewal.timestamp, renewal.deadline, renewal.fulfilledAt]).to.deep.equal([t, t, t]);
      expect([renewal.weight, renewal.lockRatioBps, renewal.lock]).to.deep.equal([2n, 12_000n, PRICE_LOCK]);
      // it pays for the period from the lease's end before it: disputable until the window after
      // that start (issue 23)
      expect(await f.redemptionViews.renewalPeriodStart(2n)).to.equal(end);
      expect(await f.redemptionViews.deadlinesOf(2n)).to.deep.equal([t, end + 72n * HOUR]);
      expect(await f.redemptionViews.renewalPeriodStart(rid)).to.equal(0n);
      expect(await f.redemptionViews.leaseIdOf(2n)).to.equal(rid);
      expect(await f.redemptionViews.leaseStatus(2n)).to.equal(LeaseStatus.None);
      expect(await f.redemptionViews.leaseOf(rid)).to.deep.equal([
        LeaseStatus.Active,
        f.user.address,
        f.provider.address,
        end + EXTENSION,
        0n,
        0n,
        0n,
        0n,
      ]);
      // the first redemption of the lease is untouched
      expect(await f.redemptionViews.redemptionStatus(rid)).to.equal(RStatus.Fulfilled);
    });

    it("settles like any redemption: the user confirms, the lock is released with a response time of 0", async function () {
      const { f, renewalId } = await renewed();
      const m = f.redemptionManager;
      const tx = m.connect(f.user).confirmRedemption(renewalId);
      await expect(tx).to.emit(m, "RedemptionConfirmed").withArgs(renewalId, f.user.address);
      await expect(tx).to.emit(f.registry, "CollateralReleased").withArgs(f.provider.address, PRICE_LOCK, 0n, 2n);
      await expect(tx).to.emit(f.registry, "ReputationChanged").withArgs(f.provider.address, 5000n, 5200n);
      expect(await f.redemptionViews.redemptionStatus(renewalId)).to.equal(RStatus.Confirmed);
    });

    it("settles like any redemption: finalized by anyone after the dispute window, or paid out on a lost dispute", async function () {
      const { f, renewalId } = await renewed();
      const m = f.redemptionManager;
      const [, disputeDeadline] = await f.redemptionViews.deadlinesOf(renewalId);
      await expect(m.connect(f.stranger).finalizeRedemption(renewalId))
        .to.be.revertedWithCustomError(m, "DisputeWindowOpen")
        .withArgs(renewalId, disputeDeadline);
      await m.connect(f.user).openDispute(renewalId, IssueType.NotDelivered, EVIDENCE);
      const tx = m.connect(f.arbitrator).resolveDispute(renewalId, true, false);
      await expect(tx).to.emit(m, "DisputeResolved").withArgs(renewalId, f.arbitrator.address, true, false, PRICE_LOCK);
      await expect(tx).to.changeTokenBalances(ethers, f.collateral, [f.user], [PRICE_LOCK]);

      const { f: g, renewalId: second, end } = await renewed();
      // the period it paid for starts at the lease's end before it (issue 23)
      await time.increaseTo(end - EXTENSION + 72n * HOUR + 1n);
      await expect(g.redemptionManager.connect(g.stranger).finalizeRedemption(second))
        .to.emit(g.registry, "CollateralReleased")
        .withArgs(g.provider.address, PRICE_LOCK, 0n, 2n);
    });

    it("renews again once renewed: the end moves by each extension", async function () {
      const { f, rid, end } = await renewed();
      const m = f.redemptionManager;
      await m.connect(f.provider).offerRenewal(rid, AMOUNT, 10n * DAY, end);
      await expect(m.connect(f.user).acceptRenewal(rid, AMOUNT, 10n * DAY))
        .to.emit(m, "LeaseRenewed")
        .withArgs(rid, 3n, end + 10n * DAY, FEE, LOCK);
      expect((await f.redemptionViews.leaseOf(rid)).end).to.equal(end + 10n * DAY);
      expect(await f.redemptionViews.leaseIdOf(3n)).to.equal(rid);
    });

    it("binds to the terms the user saw: a replaced offer is refused and nothing moves", async function () {
      const { f, rid, validUntil } = await offered();
      const m = f.redemptionManager;
      // the provider raises the price between the user's look and the user's transaction
      await m.connect(f.provider).offerRenewal(rid, PRICE * 2n, EXTENSION, validUntil);
      const before = await everything(f);
      await expect(m.connect(f.user).acceptRenewal(rid, PRICE, EXTENSION))
        .to.be.revertedWithCustomError(m, "RenewalTermsMismatch")
        .withArgs(rid, PRICE * 2n, EXTENSION);
      // or shortens the extension
      await m.connect(f.provider).offerRenewal(rid, PRICE, EXTENSION - DAY, validUntil);
      const replaced = await everything(f);
      await expect(m.connect(f.user).acceptRenewal(rid, PRICE, EXTENSION))
        .to.be.revertedWithCustomError(m, "RenewalTermsMismatch")
        .withArgs(rid, PRICE, EXTENSION - DAY);
      expect(await everything(f)).to.deep.equal(replaced);
      expect(before.protocol).to.deep.equal(replaced.protocol);
    });

    it("refuses an offer accepted twice, and changes nothing", async function () {
      const { f, rid } = await renewed();
      const before = await everything(f, [1n, 2n]);
      await expect(f.redemptionManager.connect(f.user).acceptRenewal(rid, PRICE, EXTENSION))
        .to.be.revertedWithCustomError(f.redemptionManager, "RenewalOfferNotFound")
        .withArgs(rid);
      expect(await everything(f, [1n, 2n])).to.deep.equal(before);
    });

    it("refuses the provider and a stranger, and changes nothing", async function () {
      const { f, rid } = await offered();
      await f.sstb.connect(f.user).transfer(f.stranger.address, PRICE * 2n);
      await f.sstb.connect(f.stranger).approve(f.managerAddress, ethers.MaxUint256);
      const before = await everything(f);
      for (const caller of [f.provider, f.stranger]) {
        await expect(f.redemptionManager.connect(caller).acceptRenewal(rid, PRICE, EXTENSION))
          .to.be.revertedWithCustomError(f.redemptionManager, "RedemptionUnauthorized")
          .withArgs(rid, caller.address);
      }
      expect(await everything(f)).to.deep.equal(before);
    });

    it("refuses a renewal after the lease ended, and changes nothing", async function () {
      const { f, rid, end } = await offered();
      await time.increaseTo(end);
      const before = await everything(f);
      await expect(f.redemptionManager.connect(f.user).acceptRenewal(rid, PRICE, EXTENSION))
        .to.be.revertedWithCustomError(f.redemptionManager, "LeaseEnded")
        .withArgs(rid, end);
      expect(await everything(f)).to.deep.equal(before);
      expect(await f.redemptionViews.leaseStatus(rid)).to.equal(LeaseStatus.Ended);
    });

    it("refuses a renewal of a terminated lease, and changes nothing", async function () {
      const { f, rid } = await terminated();
      const before = await everything(f);
      await expect(f.redemptionManager.connect(f.user).acceptRenewal(rid, PRICE, EXTENSION))
        .to.be.revertedWithCustomError(f.redemptionManager, "LeaseAlreadyTerminated")
        .withArgs(rid);
      expect(await everything(f)).to.deep.equal(before);
    });

    it("refuses an offer past its validity, and changes nothing", async function () {
      const { f, rid, validUntil } = await offered();
      await time.setNextBlockTimestamp(validUntil + 1n);
      await ethers.provider.send("evm_mine", []);
      const before = await everything(f);
      await expect(f.redemptionManager.connect(f.user).acceptRenewal(rid, PRICE, EXTENSION))
        .to.be.revertedWithCustomError(f.redemptionManager, "RenewalOfferLapsed")
        .withArgs(rid, validUntil);
      expect(await everything(f)).to.deep.equal(before);
    });

    it("refuses while any redemption of the lease is under dispute, and renews once the dispute ends", async function () {
      const { f, rid, renewalId, end } = await renewed();
      const m = f.redemptionManager;
      await m.connect(f.provider).offerRenewal(rid, PRICE, EXTENSION, end);
      await m.connect(f.user).openDispute(renewalId, IssueType.ResourceMismatch, EVIDENCE);
      expect((await f.redemptionViews.leaseOf(rid)).openDisputes).to.equal(1n);
      const before = await everything(f, [1n, 2n]);
      await expect(m.connect(f.user).acceptRenewal(rid, PRICE, EXTENSION))
        .to.be.revertedWithCustomError(m, "LeaseUnderDispute")
        .withArgs(rid, 1n);
      expect(await everything(f, [1n, 2n])).to.deep.equal(before);
      await m.connect(f.arbitrator).resolveDispute(renewalId, false, false);
      expect((await f.redemptionViews.leaseOf(rid)).openDisputes).to.equal(0n);
      await expect(m.connect(f.user).acceptRenewal(rid, PRICE, EXTENSION)).to.emit(m, "LeaseRenewed");
    });

    it("refuses without allowance for price plus fee, while paused, and for a lease without a stated end", async function () {
      const { f, rid } = await offered();
      const m = f.redemptionManager;
      await f.sstb.connect(f.user).approve(f.managerAddress, PRICE);
      const before = await everything(f);
      await expect(m.connect(f.user).acceptRenewal(rid, PRICE, EXTENSION))
        .to.be.revertedWithCustomError(f.sstb, "ERC20InsufficientAllowance")
        .withArgs(f.managerAddress, PRICE, PRICE + PRICE_FEE);
      await pauseAs(m, f.guardian, "guardian");
      await expect(m.connect(f.user).acceptRenewal(rid, PRICE, EXTENSION)).to.be.revertedWithCustomError(
        m,
        "EnforcedPause",
      );
      expect(await everything(f)).to.deep.equal(before);

      const { f: g, rid: endlessId } = await endless();
      await expect(g.redemptionManager.connect(g.user).acceptRenewal(endlessId, PRICE, EXTENSION))
        .to.be.revertedWithCustomError(g.redemptionManager, "LeaseNotRenewable")
        .withArgs(endlessId);
    });

    it("fixes the renewal's weight at the offer: a later reputation unit does not change it", async function () {
      const { f, rid } = await offered();
      const m = f.redemptionManager;
      await m.setReputationUnit(parseEther("1"));
      await m.connect(f.user).acceptRenewal(rid, PRICE, EXTENSION);
      expect((await f.redemptionViews.redemptionOf(2n)).weight).to.equal(2n); // 20 sSTB at the 10-sSTB unit of the offer
    });
  });

  describe("terminateLease", function () {
    it("the user ends a lease with a stated end: the provider is told, the standing offer goes with it", async function () {
      const { f, rid } = await offered();
      const m = f.redemptionManager;
      await expect(m.connect(f.user).terminateLease(rid))
        .to.emit(m, "LeaseTerminated")
        .withArgs(rid, f.user.address, f.provider.address);
      expect(await f.redemptionViews.leaseStatus(rid)).to.equal(LeaseStatus.Terminated);
      const lease = await f.redemptionViews.leaseOf(rid);
      expect([lease.status, lease.offerPrice]).to.deep.equal([LeaseStatus.Terminated, 0n]);
      // the redemption itself keeps its state
      expect(await f.redemptionViews.redemptionStatus(rid)).to.equal(RStatus.Fulfilled);
    });

    it("the user ends a lease without a stated end (the spec's fulfilment)", async function () {
      const { f, rid } = await endless();
      const m = f.redemptionManager;
      expect(await f.redemptionViews.leaseStatus(rid)).to.equal(LeaseStatus.Active);
      await expect(m.connect(f.user).terminateLease(rid))
        .to.emit(m, "LeaseTerminated")
        .withArgs(rid, f.user.address, f.provider.address);
      expect(await f.redemptionViews.leaseStatus(rid)).to.equal(LeaseStatus.Terminated);
      expect(await f.redemptionViews.leaseOf(rid)).to.deep.equal([
        LeaseStatus.Terminated,
        f.user.address,
        f.provider.address,
        0n,
        0n,
        0n,
        0n,
        0n,
      ]);
      expect(await f.redemptionViews.redemptionStatus(rid)).to.equal(RStatus.Fulfilled);
    });

    it("keeps the user's right to dispute: a terminated lease's redemption is still disputed within its window", async function () {
      for (const fixture of [terminated, endless]) {
        const { f, rid } = await fixture();
        const m = f.redemptionManager;
        if (fixture === endless) await m.connect(f.user).terminateLease(rid);
        await time.increase(71n * HOUR);
        await expect(m.connect(f.user).openDispute(rid, IssueType.AccessFailure, EVIDENCE))
          .to.emit(m, "DisputeOpened")
          .withArgs(rid, f.user.address, IssueType.AccessFailure, EVIDENCE);
        await expect(m.connect(f.arbitrator).resolveDispute(rid, true, false)).to.changeTokenBalances(
          ethers,
          f.collateral,
          [f.user],
          [LOCK],
        );
      }
    });

    it("strands no lock: after the dispute window anyone finalizes a terminated lease's redemption", async function () {
      const { f, rid } = await terminated();
      const m = f.redemptionManager;
      await time.increase(72n * HOUR + 60n);
      await expect(m.connect(f.stranger).finalizeRedemption(rid))
        .to.emit(f.registry, "CollateralReleased")
        .withArgs(
          f.provider.address,
          LOCK,
          (await f.redemptionViews.redemptionOf(rid)).fulfilledAt -
            (await f.redemptionViews.redemptionOf(rid)).timestamp,
          1n,
        );
      expect((await f.registry.accountOf(f.provider.address)).lockedCollateral).to.equal(0n);
      // and the user may still confirm a terminated lease's redemption instead
      const { f: g, rid: other } = await terminated();
      await expect(g.redemptionManager.connect(g.user).confirmRedemption(other)).to.emit(
        g.redemptionManager,
        "RedemptionConfirmed",
      );
    });

    it("refuses the provider and a stranger, and changes nothing", async function () {
      for (const fixture of [offered, endless]) {
        const { f, rid } = await fixture();
        const before = await everything(f);
        for (const caller of [f.provider, f.stranger]) {
          await expect(f.redemptionManager.connect(caller).terminateLease(rid))
            .to.be.revertedWithCustomError(f.redemptionManager, "RedemptionUnauthorized")
            .withArgs(rid, caller.address);
        }
        expect(await everything(f)).to.deep.equal(before);
      }
    });

    it("refuses a second termination, and an ended lease; changes nothing", async function () {
      const { f, rid } = await terminated();
      let before = await everything(f);
      await expect(f.redemptionManager.connect(f.user).terminateLease(rid))
        .to.be.revertedWithCustomError(f.redemptionManager, "LeaseAlreadyTerminated")
        .withArgs(rid);
      expect(await everything(f)).to.deep.equal(before);

      const { f: g, rid: endlessId } = await endless();
      await g.redemptionManager.connect(g.user).terminateLease(endlessId);
      await expect(g.redemptionManager.connect(g.user).terminateLease(endlessId))
        .to.be.revertedWithCustomError(g.redemptionManager, "LeaseAlreadyTerminated")
        .withArgs(endlessId);

      const { f: h, rid: leaseId, end: leaseEnd } = await leased();
      await time.increaseTo(leaseEnd);
      before = await everything(h);
      await expect(h.redemptionManager.connect(h.user).terminateLease(leaseId))
        .to.be.revertedWithCustomError(h.redemptionManager, "LeaseEnded")
        .withArgs(leaseId, leaseEnd);
      expect(await everything(h)).to.deep.equal(before);
    });

    it("refuses what is not a lease: a pending redemption, a renewal, an id never issued", async function () {
      const { f, renewalId } = await renewed();
      const m = f.redemptionManager.connect(f.user);
      await m.initiateRedemption(AMOUNT, f.provider.address); // 3: pending
      for (const leaseId of [renewalId, 3n]) {
        await expect(m.terminateLease(leaseId)).to.be.revertedWithCustomError(m, "LeaseNotFound").withArgs(leaseId);
      }
      await expect(m.terminateLease(9n)).to.be.revertedWithCustomError(m, "RedemptionNotFound").withArgs(9n);
    });

    it("is open while the manager is paused", async function () {
      const { f, rid } = await leased();
      await pauseAs(f.redemptionManager, f.guardian, "guardian");
      await expect(f.redemptionManager.connect(f.user).terminateLease(rid)).to.emit(
        f.redemptionManager,
        "LeaseTerminated",
      );
    });
  });

  describe("disputes of a lease", function () {
    it("count on the lease from opening to ruling, for its first redemption and its renewals", async function () {
      const { f, rid, renewalId } = await renewed();
      const m = f.redemptionManager;
      await m.connect(f.user).openDispute(rid, IssueType.AccessFailure, EVIDENCE);
      await m.connect(f.user).openDispute(renewalId, IssueType.NotDelivered, EVIDENCE);
      expect((await f.redemptionViews.leaseOf(rid)).openDisputes).to.equal(2n);
      await m.connect(f.arbitrator).resolveDispute(rid, false, false);
      expect((await f.redemptionViews.leaseOf(rid)).openDisputes).to.equal(1n);
      await time.increase(14n * DAY + 1n);
      await expect(m.connect(f.stranger).closeLapsedDispute(renewalId))
        .to.emit(m, "DisputeLapsed")
        .withArgs(renewalId, f.stranger.address, false, 0n, 0n);
      expect((await f.redemptionViews.leaseOf(rid)).openDisputes).to.equal(0n);
    });

    it("a dispute of a lease without a stated end shows on it, and a pending redemption's dispute is no lease's", async function () {
      const { f, rid } = await endless();
      const m = f.redemptionManager;
      await m.connect(f.user).openDispute(rid, IssueType.AccessFailure, EVIDENCE);
      expect((await f.redemptionViews.leaseOf(rid)).openDisputes).to.equal(1n);
      await m.connect(f.user).initiateRedemption(AMOUNT, f.provider.address);
      await time.increase(24n * HOUR + 1n);
      await m.connect(f.user).openDispute(2n, IssueType.NotDelivered, EVIDENCE);
      expect(await f.redemptionViews.leaseStatus(2n)).to.equal(LeaseStatus.None);
      expect(await f.redemptionViews.leaseIdOf(2n)).to.equal(0n);
      await m.connect(f.arbitrator).resolveDispute(2n, true, false);
      expect(await f.redemptionViews.leaseIdOf(2n)).to.equal(0n);
    });
  });

  describe("views", function () {
    it("leaseStatus is None and leaseOf reverts for what is not a lease; leaseIdOf reverts for an id never issued", async function () {
      const { f, renewalId } = await renewed();
      const m = f.redemptionManager;
      await m.connect(f.user).initiateRedemption(AMOUNT, f.provider.address); // 3: pending
      for (const leaseId of [renewalId, 3n, 9n]) {
        expect(await f.redemptionViews.leaseStatus(leaseId)).to.equal(LeaseStatus.None);
        await expect(f.redemptionViews.leaseOf(leaseId))
          .to.be.revertedWithCustomError(m, "LeaseNotFound")
          .withArgs(leaseId);
      }
      expect(await f.redemptionViews.leaseIdOf(3n)).to.equal(0n);
      await expect(f.redemptionViews.leaseIdOf(9n)).to.be.revertedWithCustomError(m, "RedemptionNotFound").withArgs(9n);
    });

    it("a lease is Active until its end and Ended from its end's second on", async function () {
      const { f, rid, end } = await leased();
      await time.increaseTo(end - 1n);
      expect(await f.redemptionViews.leaseStatus(rid)).to.equal(LeaseStatus.Active);
      await time.increaseTo(end);
      expect(await f.redemptionViews.leaseStatus(rid)).to.equal(LeaseStatus.Ended);
      expect((await f.redemptionViews.leaseOf(rid)).status).to.equal(LeaseStatus.Ended);
    });
  });

  describe("setMaxLeaseTerm", function () {
    it("starts at 365 days; governance sets it within [1 day, 5 years]; it bounds new fulfilments", async function () {
      const { f, rid } = await pending();
      const m = f.redemptionManager;
      const name = ethers.encodeBytes32String("maxLeaseTerm");
      expect(await f.redemptionViews.maxLeaseTerm()).to.equal(MAX_TERM);
      await expect(m.setMaxLeaseTerm(DAY)).to.emit(m, "ParameterUpdated").withArgs(name, MAX_TERM, DAY);
      await expect(m.setMaxLeaseTerm(5n * 365n * DAY))
        .to.emit(m, "ParameterUpdated")
        .withArgs(name, DAY, 5n * 365n * DAY);
      await m.setMaxLeaseTerm(7n * DAY);
      const t = (await now()) + 10n;
      await time.setNextBlockTimestamp(t);
      await expect(m.connect(f.provider).fulfillRedemptionWithLease(rid, "envelope", t + 8n * DAY))
        .to.be.revertedWithCustomError(m, "LeaseEndOutOfRange")
        .withArgs(t + 8n * DAY, t + 1n, t + 7n * DAY);
    });

    it("refuses values out of bounds and strangers, keeping the old value", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager;
      const name = ethers.encodeBytes32String("maxLeaseTerm");
      for (const value of [0n, DAY - 1n, 5n * 365n * DAY + 1n]) {
        await expect(m.setMaxLeaseTerm(value))
          .to.be.revertedWithCustomError(m, "ParameterOutOfBounds")
          .withArgs(name, value);
      }
      for (const caller of [f.stranger, f.provider, f.guardian]) {
        await expect(m.connect(caller).setMaxLeaseTerm(DAY))
          .to.be.revertedWithCustomError(m, "AccessControlUnauthorizedAccount")
          .withArgs(caller.address, Roles.GOVERNANCE);
      }
      expect(await f.redemptionViews.maxLeaseTerm()).to.equal(MAX_TERM);
    });
  });
});
