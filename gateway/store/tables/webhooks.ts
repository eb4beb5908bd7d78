import { bigint, boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * Webhooks (issue 13): subscriptions and the outbox. An outbox row is written in the same
 * transaction as the indexed event it announces (or, for an off-chain event, as the write that
 * produced it), so an event is never committed without its deliveries nor a delivery without its
 * event. Times the workers compare are Unix milliseconds; `created_at` of a subscription is seconds.
 */

const millis = (name: string) => bigint(name, { mode: "number" });

/** A receiver of an account's events (the spec's "developer portal" subscription). */
export const webhookSubscriptions = pgTable(
  "webhook_subscriptions",
  {
    subscriptionId: text("subscription_id").primaryKey(),
    /** The API key's account, lower-cased: the owner, and the account `ownEventsOnly` matches. */
    accountLower: text("account_lower").notNull(),
    url: text("url").notNull(),
    events: jsonb("events").$type<string[]>().notNull(),
    /** `unix` (reference form) or `iso8601` (guide form). */
    timestampFormat: text("timestamp_format").notNull(),
    /** Only events that involve the owner's account (its provider, its transfers, its redemptions). */
    ownEventsOnly: boolean("own_events_only").notNull(),
    /** HMAC key, sealed or in clear: the worker must sign with it (docs/decisions/0077-webhook-targets-limits-and-secrets.md). */
    secret: text("secret").notNull(),
    createdAt: millis("created_at").notNull(),
    rotatedAt: millis("rotated_at"),
    /**
     * The secret the last rotation replaced, still valid until `previous_secret_expires_at` (the
     * rotation's window, up to 24 hours): deliveries are signed with both meanwhile (issue 25).
     */
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: millis("previous_secret_expires_at"),
  },
  (t) => [
    index("webhook_subscriptions_account").on(t.accountLower),
    // each indexed event looks up its subscribers with `events @> '["<event>"]'`
    index("webhook_subscriptions_events").using("gin", t.events),
  ],
);

/**
 * The outbox: one row per (subscription, event) for webhooks, one per (address, event) for e-mail
 * alerts. `body` holds the exact bytes sent (rendered once, so every retry signs the same bytes);
 * the row's id is the delivery id the receiver sees. `status`: `pending` (due at `next_attempt_at`,
 * leased by a worker while `lease_until` is in the future), `delivered`, `failed` (retry window
 * over; a redelivery makes it pending again) or `cancelled` (its on-chain event was reorged out).
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    deliveryId: text("delivery_id").primaryKey(),
    /** `webhook` or `email`. */
    channel: text("channel").notNull(),
    /** The subscription (webhook) or null (e-mail). */
    subscriptionId: text("subscription_id"),
    /** Whom the row is for, the unique key with the event: the subscription id, or the e-mail address. */
    target: text("target").notNull(),
    eventId: text("event_id").notNull(),
    event: text("event").notNull(),
    body: text("body").notNull(),
    /** The on-chain event's chain and block (null for off-chain events): a reorg cancels by them. */
    chainId: integer("chain_id"),
    blockNumber: bigint("block_number", { mode: "number" }),
    status: text("status").notNull(),
    attempts: integer("attempts").notNull(),
    nextAttemptAt: millis("next_attempt_at").notNull(),
    leaseUntil: millis("lease_until"),
    /** The worker holding the lease: only it may record the outcome. */
    leaseOwner: text("lease_owner"),
    /** The retry window's end: a failure after it gives up (`failed`). */
    giveUpAt: millis("give_up_at").notNull(),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: millis("created_at").notNull(),
    deliveredAt: millis("delivered_at"),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_once").on(t.channel, t.target, t.eventId),
    index("webhook_deliveries_due").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_subscription").on(t.subscriptionId, t.createdAt),
    index("webhook_deliveries_block").on(t.chainId, t.blockNumber),
  ],
);

/** Every attempt of every delivery: the per-subscription delivery log. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    deliveryId: text("delivery_id").notNull(),
    attempt: integer("attempt").notNull(),
    startedAt: millis("started_at").notNull(),
    durationMs: integer("duration_ms").notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    ok: boolean("ok").notNull(),
    /** Which worker made it (to tell concurrent workers apart in the log). */
    worker: text("worker").notNull(),
  },
  (t) => [index("webhook_attempts_delivery").on(t.deliveryId, t.attempt)],
);
