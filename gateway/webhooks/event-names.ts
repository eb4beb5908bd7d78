// The names of the webhook events, apart from their mapping (events.ts): the routes, the
// subscription service and the `webhooks` command need only the names, and so import nothing of the
// protocol's contracts (the command runs without compiled contracts).

/**
 * Every webhook event: the union of the spec's two lists (DESIGN.md section 9) plus the three
 * redemption outcomes the spec's lists leave out (`redemption.expired`, `.disputed`, `.resolved`):
 * without them a user or provider subscribed to `redemption.*` would never hear how a redemption
 * that was not confirmed ended; and the lease events of issue 19 (`redemption.renewal_offered`,
 * `.renewed`, `.terminated`, and the time-based `.lease_expiring` and `.lease_ended`); and the
 * markets' claimable balances (issue 25: `marketplace.claimable_credited`, `.claimable_withdrawn`).
 */
export const WEBHOOK_EVENTS = [
  "cu.verified",
  "sstb.minted",
  "sstb.redeemed",
  "sstb.transferred",
  "listing.created",
  "listing.purchased",
  "verification.completed",
  "bridge.message_sent",
  "bridge.message_received",
  "marketplace.listing_created",
  "marketplace.order_created",
  "marketplace.trade_executed",
  "marketplace.claimable_credited",
  "marketplace.claimable_withdrawn",
  "redemption.initiated",
  "redemption.fulfilled",
  "redemption.confirmed",
  "redemption.expired",
  "redemption.disputed",
  "redemption.resolved",
  "redemption.renewal_offered",
  "redemption.renewed",
  "redemption.terminated",
  "redemption.lease_expiring",
  "redemption.lease_ended",
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/**
 * The event of a test delivery (`POST /webhooks/:id/test`): sent on demand to one subscription
 * through the normal delivery path; never subscribed to and never sent for anything on-chain.
 */
export const TEST_EVENT = "webhook.test";
/** Every event a delivery may carry: the subscribable ones and the test event. */
export const DELIVERY_EVENTS = [...WEBHOOK_EVENTS, TEST_EVENT] as const;
export type DeliveryEventName = (typeof DELIVERY_EVENTS)[number];

/**
 * Events that announce one fact under two names (the spec's two lists name some facts twice): both
 * are sent, each to its subscribers, with the same `fact_id`, so a receiver subscribed to both keeps
 * one; a subscription to both members of a pair is warned in its answer. `sstb.redeemed` and
 * `redemption.renewed`: a renewal is a redemption of its own. `listing.purchased` and
 * `marketplace.trade_executed`: a spot or option purchase (a future's purchase trades nothing yet;
 * fills, exercises and settlements have no `listing.purchased`).
 */
export const TWIN_EVENTS = [
  ["listing.created", "marketplace.listing_created"],
  ["sstb.redeemed", "redemption.initiated"],
  ["sstb.redeemed", "redemption.renewed"],
  ["listing.purchased", "marketplace.trade_executed"],
] as const satisfies ReadonlyArray<readonly [WebhookEventName, WebhookEventName]>;

/** The twin pairs (see {@link TWIN_EVENTS}) that all lie within `events`. */
export function twinPairsIn(events: readonly string[]): Array<readonly [WebhookEventName, WebhookEventName]> {
  return TWIN_EVENTS.filter(([a, b]) => events.includes(a) && events.includes(b));
}
