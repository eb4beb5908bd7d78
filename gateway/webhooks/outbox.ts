import { and, eq, gt, inArray, sql } from "drizzle-orm";

import type { ChainContext, StoredEvent } from "../indexer/module.js";
import type { EventSink } from "../indexer/sink.js";
import type { Db, Tx } from "../store/db.js";
import { leaseNotices, providers, webhookDeliveries, webhookSubscriptions } from "../store/schema.js";
import { deliveryIds } from "./delivery-id.js";
import { alertOf } from "./email.js";
import type { WebhookEvent } from "./events.js";
import { webhookEventsOf } from "./events.js";
import { renderBody } from "./body.js";
import type { TimestampFormat } from "./body.js";

export { renderBody } from "./body.js";
export type { TimestampFormat } from "./body.js";

/**
 * The events a provider is e-mailed about (the spec's e-mail alerts): a new redemption to fulfil,
 * and a terminated lease whose resources it must reclaim.
 */
const ALERTED_EVENTS = new Set<string>(["redemption.initiated", "redemption.terminated"]);

export interface OutboxOptions {
  /** Retries continue at least this long after the event (ms). */
  retryWindowMs: number;
  /** Whether provider e-mail alerts are configured (SMTP URL and from-address). */
  email: boolean;
}

/**
 * The outbox: deliveries are rows written in the transaction that commits the event, so either
 * both are committed or neither (a crash between them cannot lose a webhook or announce an event
 * the store does not have). Workers (worker.ts) send what is due. It is the indexer's sink
 * (gateway/indexer/sink.ts).
 */
export class Outbox implements EventSink {
  private queuedSinceCommit = false;

  /** `onCommitted`: told after a batch that queued deliveries committed (the workers wake up). */
  constructor(
    private readonly options: OutboxOptions,
    private readonly onCommitted: () => void = () => {},
  ) {}

  committed(): void {
    if (!this.queuedSinceCommit) return;
    this.queuedSinceCommit = false;
    this.onCommitted();
  }

  async indexed(tx: Tx, e: StoredEvent, context: ChainContext): Promise<void> {
    for (const event of await webhookEventsOf(tx, e, context)) await this.publish(tx, event);
  }

  /**
   * Queues `event` for every subscription that wants it, in `tx`. For off-chain events (the
   * verification service's `verification.completed`): call it in the transaction that stores the
   * outcome. Publishing the same id twice queues nothing the second time.
   */
  async publish(tx: Tx, event: WebhookEvent): Promise<number> {
    const accounts = event.accounts.map((a) => a.toLowerCase());
    const subscribers = await tx
      .select()
      .from(webhookSubscriptions)
      .where(sql`${webhookSubscriptions.events} @> ${JSON.stringify([event.event])}::jsonb`);
    const now = Date.now();
    const rows: (typeof webhookDeliveries.$inferInsert)[] = subscribers
      .filter((s) => (event.public === true && !s.ownEventsOnly) || accounts.includes(s.accountLower))
      .map((s) => ({
        deliveryId: deliveryIds.next(),
        channel: "webhook",
        subscriptionId: s.subscriptionId,
        target: s.subscriptionId,
        eventId: event.id,
        event: event.event,
        body: renderBody(event, s.timestampFormat as TimestampFormat),
        ...this.schedule(event, now),
      }));
    if (this.options.email && ALERTED_EVENTS.has(event.event)) {
      const alert = await this.providerAlert(tx, event);
      if (alert !== undefined) rows.push({ ...alert, ...this.schedule(event, now) });
    }
    if (rows.length === 0) return 0;
    this.queuedSinceCommit = true;
    const queued = await tx
      .insert(webhookDeliveries)
      .values(rows)
      .onConflictDoUpdate({
        // an event reorged out (cancelled) and mined again with the same id: queue it again
        target: [webhookDeliveries.channel, webhookDeliveries.target, webhookDeliveries.eventId],
        set: {
          status: "pending",
          body: sql`excluded.body`,
          blockNumber: sql`excluded.block_number`,
          nextAttemptAt: sql`excluded.next_attempt_at`,
          giveUpAt: sql`excluded.give_up_at`,
        },
        setWhere: eq(webhookDeliveries.status, "cancelled"),
      })
      .returning({ id: webhookDeliveries.deliveryId });
    return queued.length;
  }

  /**
   * Deliveries of events above `block` not yet sent are cancelled: those events never became final.
   * One being sent right now may still arrive (documented in docs/decisions/0076-webhook-outbox-reorgs-and-workers.md).
   */
  async retract(tx: Tx, chainId: number, block: number): Promise<void> {
    // a lease end set above `block` is no longer final: its notices may go again if it is mined again
    await tx.delete(leaseNotices).where(and(eq(leaseNotices.chainId, chainId), gt(leaseNotices.endBlock, block)));
    await tx
      .update(webhookDeliveries)
      .set({ status: "cancelled", leaseUntil: null, leaseOwner: null })
      .where(
        and(
          eq(webhookDeliveries.chainId, chainId),
          gt(webhookDeliveries.blockNumber, block),
          inArray(webhookDeliveries.status, ["pending", "failed"]),
        ),
      );
  }

  private schedule(event: WebhookEvent, now: number) {
    return {
      chainId: event.chainId ?? null,
      blockNumber: event.blockNumber ?? null,
      status: "pending",
      attempts: 0,
      nextAttemptAt: now,
      giveUpAt: now + this.options.retryWindowMs,
      createdAt: now,
    };
  }

  /** The e-mail to the provider of a redemption event, if its on-chain profile has an address. */
  private async providerAlert(tx: Tx, event: WebhookEvent) {
    const providerId = event.data.provider_id as string;
    const [provider] = await tx
      .select({ email: providers.email, name: providers.name })
      .from(providers)
      .where(eq(providers.providerId, providerId));
    if (provider === undefined || !/^[^\s@]+@[^\s@]+$/.test(provider.email)) return undefined;
    return {
      deliveryId: deliveryIds.next(),
      channel: "email",
      subscriptionId: null,
      target: provider.email,
      eventId: event.id,
      event: event.event,
      body: JSON.stringify(alertOf(event, provider.email, provider.name)),
    };
  }
}

/** Deliveries waiting to be sent and when the oldest was queued (the metrics' outbox depth and age). */
export async function pendingDeliveries(db: Db): Promise<{ pending: number; oldestQueuedAt: number | null }> {
  const [row] = await db
    .select({
      pending: sql<number>`count(*)::int`,
      oldest: sql<string | null>`min(${webhookDeliveries.createdAt})::text`,
    })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.status, "pending"));
  return { pending: row.pending, oldestQueuedAt: row.oldest === null ? null : Number(row.oldest) };
}
