import { randomUUID } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";

import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";

import { DELIVERY_HEADER, EVENT_HEADER, signatureHeaders } from "@compute-capacity/sdk";
import type { Db } from "../store/db.js";
import { webhookDeliveries, webhookSubscriptions } from "../store/schema.js";
import type { Log } from "../observability/log.js";
import { failureReason } from "../observability/metrics.js";
import type { DeliveryMetrics, DeliveryOutcome } from "../observability/metrics.js";
import type { EmailMessage, Mailer } from "./email.js";
import type { WebhookSettings } from "./settings.js";
import { guardedLookup, hostOf, parseTargetUrl, refusalOf } from "./targets.js";
import { WebhookSecrets } from "./secrets.js";
import { nodeHmac } from "./signature.js";
import { previousSecretValid } from "./subscriptions.js";

type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;

/** The outcome of one attempt, as the delivery log keeps it. */
interface Attempt {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

/** A claimed run of deliveries sent one after the other: one subscription's, in order, or one e-mail. */
interface Run {
  rows: DeliveryRow[];
  subscription?: SubscriptionRow;
  /** Unix milliseconds the claim's lease ends. */
  leaseUntil: number;
}

/** An attempt's outcome waiting to be written. */
interface Outcome {
  row: DeliveryRow;
  status: "delivered" | "pending" | "failed" | "cancelled";
  attempt: Attempt;
  started: number;
  finished: number;
  /** Aborted by a shutdown: due again at once (another gateway may send it), not after a backoff. */
  dueNow: boolean;
}

/** Delay before the next attempt after `failures` failures: exponential, capped, with jitter (half fixed, half random). */
export function backoffMs(failures: number, settings: Pick<WebhookSettings, "backoffBaseMs" | "backoffCapMs">): number {
  const delay = Math.min(settings.backoffBaseMs * 2 ** Math.max(0, failures - 1), settings.backoffCapMs);
  return Math.round(delay / 2 + (Math.random() * delay) / 2);
}

/**
 * Delivery workers. Each worker claims due deliveries in batches and sends several at once
 * (`settings.concurrency` runs in flight), over keep-alive connections. Order per subscription: a
 * claim takes a subscription only while none of its deliveries is leased (its row is locked `FOR
 * UPDATE SKIP LOCKED` during the claim, so two workers, here or in another gateway on the same
 * PostgreSQL, never hold one subscription at once) and leases its first due deliveries (up to
 * `settings.runLength`, oldest first), which the worker sends one after the other; the next claim
 * of that subscription waits until their outcomes are written. A failed attempt is retried later
 * (backoff) and does not hold back the deliveries after it, which are released at once, unsent.
 * E-mail alerts are claimed one by one, unordered. A worker that dies mid-run leaves its lease to
 * expire; its deliveries are then due again and sent again with the same delivery ids (the one
 * case of a duplicate). `stop()` finishes the attempts in flight, releases what was claimed and not
 * sent, and writes every outcome.
 */
export class DeliveryWorkers {
  private stopped = true;
  private loops: Promise<void>[] = [];
  private readonly wakers = new Set<() => void>();
  /** Attempts in flight, to abort when a shutdown runs out of time. */
  private readonly inFlight = new Set<AbortController>();
  private readonly agents = {
    http: new http.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64, scheduling: "lifo" }),
    https: new https.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64, scheduling: "lifo" }),
  };

  constructor(
    private readonly db: Db,
    private readonly settings: WebhookSettings,
    private readonly mailer: Mailer | undefined,
    private readonly log: Log,
    private readonly secrets = new WebhookSecrets(),
    private readonly metrics?: DeliveryMetrics,
  ) {}

  start(count = this.settings.workers): void {
    if (!this.stopped) return;
    this.stopped = false;
    const run = randomUUID().slice(0, 8);
    this.loops = Array.from({ length: count }, (_, i) => this.loop(`${run}-${i}`));
  }

  /** Makes idle workers look for due rows now (the outbox calls it after a commit that queued some). */
  wake(): void {
    for (const wake of [...this.wakers]) wake();
  }

  /**
   * Stops claiming, lets the attempts in flight finish (each bounded by the timeout; `abortAfterMs`:
   * aborted after that long, and released), releases the deliveries claimed and not yet sent, and
   * writes every outcome.
   */
  async stop(abortAfterMs?: number): Promise<void> {
    this.stopped = true;
    this.wake();
    const abort =
      abortAfterMs === undefined
        ? undefined
        : setTimeout(() => {
            for (const controller of this.inFlight) controller.abort();
          }, abortAfterMs);
    try {
      await Promise.all(this.loops);
    } finally {
      clearTimeout(abort);
    }
    this.loops = [];
  }

  /** Stops, and closes the kept-alive connections (the gateway is closing). */
  async close(abortAfterMs?: number): Promise<void> {
    await this.stop(abortAfterMs);
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private async loop(worker: string): Promise<void> {
    let failures = 0;
    let idle = true;
    const running = new Set<Promise<void>>();
    while (!this.stopped) {
      let claimed = 0;
      const free = this.settings.concurrency - running.size;
      if (free > 0) {
        try {
          // a worker whose last claim found work claims again at once, without the idle probe
          const runs = await this.claimRuns(worker, free, idle);
          idle = runs.length === 0;
          failures = 0;
          claimed = runs.length;
          for (const run of runs) {
            const sending: Promise<void> = this.send(run, worker).finally(() => running.delete(sending));
            running.add(sending);
          }
        } catch (error) {
          // the database is unreachable or the process is closing: wait and try again
          failures++;
          if (failures === 1 || failures % 20 === 0) {
            this.log.warn({ worker, err: error }, `webhook worker ${worker}: ${(error as Error).message}`);
          }
        }
      }
      if (this.stopped) break;
      // room for more and some were due: claim again at once; otherwise wait for a run to end, a
      // wake-up (new deliveries) or the poll interval
      if (claimed > 0 && running.size < this.settings.concurrency) continue;
      // while runs are in flight, their ends (and the outbox's wake-ups) say when to claim again: a
      // timer would only repeat claims that find every due subscription held
      const delay =
        failures > 0
          ? Math.min(this.settings.pollMs * 2 ** failures, 5_000)
          : running.size > 0
            ? this.settings.pollMs * 10
            : this.settings.pollMs;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          this.wakers.delete(done);
          resolve();
        };
        const timer = setTimeout(done, delay);
        this.wakers.add(done);
        for (const sending of running) void sending.then(done);
      });
    }
    await Promise.all(running);
  }

  /**
   * Claims due deliveries for `worker`: up to `runs` runs, each one subscription's first due
   * deliveries in order (none of that subscription leased), or one e-mail. Sets the lease and counts
   * the attempt; returns every claimed row (tests use it to play a worker that dies holding them).
   */
  async claim(worker: string, runs = 1): Promise<DeliveryRow[]> {
    return (await this.claimRuns(worker, runs)).flatMap((r) => r.rows);
  }

  private async claimRuns(worker: string, runs: number, probe = true): Promise<Run[]> {
    const now = Date.now();
    const leaseUntil = now + this.settings.leaseMs;
    const d = webhookDeliveries;
    const due = and(
      eq(d.status, "pending"),
      lte(d.nextAttemptAt, now),
      or(isNull(d.leaseUntil), lt(d.leaseUntil, now)),
    );
    const lease = { leaseUntil, leaseOwner: worker, attempts: sql`${d.attempts} + 1` };
    // a subscription none of whose deliveries is leased: the leased ones' subscriptions are read once
    // per statement (a hashed subplan), not once per due row (a correlated NOT EXISTS scanned a
    // subscription's rows for each of its due rows: on PGlite, with 1,200 due, three workers drained
    // 15 deliveries/s); email rows have no subscription, and a NULL would make NOT IN refuse all
    const notHeld = sql`${d.subscriptionId} not in (select f.subscription_id from ${d} f where f.status = 'pending' and f.lease_until >= ${now} and f.subscription_id is not null)`;
    // an idle worker's poll: one probe on the due index, rather than a transaction of four statements
    // that finds nothing (an idle gateway's polls cost it 11% of a core on PGlite; decision 0175). A
    // row that falls due after the probe is found by the next poll or wake-up, as after a claim.
    if (probe) {
      const [anyDue] = await this.db
        .select({ one: sql<number>`1` })
        .from(d)
        .where(due)
        .limit(1);
      if (anyDue === undefined) return [];
    }
    const claimed = await this.db.transaction(async (tx) => {
      // subscriptions with due deliveries and none leased, the most overdue first
      const candidates = await tx
        .select({
          id: d.subscriptionId,
          first: sql<number>`min(${d.nextAttemptAt})`,
          // qualified by hand: in a select list drizzle writes a column without its table, which
          // inside this subquery would name the subscription's own column (always true)
          live: sql<boolean>`exists (select 1 from ${webhookSubscriptions} s where s.subscription_id = ${d}.${sql.identifier("subscription_id")})`,
        })
        .from(d)
        .where(and(due, eq(d.channel, "webhook"), notHeld))
        .groupBy(d.subscriptionId)
        .orderBy(sql`min(${d.nextAttemptAt})`)
        .limit(runs);
      // deliveries left to a subscription deleted meanwhile (an event published as it was removed):
      // cancelled here, or they would head the queue for ever and take a claim's slots each time
      const orphans = candidates.filter((c) => !c.live && c.id !== null).map((c) => c.id!);
      if (orphans.length > 0) {
        await tx
          .update(d)
          .set({ status: "cancelled", lastError: "subscription deleted", leaseUntil: null, leaseOwner: null })
          .where(and(inArray(d.subscriptionId, orphans), eq(d.status, "pending")));
      }
      const ids = candidates
        .filter((c) => c.live)
        .map((c) => c.id)
        .filter((id): id is string => id !== null);
      // held for the rest of this transaction: another worker skips these subscriptions meanwhile,
      // and once it may lock one, the statements below see the leases this claim commits
      const locked =
        ids.length === 0
          ? []
          : await tx
              .select()
              .from(webhookSubscriptions)
              .where(inArray(webhookSubscriptions.subscriptionId, ids))
              .for("update", { skipLocked: true });
      const lockedIds = locked.map((s) => s.subscriptionId);
      const ranked = tx
        .select({
          id: d.deliveryId,
          n: sql<number>`row_number() over (partition by ${d.subscriptionId} order by ${d.nextAttemptAt}, ${d.createdAt}, ${d.deliveryId})`.as(
            "n",
          ),
        })
        .from(d)
        .where(and(due, inArray(d.subscriptionId, lockedIds), notHeld))
        .as("ranked");
      const webhookRows =
        lockedIds.length === 0
          ? []
          : await tx
              .update(d)
              .set(lease)
              .where(
                inArray(
                  d.deliveryId,
                  tx.select({ id: ranked.id }).from(ranked).where(lte(ranked.n, this.settings.runLength)),
                ),
              )
              .returning();
      // e-mail alerts: independent of each other, one per run
      const emailRoom = runs - lockedIds.length;
      const emailRows =
        emailRoom <= 0
          ? []
          : await tx
              .update(d)
              .set(lease)
              .where(
                inArray(
                  d.deliveryId,
                  tx
                    .select({ id: d.deliveryId })
                    .from(d)
                    .where(and(due, eq(d.channel, "email")))
                    .orderBy(asc(d.nextAttemptAt))
                    .limit(emailRoom)
                    .for("update", { skipLocked: true }),
                ),
              )
              .returning();
      return { locked, webhookRows, emailRows };
    });
    const bySubscription = new Map<string, DeliveryRow[]>();
    for (const row of claimed.webhookRows) {
      const list = bySubscription.get(row.subscriptionId!) ?? [];
      list.push(row);
      bySubscription.set(row.subscriptionId!, list);
    }
    const order = (a: DeliveryRow, b: DeliveryRow) =>
      a.nextAttemptAt - b.nextAttemptAt ||
      a.createdAt - b.createdAt ||
      (a.deliveryId < b.deliveryId ? -1 : a.deliveryId > b.deliveryId ? 1 : 0);
    const result: Run[] = [];
    for (const subscription of claimed.locked) {
      const rows = bySubscription.get(subscription.subscriptionId);
      if (rows !== undefined) result.push({ rows: rows.sort(order), subscription, leaseUntil });
    }
    for (const row of claimed.emailRows) result.push({ rows: [row], leaseUntil });
    return result;
  }

  /**
   * Sends a run's deliveries one after the other. Stops at the first failure (the rest are released
   * unsent, due at once: a failure does not hold them back), when the lease would not cover another
   * attempt, or when the workers stop; then writes the outcomes and releases what was not sent.
   */
  private async send(run: Run, worker: string): Promise<void> {
    const outcomes: Outcome[] = [];
    let next = 0;
    while (next < run.rows.length && !this.stopped) {
      // the first attempt always goes (the claim has just taken a lease longer than one attempt):
      // a run that sent nothing would be released and claimed again at once, a loop that makes no
      // progress (and, on the embedded database, whose queries settle without yielding, starves
      // the process); later attempts go while the lease still covers one
      if (next > 0 && run.leaseUntil - Date.now() < this.settings.timeoutMs + 1_000) break;
      const row = run.rows[next];
      const started = Date.now();
      let attempt: Attempt;
      try {
        attempt =
          row.channel === "email"
            ? await this.sendEmail(row)
            : await this.post(run.subscription!.url, row, this.signingSecrets(run.subscription!));
      } catch (error) {
        // a secret that does not open, a malformed stored body: a failed attempt, retried later
        attempt = { ok: false, statusCode: null, error: (error as Error).message };
      }
      next++;
      const finished = Date.now();
      const status = attempt.ok ? "delivered" : finished >= row.giveUpAt ? "failed" : "pending";
      const dueNow = attempt.error?.startsWith(ABORTED) === true;
      outcomes.push({ row, status, attempt, started, finished, dueNow });
      this.metrics?.attempt(row.channel, outcomeOf(status), failureReason(attempt), (finished - started) / 1000);
      if (!attempt.ok) break;
    }
    try {
      await this.finish(outcomes, run.rows.slice(next), worker);
    } catch (error) {
      // the leases expire and the rows are sent again (with the same delivery ids)
      this.log.warn(
        { worker, err: error },
        `webhook worker ${worker}: outcomes not recorded: ${(error as Error).message}`,
      );
    }
  }

  /**
   * The secrets a delivery is signed with, read at send time (a rotation applies to retries too):
   * while a rotation's window lasts the replaced secret signs as well (`webhook-signature`) and
   * alone signs the single-valued spec header.
   */
  private signingSecrets(subscription: SubscriptionRow): { secrets: string[]; specSecret: string } {
    const current = this.secrets.fromStored(subscription.secret, subscription.subscriptionId);
    const previous = previousSecretValid(subscription)
      ? this.secrets.fromStored(subscription.previousSecret!, subscription.subscriptionId)
      : undefined;
    return {
      secrets: previous === undefined ? [current] : [current, previous],
      specSecret: previous ?? current,
    };
  }

  /**
   * Writes the outcomes of a run in one transaction: each attempt in the delivery log (unless its
   * delivery is gone: the subscription was deleted meanwhile), each delivery's new state if the
   * lease is still this worker's; the deliveries not sent are released (lease cleared, attempt not
   * counted).
   */
  private async finish(outcomes: Outcome[], unsent: DeliveryRow[], worker: string): Promise<void> {
    if (outcomes.length === 0 && unsent.length === 0) return;
    await this.db.transaction(async (tx) => {
      if (outcomes.length > 0) {
        const values = sql.join(
          outcomes.map(
            (o) =>
              sql`(${o.row.deliveryId}, ${o.row.attempts}::int, ${o.started}::bigint, ${o.finished - o.started}::int, ${o.attempt.statusCode}::int, ${o.attempt.error}::text, ${o.attempt.ok}::boolean, ${o.status}::text, ${
                o.status !== "pending"
                  ? null
                  : o.dueNow
                    ? o.finished
                    : o.finished + backoffMs(o.row.attempts, this.settings)
              }::bigint, ${o.status === "delivered" ? o.finished : null}::bigint)`,
          ),
          sql`, `,
        );
        await tx.execute(sql`
          insert into webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error, ok, worker)
          select v.id, v.attempt, v.started, v.duration, v.code, v.error, v.ok, ${worker}
          from (values ${values}) as v(id, attempt, started, duration, code, error, ok, status, next_at, delivered_at)
          where exists (select 1 from webhook_deliveries d where d.delivery_id = v.id)`);
        await tx.execute(sql`
          update webhook_deliveries d set
            status = v.status, lease_until = null, lease_owner = null,
            last_status_code = v.code, last_error = v.error,
            delivered_at = coalesce(v.delivered_at, d.delivered_at),
            next_attempt_at = coalesce(v.next_at, d.next_attempt_at)
          from (values ${values}) as v(id, attempt, started, duration, code, error, ok, status, next_at, delivered_at)
          where d.delivery_id = v.id and d.lease_owner = ${worker}`);
      }
      if (unsent.length > 0) {
        await tx
          .update(webhookDeliveries)
          .set({ leaseUntil: null, leaseOwner: null, attempts: sql`${webhookDeliveries.attempts} - 1` })
          .where(
            and(
              inArray(
                webhookDeliveries.deliveryId,
                unsent.map((r) => r.deliveryId),
              ),
              eq(webhookDeliveries.leaseOwner, worker),
            ),
          );
      }
    });
  }

  /**
   * POSTs the stored body with its signatures (X-SERVICE-Signature and the Standard Webhooks
   * headers, made at send time: a receiver refuses a delivery older than its tolerance) over a kept-alive connection (a connection the
   * receiver closed meanwhile is replaced once, at once). The receiver's name is resolved and
   * checked at connection time (guardedLookup): DNS rebinding after the subscription cannot reach
   * inside. Redirects are not followed (a 3xx is a failure).
   */
  private async post(
    target: string,
    row: DeliveryRow,
    signing: { secrets: string[]; specSecret: string },
  ): Promise<Attempt> {
    const policy = { allowLoopback: this.settings.allowLoopback, requireHttps: this.settings.requireHttps };
    let url: URL;
    try {
      url = parseTargetUrl(target, policy);
    } catch (error) {
      return { ok: false, statusCode: null, error: `refused target: ${(error as Error).message}` };
    }
    const host = hostOf(url);
    // an IP literal is connected to without a lookup: check it here
    const literal = isIP(host) === 0 ? undefined : refusalOf(host, policy);
    if (literal !== undefined) return { ok: false, statusCode: null, error: `refused target: ${literal}` };
    const body = Buffer.from(row.body, "utf8");
    const headers = {
      "content-type": "application/json",
      "content-length": body.length,
      "user-agent": "compute-gateway-webhooks/1",
      ...signatureHeaders({ id: row.deliveryId, timestamp: Math.floor(Date.now() / 1000), body, ...signing }, nodeHmac),
      [DELIVERY_HEADER]: row.deliveryId,
      [EVENT_HEADER]: row.event,
    };
    const first = await this.request(url, body, headers, policy);
    return first.staleSocket ? (await this.request(url, body, headers, policy)).attempt : first.attempt;
  }

  private request(
    url: URL,
    body: Buffer,
    headers: Record<string, string | number>,
    policy: { allowLoopback: boolean; requireHttps: boolean },
  ): Promise<{ attempt: Attempt; staleSocket: boolean }> {
    const controller = new AbortController();
    this.inFlight.add(controller);
    return new Promise<{ attempt: Attempt; staleSocket: boolean }>((resolve) => {
      let settled = false;
      let answered = false;
      const done = (attempt: Attempt, staleSocket = false) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.inFlight.delete(controller);
        resolve({ attempt, staleSocket });
      };
      const https_ = url.protocol === "https:";
      const request = (https_ ? https : http).request(url, {
        method: "POST",
        lookup: guardedLookup(policy) as never,
        agent: https_ ? this.agents.https : this.agents.http,
        headers,
        signal: controller.signal,
      });
      const timer = setTimeout(() => {
        done({ ok: false, statusCode: null, error: `timeout after ${this.settings.timeoutMs} ms` });
        request.destroy();
      }, this.settings.timeoutMs);
      // headers and body leave at once (Nagle's algorithm would hold the body for the receiver's delayed ACK)
      request.on("socket", (socket) => socket.setNoDelay(true));
      request.on("response", (response) => {
        answered = true;
        const code = response.statusCode ?? 0;
        response.resume(); // the body is not used; read it so the connection can be reused
        response.on("end", () =>
          done({
            ok: code >= 200 && code < 300,
            statusCode: code,
            error: code >= 200 && code < 300 ? null : `HTTP ${code}`,
          }),
        );
        response.on("error", () => done({ ok: false, statusCode: code, error: "response interrupted" }));
      });
      request.on("error", (error: NodeJS.ErrnoException) => {
        // a kept-alive connection the receiver had closed: nothing reached it, try a fresh one
        const stale = !answered && request.reusedSocket && (error.code === "ECONNRESET" || error.code === "EPIPE");
        const message = controller.signal.aborted ? `${ABORTED}: the gateway is shutting down` : error.message;
        done({ ok: false, statusCode: null, error: message }, stale);
      });
      request.end(body);
    });
  }

  private async sendEmail(row: DeliveryRow): Promise<Attempt> {
    if (this.mailer === undefined) return { ok: false, statusCode: null, error: "SMTP is not configured" };
    try {
      await this.mailer.send(JSON.parse(row.body) as EmailMessage, row.deliveryId);
      return { ok: true, statusCode: null, error: null };
    } catch (error) {
      return { ok: false, statusCode: null, error: (error as Error).message };
    }
  }
}

/** The error of an attempt a shutdown aborted. */
const ABORTED = "aborted";

function outcomeOf(status: Outcome["status"]): DeliveryOutcome {
  return status === "pending" ? "retry" : status;
}
