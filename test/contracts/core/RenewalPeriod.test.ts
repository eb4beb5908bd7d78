import { expect } from "chai";
import { network } from "hardhat";
import { id, parseEther } from "ethers";

import { collateralFor } from "../../helpers/protocol.js";
import { DAY } from "../../helpers/leases.js";
import { IssueType, RStatus, deployRedemptionScenario } from "../../helpers/redemption.js";
import type { RedemptionFixture } from "../../helpers/redemption.js";

/**
 * Issue 23, property 2 (review 4): a renewal pays for a period that begins when the lease's
 * current end comes; until at least then the user may still dispute it and the provider's lock
 * for it stays held, whenever the renewal was accepted. The review's example: a 30-day lease; on
 * day 1 the provider offers 300 more days for 40 sSTB and the user accepts at once.
 */

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture, time } = networkHelpers;

const AMOUNT = parseEther("10");
const PRICE = parseEther("40");
const LOCK = collateralFor(PRICE); // 48 USDC
const TERM = 30n * DAY;
const EXTENSION = 300n * DAY;
const WINDOW = 72n * 3_600n;

/** The redemption scenario, with the user holding 60 of the provider's 100 sSTB. */
async function scenario(): Promise<RedemptionFixture> {
  const f = await deployRedemptionScenario(connection);
  await f.sstb.connect(f.provider).transfer(f.user.address, parseEther("10"));
  return f;
}

/**
 * Day 0: redemption 1 fulfilled with a 30-day lease. Day 1: the provider offers 300 more days for
 * 40 sSTB and the user accepts at once: renewal 2, paying for the period from day 30 on.
 */
async function renewedEarly() {
  const f = await loadFixture(scenario);
  const m = f.redemptionManager;
  await m.connect(f.user).initiateRedemption(AMOUNT, f.provider.address);
  const start = BigInt((await ethers.provider.getBlock("latest"))!.timestamp) + 1n;
  await time.setNextBlockTimestamp(start);
  const end = start + TERM;
  await m.connect(f.provider).fulfillRedemptionWithLease(1n, "envelope", end);
  await time.setNextBlockTimestamp(start + DAY);
  await m.connect(f.provider).offerRenewal(1n, PRICE, EXTENSION, end);
  await m.connect(f.user).acceptRenewal(1n, PRICE, EXTENSION);
  return { f, start, paidFrom: end, renewalId: 2n };
}

describe("Property: a renewal stays disputable by its user, and its lock stays held, until at least the start of the period it paid for (issue 23, property 2)", function () {
  it("a renewal stays disputable by its user, and its lock stays held, until at least the start of the period it paid for", async function () {
    const { f, start, paidFrom, renewalId } = await renewedEarly();
    const m = f.redemptionManager;
    const lockedWithRenewal = (await f.registry.accountOf(f.provider.address)).lockedCollateral;

    // day 4, three days into the lease's first (already paid) period: nobody may finalize the renewal
    await time.setNextBlockTimestamp(start + 4n * DAY);
    await expect(m.connect(f.stranger).finalizeRedemption(renewalId)).to.be.revertedWithCustomError(
      m,
      "DisputeWindowOpen",
    );
    expect((await f.registry.accountOf(f.provider.address)).lockedCollateral).to.equal(lockedWithRenewal);

    // the last second before the paid period, and every second up to it: still held
    await time.setNextBlockTimestamp(paidFrom - 1n);
    await expect(m.connect(f.stranger).finalizeRedemption(renewalId)).to.be.revertedWithCustomError(
      m,
      "DisputeWindowOpen",
    );

    // day 30, the first second of the paid period: the user may dispute it, and the 48 USDC lock is
    // still there for the ruling
    await time.setNextBlockTimestamp(paidFrom);
    await expect(m.connect(f.user).openDispute(renewalId, IssueType.NotDelivered, id("the renewed host is gone")))
      .to.emit(m, "DisputeOpened")
      .withArgs(renewalId, f.user.address, IssueType.NotDelivered, id("the renewed host is gone"));
    expect(await f.redemptionViews.redemptionStatus(renewalId)).to.equal(RStatus.Disputed);
    expect((await f.registry.accountOf(f.provider.address)).lockedCollateral).to.be.gte(LOCK);
  });

  it("no renewal may be finalized before the period it pays for has begun, whenever it was accepted", async function () {
    const { f, paidFrom, renewalId } = await renewedEarly();
    const m = f.redemptionManager;
    // the window runs from the start of the paid period, so the earliest finalization is after it
    await time.setNextBlockTimestamp(paidFrom + WINDOW);
    await expect(m.connect(f.stranger).finalizeRedemption(renewalId)).to.be.revertedWithCustomError(
      m,
      "DisputeWindowOpen",
    );
    await time.setNextBlockTimestamp(paidFrom + WINDOW + 1n);
    await expect(m.connect(f.stranger).finalizeRedemption(renewalId))
      .to.emit(m, "RedemptionConfirmed")
      .withArgs(renewalId, f.user.address);
  });
});
