import { expect } from "chai";

import { NO_LIMIT, PAUSED_INDEFINITELY, estimateQueuedDelivery } from "@compute-capacity/sdk";
import type { QueuedDeliveryState } from "@compute-capacity/sdk";

const E = 10n ** 18n;
const NOW = 1_800_000_000n;
/** 10 tokens of capacity refilling 1 a second; 4 in the bucket now; the message alone at the head, 3 to go. */
const state = (changes: Partial<QueuedDeliveryState> = {}): QueuedDeliveryState => ({
  remaining: 3n * E,
  waitingBefore: [],
  atHead: true,
  limit: { enabled: true, capacity: 10n * E, rate: E },
  available: 4n * E,
  pausedUntil: 0n,
  now: NOW,
  ...changes,
});

describe("when a queued bridge delivery completes (estimateQueuedDelivery)", function () {
  it("is deliverable now, whole, when it heads its queue and the bucket holds it", function () {
    expect(estimateQueuedDelivery(state())).to.deep.equal({
      executableNow: true,
      nextInstallment: 3n * E,
      completesAt: NOW,
    });
  });

  it("waits for what is queued before it, and for the refill of what the bucket lacks, a second per token", function () {
    // 5 before it (and one that has gone since) + its 3 = 8 to pass; the bucket holds 4: 4 more seconds of refill
    expect(estimateQueuedDelivery(state({ atHead: false, waitingBefore: [5n * E, 0n] }))).to.deep.equal({
      executableNow: false,
      nextInstallment: 3n * E,
      completesAt: NOW + 4n,
    });
  });

  it("rounds a fraction of a second of refill up, never down", function () {
    expect(estimateQueuedDelivery(state({ remaining: 4n * E + 1n })).completesAt).to.equal(NOW + 1n);
    expect(estimateQueuedDelivery(state({ remaining: 4n * E + 1n })).executableNow).to.equal(false);
  });

  it("delivers more than the capacity in installments of the capacity, the whole still paced by the refill", function () {
    const estimate = estimateQueuedDelivery(state({ remaining: 25n * E, available: 10n * E }));
    expect(estimate.nextInstallment).to.equal(10n * E);
    expect(estimate.executableNow).to.equal(true);
    expect(estimate.completesAt).to.equal(NOW + 15n);
  });

  it("counts the refill the capacity wastes while a full installment waits, as the bucket does", function () {
    // capacity 10 refilling 3 a second, full, 30 to deliver: 10 now, 10 at +4 (12 capped to 10), 10 at +8
    const limit = { enabled: true, capacity: 10n * E, rate: 3n * E };
    expect(estimateQueuedDelivery(state({ limit, available: 10n * E, remaining: 30n * E })).completesAt).to.equal(
      NOW + 8n,
    );
    // the same 30 queued before it as three transfers of 10, then its own 1: one second more
    const behind = state({ limit, available: 10n * E, remaining: E, waitingBefore: [10n * E, 10n * E, 10n * E] });
    expect(estimateQueuedDelivery(behind).completesAt).to.equal(NOW + 9n);
  });

  it("waits for the end of a pause, counting the refill during it only up to the capacity", function () {
    // paused 100 s: the bucket is full (10) when it ends, so 20 to pass need 10 s more
    const paused = state({ pausedUntil: NOW + 100n, remaining: 20n * E, available: 0n });
    expect(estimateQueuedDelivery(paused)).to.deep.equal({
      executableNow: false,
      nextInstallment: 10n * E,
      completesAt: NOW + 110n,
    });
    // a short pause: the refill during it counts whole
    expect(estimateQueuedDelivery({ ...paused, pausedUntil: NOW + 3n }).completesAt).to.equal(NOW + 20n);
    // a pause that has ended is no pause
    expect(estimateQueuedDelivery(state({ pausedUntil: NOW })).executableNow).to.equal(true);
  });

  it("names no time while governance's pause lasts: only governance lifts it", function () {
    expect(estimateQueuedDelivery(state({ pausedUntil: PAUSED_INDEFINITELY }))).to.deep.equal({
      executableNow: false,
      nextInstallment: 3n * E,
      completesAt: null,
    });
  });

  it("without a limit, waits only for a pause and for its turn", function () {
    const unlimited = state({ limit: NO_LIMIT, available: 0n, remaining: 1_000_000n * E });
    expect(estimateQueuedDelivery(unlimited)).to.deep.equal({
      executableNow: true,
      nextInstallment: 1_000_000n * E,
      completesAt: NOW,
    });
    expect(estimateQueuedDelivery({ ...unlimited, atHead: false }).executableNow).to.equal(false);
    expect(estimateQueuedDelivery({ ...unlimited, pausedUntil: NOW + 60n })).to.deep.include({
      executableNow: false,
      completesAt: NOW + 60n,
    });
  });

  it("names no time when an enabled limit never refills enough", function () {
    const dry = state({ limit: { enabled: true, capacity: 10n * E, rate: 0n }, available: 2n * E });
    expect(estimateQueuedDelivery(dry).completesAt).to.equal(null);
    // what the bucket already holds still goes
    expect(estimateQueuedDelivery({ ...dry, remaining: 2n * E })).to.deep.equal({
      executableNow: true,
      nextInstallment: 2n * E,
      completesAt: NOW,
    });
  });
});
