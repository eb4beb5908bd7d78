import { randomUUID } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";

import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";

import { DELIVERY_HEADER, EVENT_HEADER, signatureHeaders } from "@compute-capacity/sdk";
import type { Db } from "../store/db.js";
import { webhookAttempts, webhookDeliveries, webhookSubscriptions } from "../store/schema.js";
import type { EmailMessage, Mailer } from "./email.js";
import type { WebhookSettings } from "./settings.js";
import { guardedLookup, hostOf, parseTargetUrl, refusalOf } from "./targets.js";
import { WebhookSecrets } from "./secrets.js";
import { previousSecretValid } from "./subscriptions.js";

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** The outcome of one attempt, as the delivery log keeps it. */
interface Attempt {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

/** Delay before the next attempt after `failures` failures: exponential, capped, with jitter (half fixed, half random). */
export function backoffMs(failures: number, settings: Pick<WebhookSettings, "backoffBaseMs" | "backoffCapMs">): number {
  const delay = Math.min(settings.backoffBaseMs * 2 ** Math.max(0, failures - 1), settings.backoffCapMs);
  return Math.round(delay / 2 + (Math.random() * delay) / 2);
}

/**
 * Delivery workers: each claims one due row at a time with a lease (`UPDATE ... WHERE id IN
 * (SELECT ... FOR UPDATE SKIP LOCKED) RETURNING`, so concurrent workers, in this process or
 * others on the same PostgreSQL, never take the same row), sends it, logs the attempt and records
 * the outcome. A worker that dies mid-delivery leaves the lease to expire; the row is then due
 * again and is sent again with the same delivery id (the one case of a duplicate).
 */
export class DeliveryWorkers {
  private stopped = true;
  private loops: Promise<void>[] = [];
  private readonly wakers = new Set<() => void>();

  constructor(
    private readonly db: Db,
    private readonly settings: WebhookSettings,
    private readonly mailer: Mailer | undefined,
    private readonly log: (line: string) => void,
    private readonly secrets = new WebhookSecrets(),
  ) {}

  start(count = this.settings.workers): void {
    if (!this.stopped) return;
    this.stopped = false;
    const run = randomUUID().slice(0, 8);
    this.loops = Array.from({ length: count }, (_, i) => this.loop(`${run}-${i}`));
  }

  /** Makes idle workers look for due rows now (the outbox calls it after a commit that queued some). */
  wake(): void {
    for (const wake of this.wakers) wake();
  }

  /** Stops after the deliveries in flight (each bounded by the timeout). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const wake of this.wakers) wake();
    await Promise.all(this.loops);
    this.loops = [];
  }

  private async loop(worker: string): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      let claimed: DeliveryRow | undefined;
      try {
        claimed = await this.claim(worker);
        failures = 0;
        if (claimed !== undefined) await this.deliver(claimed, worker);
      } catch (error) {
        // the database is unreachable or the process is closing: wait and try again
        failures++;
        if (failures === 1 || failures % 20 === 0) this.log(`webhook worker ${worker}: ${(error as Error).message}`);
      }
      if (claimed === undefined && !this.stopped) {
        const delay = failures > 0 ? Math.min(this.settings.pollMs * 2 ** failures, 5_000) : this.settings.pollMs;
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            this.wakers.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, delay);
          this.wakers.add(wake);
        });
      }
    }
  }

  /** Takes the most overdue pending row whose lease (if any) has expired. */
  async claim(worker: string): Promise<DeliveryRow | undefined> {
    const now = Date.now();
    const d = webhookDeliveries;
    const due = this.db
      .select({ id: d.deliveryId })
      .from(d)
      .where(and(eq(d.status, "pending"), lte(d.nextAttemptAt, now), or(isNull(d.leaseUntil), lt(d.leaseUntil, now))))
      .orderBy(asc(d.nextAttemptAt))
      .limit(1)
      .for("update", { skipLocked: true });
    const [row] = await this.db
      .update(d)
      .set({ leaseUntil: now + this.settings.leaseMs, leaseOwner: worker, attempts: sql`${d.attempts} + 1` })
      .where(inArray(d.deliveryId, due))
      .returning();
    return row;
  }

  private async deliver(row: DeliveryRow, worker: string): Promise<void> {
    const started = Date.now();
    let attempt: Attempt;
    if (row.channel === "email") attempt = await this.sendEmail(row);
    else {
      const [subscription] = await this.db
        .select()
        .from(webhookSubscriptions)
        .where(eq(webhookSubscriptions.subscriptionId, row.subscriptionId ?? ""));
      if (subscription === undefined) {
        await this.finish(
          row,
          worker,
          "cancelled",
          { ok: false, statusCode: null, error: "subscription deleted" },
          started,
        );
        return;
      }
      // read at send time: a rotation applies to retries too; while its window lasts the replaced
      // secret signs as well (webhook-signature) and alone signs the single-valued spec header
      const current = this.secrets.fromStored(subscription.secret, subscription.subscriptionId);
      const previous = previousSecretValid(subscription)
        ? this.secrets.fromStored(subscription.previousSecret!, subscription.subscriptionId)
        : undefined;
      const secrets = previous === undefined ? [current] : [current, previous];
      attempt = await this.post(subscription.url, row, secrets, previous ?? current);
    }
    const now = Date.now();
    const status = attempt.ok ? "delivered" : now >= row.giveUpAt ? "failed" : "pending";
    await this.finish(row, worker, status, attempt, started);
  }

  /**
   * Records the row's new state if the lease is still this worker's, and the attempt in the log
   * unless the delivery is gone (its subscription was deleted meanwhile).
   */
  private async finish(row: DeliveryRow, worker: string, status: string, attempt: Attempt, started: number) {
    const now = Date.now();
    await this.db.transaction(async (tx) => {
      const [exists] = await tx
        .select({ id: webhookDeliveries.deliveryId })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.deliveryId, row.deliveryId));
      if (exists === undefined) return;
      await tx.insert(webhookAttempts).values({
        deliveryId: row.deliveryId,
        attempt: row.attempts,
        startedAt: started,
        durationMs: now - started,
        statusCode: attempt.statusCode,
        error: attempt.error,
        ok: attempt.ok,
        worker,
      });
      await tx
        .update(webhookDeliveries)
        .set({
          status,
          leaseUntil: null,
          leaseOwner: null,
          lastStatusCode: attempt.statusCode,
          lastError: attempt.error,
          ...(status === "delivered" ? { deliveredAt: now } : {}),
          ...(status === "pending" ? { nextAttemptAt: now + backoffMs(row.attempts, this.settings) } : {}),
        })
        .where(and(eq(webhookDeliveries.deliveryId, row.deliveryId), eq(webhookDeliveries.leaseOwner, worker)));
    });
  }

  /**
   * POSTs the stored body with its signatures (X-SERVICE-Signature and the Standard Webhooks headers). The receiver's name is resolved and checked at
   * connection time (guardedLookup): DNS rebinding after the subscription cannot reach inside.
   * Redirects are not followed (a 3xx is a failure).
   */
  private post(target: string, row: DeliveryRow, secrets: string[], specSecret: string): Promise<Attempt> {
    const policy = { allowLoopback: this.settings.allowLoopback, requireHttps: this.settings.requireHttps };
    let url: URL;
    try {
      url = parseTargetUrl(target, policy);
    } catch (error) {
      return Promise.resolve({ ok: false, statusCode: null, error: `refused target: ${(error as Error).message}` });
    }
    const host = hostOf(url);
    // an IP literal is connected to without a lookup: check it here
    const literal = isIP(host) === 0 ? undefined : refusalOf(host, policy);
    if (literal !== undefined)
      return Promise.resolve({ ok: false, statusCode: null, error: `refused target: ${literal}` });
    const body = Buffer.from(row.body, "utf8");
    return new Promise<Attempt>((resolve) => {
      let settled = false;
      const done = (attempt: Attempt) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(attempt);
      };
      const request = (url.protocol === "https:" ? https : http).request(url, {
        method: "POST",
        lookup: guardedLookup(policy) as never,
        agent: false,
        headers: {
          "content-type": "application/json",
          "content-length": body.length,
          "user-agent": "compute-gateway-webhooks/1",
          // the send time of this attempt: a receiver refuses a delivery older than its tolerance
          ...signatureHeaders({
            id: row.deliveryId,
            timestamp: Math.floor(Date.now() / 1000),
            body: row.body,
            secrets,
            specSecret,
          }),
          [DELIVERY_HEADER]: row.deliveryId,
          [EVENT_HEADER]: row.event,
        },
      });
      const timer = setTimeout(() => {
        done({ ok: false, statusCode: null, error: `timeout after ${this.settings.timeoutMs} ms` });
        request.destroy();
      }, this.settings.timeoutMs);
      request.on("response", (response) => {
        const code = response.statusCode ?? 0;
        response.resume(); // the body is not used; read it so the socket closes cleanly
        response.on("end", () =>
          done({
            ok: code >= 200 && code < 300,
            statusCode: code,
            error: code >= 200 && code < 300 ? null : `HTTP ${code}`,
          }),
        );
        response.on("error", () => done({ ok: false, statusCode: code, error: "response interrupted" }));
      });
      request.on("error", (error: NodeJS.ErrnoException) =>
        done({ ok: false, statusCode: null, error: error.message }),
      );
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
