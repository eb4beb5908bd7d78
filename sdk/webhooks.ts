import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";

/**
 * Webhook signatures (SPEC.md "Authentication" point 5): the gateway signs every delivery's exact
 * body bytes with HMAC-SHA256 under the subscription's secret and sends the lowercase hex digest in
 * `X-SERVICE-Signature`; a receiver recomputes it over the raw body and compares in constant time.
 * `@noble/hashes`, no Node built-in: the same code signs in the gateway and verifies in any
 * receiver, in Node or in a browser or worker.
 */

/** The header that carries the signature (SPEC.md "Authentication" point 5). */
export const SIGNATURE_HEADER = "x-service-signature";
/** The delivery id: the same on every retry of one delivery, for receivers to deduplicate on. */
export const DELIVERY_HEADER = "x-service-delivery";
/** The webhook event's name. */
export const EVENT_HEADER = "x-service-event";

/**
 * The webhook events by the list that names them (SPEC.md "Webhooks"): the reference list, the
 * integration guide's list (`sstb.minted` and `sstb.redeemed` are in both) and the protocol's own
 * redemption outcomes. The gateway subscribes to their union (`gateway/webhooks/events.ts`; a test
 * keeps the two in step); the portal shows the groups.
 */
export const WEBHOOK_EVENT_GROUPS = [
  {
    name: "Reference list",
    events: [
      "cu.verified",
      "sstb.minted",
      "sstb.redeemed",
      "listing.created",
      "listing.purchased",
      "verification.completed",
      "bridge.message_sent",
      "bridge.message_received",
    ],
  },
  {
    name: "Integration-guide list",
    events: [
      "sstb.minted",
      "sstb.transferred",
      "sstb.redeemed",
      "marketplace.listing_created",
      "marketplace.order_created",
      "marketplace.trade_executed",
      "redemption.initiated",
      "redemption.fulfilled",
      "redemption.confirmed",
    ],
  },
  {
    name: "Redemption outcomes (protocol)",
    events: ["redemption.expired", "redemption.disputed", "redemption.resolved"],
  },
  {
    name: "Leases (protocol)",
    events: [
      "redemption.renewal_offered",
      "redemption.renewed",
      "redemption.terminated",
      "redemption.lease_expiring",
      "redemption.lease_ended",
    ],
  },
] as const;

/** A webhook body: the event's id, name, time and data (the gateway's `webhooks/events.ts`). */
export interface WebhookPayload {
  id: string;
  event: string;
  timestamp: number | string;
  data: Record<string, unknown>;
}

/** A webhook whose signature checked out. */
export interface VerifiedWebhook {
  payload: WebhookPayload;
  /** The delivery id (the same on every retry: deduplicate on it). */
  deliveryId: string;
  event: string;
}

/** Why {@link verifyWebhook} refused a request, with the HTTP status a receiver answers. */
export type WebhookRefusal = { reason: "invalid_signature"; status: 401 } | { reason: "invalid_json"; status: 400 };

/** Lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the subscription's secret (UTF-8). */
export function signBody(body: string | Uint8Array, secret: string): string {
  return bytesToHex(hmac(sha256, utf8ToBytes(secret), bodyBytes(body)));
}

/**
 * Whether `header` is the signature of `rawBody` under `secret`, compared in constant time. The
 * comparison runs on the decoded bytes of equal length; a header of another length or not in
 * lowercase hex is refused before any comparison (its length says nothing about the secret).
 */
export function verifySignature(
  rawBody: string | Uint8Array,
  header: string | string[] | null | undefined,
  secret: string,
): boolean {
  if (typeof header !== "string" || !/^[0-9a-f]{64}$/.test(header)) return false;
  const expected = hmac(sha256, utf8ToBytes(secret), bodyBytes(rawBody));
  return constantTimeEqual(expected, hexToBytes(header));
}

/**
 * Checks a received webhook: the signature against every secret (several during a rotation, all
 * tried with no early exit, so the time does not tell which one matched), then the body as JSON.
 * Framework-free: pass the raw body bytes and a header lookup (`(name) => request.headers[name]`,
 * or `Headers.get` for fetch-style requests); a Node `http` handler built on it is
 * `gateway/webhooks/receiver.ts`.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  header: (name: string) => string | string[] | null | undefined,
  secrets: string | readonly string[],
): { ok: true; webhook: VerifiedWebhook } | ({ ok: false } & WebhookRefusal) {
  const signature = header(SIGNATURE_HEADER);
  const matches = (typeof secrets === "string" ? [secrets] : secrets).map((secret) =>
    verifySignature(rawBody, signature, secret),
  );
  if (!matches.includes(true)) return { ok: false, reason: "invalid_signature", status: 401 };
  let payload: WebhookPayload;
  try {
    payload = JSON.parse(typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody)) as WebhookPayload;
  } catch {
    return { ok: false, reason: "invalid_json", status: 400 };
  }
  const single = (value: string | string[] | null | undefined) => (Array.isArray(value) ? value[0] : value);
  return {
    ok: true,
    webhook: {
      payload,
      deliveryId: String(single(header(DELIVERY_HEADER)) ?? ""),
      event: String(single(header(EVENT_HEADER)) ?? payload.event),
    },
  };
}

/** Whether two byte strings are equal, in time that depends only on their length. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i] ^ b[i];
  return difference === 0;
}

function bodyBytes(body: string | Uint8Array): Uint8Array {
  return typeof body === "string" ? utf8ToBytes(body) : body;
}
