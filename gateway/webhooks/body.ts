// The exact bytes of a webhook, apart from the outbox (outbox.ts): the subscription service renders
// a test event with it without importing the event mapping and the protocol's contracts.

/** The payload's `timestamp`: Unix seconds (reference form) or ISO 8601 UTC (guide form). */
export type TimestampFormat = "unix" | "iso8601";

/**
 * The exact body of a webhook (what is signed and sent on every attempt): `id`, `fact_id` (the
 * event's id unless it shares a fact with a twin), `event`, `timestamp` (when the fact happened, in
 * the subscription's format) and `data` (gateway/webhooks/catalogue.ts has each event's schema).
 */
export function renderBody(
  event: { id: string; factId?: string; event: string; timestamp: number; data: Record<string, unknown> },
  timestampFormat: TimestampFormat,
): string {
  const timestamp = timestampFormat === "iso8601" ? new Date(event.timestamp * 1000).toISOString() : event.timestamp;
  return JSON.stringify({
    id: event.id,
    fact_id: event.factId ?? event.id,
    event: event.event,
    timestamp,
    data: event.data,
  });
}
