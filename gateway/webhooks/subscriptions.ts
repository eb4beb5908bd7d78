import { randomBytes, randomUUID } from "node:crypto";

import { and, asc, count, desc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";

import { invalidParameter, notFound } from "../api/errors.js";
import type { Db } from "../store/db.js";
import { webhookAttempts, webhookDeliveries, webhookSubscriptions } from "../store/schema.js";
import { deliveryIds } from "./delivery-id.js";
import { TEST_EVENT, WEBHOOK_EVENTS, twinPairsIn } from "./event-names.js";
import type { WebhookEventName } from "./event-names.js";
import { renderBody } from "./body.js";
import type { TimestampFormat } from "./body.js";
import type { WebhookSettings } from "./settings.js";
import { TargetError, checkHost, hostOf, parseTargetUrl } from "./targets.js";
import { WebhookSecrets } from "./secrets.js";

type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type AttemptRow = typeof webhookAttempts.$inferSelect;

export interface CreateSubscription {
  url: string;
  events: string[];
  timestamp_format?: TimestampFormat;
  own_events_only?: boolean;
}

export const DELIVERY_STATUSES = ["pending", "delivered", "failed", "cancelled"] as const;
export const MAX_URL_LENGTH = 2048;
/** The longest a rotation keeps the previous secret valid: 24 hours (as Stripe's rolling window). */
export const MAX_ROTATION_WINDOW_SECONDS = 86_400;

const seconds = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));

/** A warning in a subscription's answer: something it asked for that the subscriber should know. */
export interface SubscriptionWarning {
  code: "twin_events";
  events: string[];
  message: string;
}

/** The warnings a subscription to `events` gets: each pair of events that announce one fact. */
export function warningsOf(events: readonly string[]): SubscriptionWarning[] {
  return twinPairsIn(events).map(([a, b]) => ({
    code: "twin_events" as const,
    events: [a, b],
    message:
      `${a} and ${b} announce the same fact: each is delivered, with the same fact_id in the body, so keep one ` +
      `per fact_id (or subscribe to one of them)`,
  }));
}

/** Whether the previous secret of a rotation is still valid at `now` (ms). */
export function previousSecretValid(row: SubscriptionRow, now = Date.now()): boolean {
  return row.previousSecret !== null && row.previousSecretExpiresAt !== null && now < row.previousSecretExpiresAt;
}

/** A subscription as the API shows it (the secret is added only when just created or rotated). */
export function subscriptionView(row: SubscriptionRow) {
  return {
    subscription_id: row.subscriptionId,
    url: row.url,
    events: row.events,
    timestamp_format: row.timestampFormat,
    own_events_only: row.ownEventsOnly,
    created_at: seconds(row.createdAt)!,
    rotated_at: seconds(row.rotatedAt),
    previous_secret_expires_at: previousSecretValid(row) ? seconds(row.previousSecretExpiresAt) : null,
    warnings: warningsOf(row.events),
  };
}

/** A delivery and its attempts, as the delivery log shows them. */
export function deliveryView(row: DeliveryRow, attempts: AttemptRow[]) {
  return {
    delivery_id: row.deliveryId,
    event_id: row.eventId,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    created_at: seconds(row.createdAt)!,
    next_attempt_at: row.status === "pending" ? seconds(row.nextAttemptAt) : null,
    delivered_at: seconds(row.deliveredAt),
    last_status_code: row.lastStatusCode,
    last_error: row.lastError,
    payload: JSON.parse(row.body) as Record<string, unknown>,
    attempt_log: attempts.map((a) => ({
      attempt: a.attempt,
      started_at: seconds(a.startedAt)!,
      duration_ms: a.durationMs,
      status_code: a.statusCode,
      error: a.error,
      ok: a.ok,
    })),
  };
}

const newSecret = () => `whsec_${randomBytes(32).toString("hex")}`;

/**
 * Subscriptions of an account and their delivery logs: what the routes (routes.ts) and the
 * `webhooks` command (gateway/cli.ts) do, with the same checks. Every operation is scoped to the
 * owner's account: another account's subscription is "not found", never "forbidden" (its
 * existence is not disclosed).
 */
export class SubscriptionService {
  constructor(
    private readonly db: Db,
    private readonly settings: Pick<
      WebhookSettings,
      "allowLoopback" | "requireHttps" | "maxSubscriptionsPerAccount" | "retryWindowMs"
    >,
    private readonly secrets = new WebhookSecrets(),
    /** Told when a delivery was queued outside the indexer (a test event): the workers wake up. */
    private readonly onQueued: () => void = () => {},
  ) {}

  async create(account: string, input: CreateSubscription) {
    const events = [...new Set(input.events)];
    if (events.length === 0) throw invalidParameter("events", "must name at least one event");
    for (const event of events) {
      if (!(WEBHOOK_EVENTS as readonly string[]).includes(event)) {
        throw invalidParameter(
          "events",
          `unknown event ${JSON.stringify(event)} (one of ${WEBHOOK_EVENTS.join(", ")})`,
        );
      }
    }
    const format = input.timestamp_format ?? "unix";
    if (format !== "unix" && format !== "iso8601")
      throw invalidParameter("timestamp_format", "must be unix or iso8601");
    const url = await this.checkUrl(input.url);
    const owner = account.toLowerCase();
    const secret = newSecret();
    const subscriptionId = randomUUID();
    // count and insert under a per-account lock: concurrent creates cannot pass the limit together
    const row = await this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${"webhook-subscriptions:" + owner}))`);
      const [{ n }] = await tx
        .select({ n: count() })
        .from(webhookSubscriptions)
        .where(eq(webhookSubscriptions.accountLower, owner));
      if (n >= this.settings.maxSubscriptionsPerAccount) {
        throw invalidParameter(
          "url",
          `an account may have at most ${this.settings.maxSubscriptionsPerAccount} subscriptions`,
        );
      }
      const [inserted] = await tx
        .insert(webhookSubscriptions)
        .values({
          subscriptionId,
          accountLower: owner,
          url,
          events: events as WebhookEventName[],
          timestampFormat: format,
          ownEventsOnly: input.own_events_only ?? false,
          secret: this.secrets.toStored(secret, subscriptionId),
          createdAt: Date.now(),
        })
        .returning();
      return inserted;
    });
    return { ...subscriptionView(row), secret };
  }

  async list(account: string, paging: { page: number; limit: number }) {
    const where = eq(webhookSubscriptions.accountLower, account.toLowerCase());
    const rows = await this.db
      .select()
      .from(webhookSubscriptions)
      .where(where)
      .orderBy(asc(webhookSubscriptions.createdAt), asc(webhookSubscriptions.subscriptionId))
      .limit(paging.limit)
      .offset((paging.page - 1) * paging.limit);
    const [{ n }] = await this.db.select({ n: count() }).from(webhookSubscriptions).where(where);
    return { webhooks: rows.map((r) => subscriptionView(r)), total: n, ...paging };
  }

  async get(account: string, subscriptionId: string) {
    return subscriptionView(await this.owned(account, subscriptionId));
  }

  /** Deletes the subscription with its deliveries and their log (nothing more is sent to it). */
  async remove(account: string, subscriptionId: string) {
    await this.owned(account, subscriptionId);
    await this.db.transaction(async (tx) => {
      const ids = tx
        .select({ id: webhookDeliveries.deliveryId })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.subscriptionId, subscriptionId));
      await tx.delete(webhookAttempts).where(inArray(webhookAttempts.deliveryId, ids));
      await tx.delete(webhookDeliveries).where(eq(webhookDeliveries.subscriptionId, subscriptionId));
      await tx.delete(webhookSubscriptions).where(eq(webhookSubscriptions.subscriptionId, subscriptionId));
    });
    return { subscription_id: subscriptionId, deleted: true };
  }

  /**
   * A new secret; attempts from now on (retries included) are signed with it. With a window
   * (`previousSecretValidFor` seconds, at most 24 hours), the secret it replaces stays valid until
   * the window ends: `webhook-signature` then carries a signature under each, and the single-valued
   * `X-SERVICE-Signature` the previous one's, so a receiver not yet updated keeps verifying. A
   * rotation during a window drops the older secret (at most two are valid at once). No window: the
   * previous secret stops at once (a leaked secret).
   */
  async rotate(account: string, subscriptionId: string, previousSecretValidFor = 0) {
    if (
      !Number.isInteger(previousSecretValidFor) ||
      previousSecretValidFor < 0 ||
      previousSecretValidFor > MAX_ROTATION_WINDOW_SECONDS
    ) {
      throw invalidParameter(
        "previous_secret_valid_for",
        `must be a whole number of seconds from 0 to ${MAX_ROTATION_WINDOW_SECONDS} (24 hours)`,
      );
    }
    const current = await this.owned(account, subscriptionId);
    const secret = newSecret();
    const now = Date.now();
    const [row] = await this.db
      .update(webhookSubscriptions)
      .set({
        secret: this.secrets.toStored(secret, subscriptionId),
        rotatedAt: now,
        // stored as it was (sealed under the same subscription, or in clear)
        previousSecret: previousSecretValidFor > 0 ? current.secret : null,
        previousSecretExpiresAt: previousSecretValidFor > 0 ? now + previousSecretValidFor * 1000 : null,
      })
      .where(eq(webhookSubscriptions.subscriptionId, subscriptionId))
      .returning();
    return { ...subscriptionView(row), secret };
  }

  /** The delivery log, newest first. */
  async deliveries(account: string, subscriptionId: string, query: { page: number; limit: number; status?: string }) {
    await this.owned(account, subscriptionId);
    const where = and(
      eq(webhookDeliveries.subscriptionId, subscriptionId),
      query.status === undefined ? undefined : eq(webhookDeliveries.status, query.status),
    );
    const rows = await this.db
      .select()
      .from(webhookDeliveries)
      .where(where)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.deliveryId))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit);
    const [{ n }] = await this.db.select({ n: count() }).from(webhookDeliveries).where(where);
    const attempts = await this.attemptsOf(rows.map((r) => r.deliveryId));
    return {
      deliveries: rows.map((r) => deliveryView(r, attempts.get(r.deliveryId) ?? [])),
      total: n,
      page: query.page,
      limit: query.limit,
    };
  }

  /**
   * Sends a delivery again: due now, with the same delivery id and body, and a new retry window.
   * Not a cancelled one: its event was reorged out and never became final.
   */
  async redeliver(account: string, subscriptionId: string, deliveryId: string) {
    await this.owned(account, subscriptionId);
    const ofSubscription = and(
      eq(webhookDeliveries.deliveryId, deliveryId),
      eq(webhookDeliveries.subscriptionId, subscriptionId),
    );
    const [existing] = await this.db.select().from(webhookDeliveries).where(ofSubscription);
    if (existing === undefined) throw notFound("delivery", deliveryId);
    if (existing.status === "cancelled") {
      throw invalidParameter("delivery_id", "was cancelled: its event was removed by a chain reorganization");
    }
    const now = Date.now();
    // not while a worker holds it: that worker's outcome would overwrite the redelivery
    const [row] = await this.db
      .update(webhookDeliveries)
      .set({ status: "pending", attempts: 0, nextAttemptAt: now, giveUpAt: now + this.settings.retryWindowMs })
      .where(and(ofSubscription, or(isNull(webhookDeliveries.leaseUntil), lte(webhookDeliveries.leaseUntil, now))))
      .returning();
    if (row === undefined) {
      throw invalidParameter("delivery_id", "is being delivered right now; ask again once this attempt has ended");
    }
    return deliveryView(row, (await this.attemptsOf([deliveryId])).get(deliveryId) ?? []);
  }

  /**
   * Queues a signed `webhook.test` event to the subscription through the normal delivery path: a
   * delivery row like any other (signed with the subscription's secret at send time, retried, shown
   * in the delivery log, redeliverable), due now. Its `id` is `test:<uuid>`, new at every call.
   */
  async sendTest(account: string, subscriptionId: string) {
    const subscription = await this.owned(account, subscriptionId);
    const now = Date.now();
    const eventId = `test:${randomUUID()}`;
    const body = renderBody(
      {
        id: eventId,
        event: TEST_EVENT,
        timestamp: Math.floor(now / 1000),
        data: {
          subscription_id: subscriptionId,
          url: subscription.url,
          events: subscription.events,
          message: "A test event, sent on request (POST /webhooks/:id/test); it announces nothing.",
        },
      },
      subscription.timestampFormat as TimestampFormat,
    );
    const [row] = await this.db
      .insert(webhookDeliveries)
      .values({
        deliveryId: deliveryIds.next(),
        channel: "webhook",
        subscriptionId,
        target: subscriptionId,
        eventId,
        event: TEST_EVENT,
        body,
        chainId: null,
        blockNumber: null,
        status: "pending",
        attempts: 0,
        nextAttemptAt: now,
        giveUpAt: now + this.settings.retryWindowMs,
        createdAt: now,
      })
      .returning();
    this.onQueued();
    return deliveryView(row, []);
  }

  /** Refuses a URL outside the policy: form, scheme, and every address its host resolves to. */
  async checkUrl(raw: string): Promise<string> {
    if (typeof raw !== "string" || raw.length > MAX_URL_LENGTH) {
      throw invalidParameter("url", `must be a URL of at most ${MAX_URL_LENGTH} characters`);
    }
    try {
      const url = parseTargetUrl(raw, this.settings);
      await checkHost(hostOf(url), this.settings);
      return url.toString();
    } catch (error) {
      if (error instanceof TargetError) throw invalidParameter("url", error.message);
      throw error;
    }
  }

  private async owned(account: string, subscriptionId: string): Promise<SubscriptionRow> {
    const [row] = await this.db
      .select()
      .from(webhookSubscriptions)
      .where(
        and(
          eq(webhookSubscriptions.subscriptionId, subscriptionId),
          eq(webhookSubscriptions.accountLower, account.toLowerCase()),
        ),
      );
    if (row === undefined) throw notFound("webhook subscription", subscriptionId);
    return row;
  }

  private async attemptsOf(ids: string[]): Promise<Map<string, AttemptRow[]>> {
    const byDelivery = new Map<string, AttemptRow[]>();
    if (ids.length === 0) return byDelivery;
    const rows = await this.db
      .select()
      .from(webhookAttempts)
      .where(inArray(webhookAttempts.deliveryId, ids))
      .orderBy(asc(webhookAttempts.attempt), asc(webhookAttempts.startedAt));
    for (const r of rows) byDelivery.set(r.deliveryId, [...(byDelivery.get(r.deliveryId) ?? []), r]);
    return byDelivery;
  }
}
