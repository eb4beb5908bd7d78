import { and, asc, eq, isNotNull, isNull, lte, sql } from "drizzle-orm";

import type { Db } from "../store/db.js";
import { chainTime } from "../store/queries.js";
import { leaseNotices, leases } from "../store/schema.js";
import { leaseNoticeEvent } from "./events.js";
import type { Outbox } from "./outbox.js";

export interface LeaseNoticeSettings {
  /** `redemption.lease_expiring` goes this many seconds before a lease's stated end (default 24 h). */
  leadSeconds: number;
  /** How often the scheduler looks for due notices (it is also woken after each indexed batch). */
  intervalMs: number;
}

type NoticeEvent = "redemption.lease_expiring" | "redemption.lease_ended";

/** Most notices one transaction sends; the rest go at the next pass, a moment later. */
const BATCH = 100;

/**
 * The time-based lease webhooks (issue 19): `redemption.lease_expiring` once a lead before each
 * stated end, `redemption.lease_ended` once at it, by chain time (`chainTime`: the last indexed
 * block's time moved on by the wall clock). The schedule is the `leases` projection itself; what
 * went out is `lease_notices`, keyed by lease, event and end. Each pass takes the due leases with
 * `FOR UPDATE SKIP LOCKED`, inserts the notice row and queues the deliveries through the outbox in
 * one transaction, so:
 * - a restart loses nothing: what was due while the gateway was down is due at its first pass;
 * - a second gateway on the same PostgreSQL skips the leases the first one holds, and the notice's
 *   key turns a late duplicate into a no-op (never two deliveries of one notice);
 * - a renewal moves the end: the new end gets its own notices; a termination stops them;
 * - a reorg that removes the event that set an end deletes its notice rows (Outbox.retract), and
 *   cancels their pending deliveries, so the end is announced again if it is mined again.
 * A lease shorter than the lead is announced as expiring at once; a lease the gateway finds
 * already ended gets only `lease_ended` (an "expiring" after the end would be wrong).
 */
export class LeaseNotices {
  private stopped = true;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;

  constructor(
    private readonly db: Db,
    private readonly outbox: Outbox,
    /** The chain of the redemption manager (the primary chain). */
    private readonly chainId: number,
    private readonly settings: LeaseNoticeSettings,
    private readonly log: (line: string) => void,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.loop = this.run();
  }

  /** Looks for due notices now (after the indexer committed a batch). */
  wake(): void {
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeUp?.();
    await this.loop;
    this.loop = undefined;
  }

  /**
   * One pass: sends every notice due at the chain's time as of `wallMs` (at most {@link BATCH}
   * per transaction, repeated until none is left). Returns how many notices went out.
   */
  async tick(wallMs = Date.now()): Promise<number> {
    let total = 0;
    for (;;) {
      const sent = await this.pass(wallMs);
      total += sent.count;
      if (sent.count > 0) this.outbox.committed();
      if (!sent.more) return total;
    }
  }

  private async pass(wallMs: number): Promise<{ count: number; more: boolean }> {
    const now = await chainTime(this.db, this.chainId, wallMs);
    const lead = this.settings.leadSeconds;
    return this.db.transaction(async (tx) => {
      // the notice a lease is due for now: ended from its end's second on, expiring within the lead
      const dueEvent = sql`case when ${leases.expiresAt} <= ${now} then 'redemption.lease_ended' else 'redemption.lease_expiring' end`;
      const due = await tx
        .select({ leaseId: leases.leaseId, expiresAt: leases.expiresAt, endBlock: leases.endBlock })
        .from(leases)
        .where(
          and(
            eq(leases.chainId, this.chainId),
            isNull(leases.terminatedAt),
            isNotNull(leases.expiresAt),
            lte(leases.expiresAt, now + lead),
            sql`not exists (select 1 from ${leaseNotices} where ${leaseNotices.chainId} = ${leases.chainId}
              and ${leaseNotices.leaseId} = ${leases.leaseId} and ${leaseNotices.leaseEnd} = ${leases.expiresAt}
              and ${leaseNotices.event} = ${dueEvent})`,
          ),
        )
        .orderBy(asc(leases.expiresAt), asc(leases.leaseId))
        .limit(BATCH)
        .for("update", { skipLocked: true });
      let count = 0;
      for (const lease of due) {
        const end = lease.expiresAt!;
        const event: NoticeEvent = end <= now ? "redemption.lease_ended" : "redemption.lease_expiring";
        const notice = { chainId: this.chainId, leaseId: lease.leaseId, leaseEnd: end, endBlock: lease.endBlock ?? 0 };
        const inserted = await tx
          .insert(leaseNotices)
          .values({ ...notice, event, sentAt: wallMs })
          .onConflictDoNothing()
          .returning({ leaseId: leaseNotices.leaseId });
        if (inserted.length === 0) continue; // another gateway sent it
        const webhook = await leaseNoticeEvent(tx, notice, event, now);
        if (webhook !== undefined) await this.outbox.publish(tx, webhook);
        count++;
      }
      return { count, more: due.length === BATCH };
    });
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        await this.tick();
        failures = 0;
      } catch (error) {
        // the database is unreachable or the process is closing: try again at the next pass
        failures++;
        if (failures === 1 || failures % 20 === 0) this.log(`lease notices: ${(error as Error).message}`);
      }
      if (this.stopped) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.settings.intervalMs);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = undefined;
    }
  }
}
