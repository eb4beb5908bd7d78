import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { Webhook } from "standardwebhooks";

import type { WebhookEvent } from "./api/schemas.js";
import { BaseError, InvalidParameterError } from "./errors.js";

/**
 * Webhook signatures. Every delivery carries two: the spec's `X-SERVICE-Signature` (SPEC.md
 * "Authentication" point 5: the lowercase hex HMAC-SHA256 of the exact body under the subscription's
 * secret), and the Standard Webhooks headers `webhook-id`, `webhook-timestamp` (the attempt's send
 * time) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per valid
 * secret during a rotation), which make a captured delivery useless once it is older than the
 * receiver's tolerance. {@link constructEvent} checks both and returns the typed event.
 * `@noble/hashes` and the `standardwebhooks` library, no Node built-in: the same code signs in the
 * gateway and verifies in any receiver, in Node or in a browser or worker.
 */

/** The header that carries the signature (SPEC.md "Authentication" point 5). */
export const SIGNATURE_HEADER = "x-service-signature";
/** The delivery id: the same on every retry of one delivery, for receivers to deduplicate on. */
export const DELIVERY_HEADER = "x-service-delivery";
/** The webhook event's name. */
export const EVENT_HEADER = "x-service-event";
/** Standard Webhooks: the delivery's id (the same on every attempt; equals {@link DELIVERY_HEADER}). */
export const WEBHOOK_ID_HEADER = "webhook-id";
/** Standard Webhooks: Unix seconds when the attempt was sent. */
export const WEBHOOK_TIMESTAMP_HEADER = "webhook-timestamp";
/** Standard Webhooks: `v1,<base64>` signatures, one per valid secret, separated by spaces. */
export const WEBHOOK_SIGNATURE_HEADER = "webhook-signature";
/** How far a delivery's `webhook-timestamp` may be from the receiver's clock by default: 5 minutes. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

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
  {
    name: "Claimable balances (protocol)",
    events: ["marketplace.claimable_credited", "marketplace.claimable_withdrawn"],
  },
] as const;

/**
 * A webhook body, untyped: the event's id, the fact it announces, its name, time and data. The typed
 * form is {@link WebhookEvent} (what {@link constructEvent} returns).
 */
export interface WebhookPayload {
  id: string;
  fact_id: string;
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
 * Checks a received webhook the spec's way only: `X-SERVICE-Signature` against every secret (several
 * during a rotation, all tried with no early exit, so the time does not tell which one matched), then
 * the body as JSON. It has no freshness check (a captured delivery verifies for ever): prefer
 * {@link constructEvent}, which also checks the Standard Webhooks signature and its timestamp.
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

/** Why {@link constructEvent} refused a delivery. */
export type WebhookVerificationReason =
  "missing_header" | "timestamp_too_old" | "timestamp_too_new" | "invalid_signature" | "invalid_body";

/**
 * A delivery {@link constructEvent} refused, with the reason and the HTTP status a receiver answers
 * (401 for a signature or timestamp that does not check out, 400 for a body that is not an event).
 * The gateway retries a refused delivery, so a receiver whose secret is out of date gets it again.
 */
export class WebhookVerificationError extends BaseError {
  override name = "WebhookVerificationError";
  readonly reason: WebhookVerificationReason;
  readonly status: 400 | 401;

  constructor(reason: WebhookVerificationReason, details: string) {
    super(`Webhook refused: ${reason.replace(/_/g, " ")}.`, { details });
    this.reason = reason;
    this.status = reason === "invalid_body" ? 400 : 401;
  }
}

/** Request headers in any usual form: a fetch `Headers`, a Node headers object, or a lookup. */
export type WebhookHeaders =
  | { get(name: string): string | null }
  | Record<string, string | string[] | undefined>
  | ((name: string) => string | string[] | null | undefined);

export interface ConstructEventOptions {
  /** Seconds a delivery's `webhook-timestamp` may be from now, either way (default 300: 5 minutes). */
  tolerance?: number;
  /** The receiver's clock, Unix seconds (default: now). */
  now?: number;
}

/** The Standard Webhooks signature (`v1,<base64>`) of a delivery under one secret (`whsec_<base64>`). */
export function standardSignature(id: string, timestamp: number, body: string | Uint8Array, secret: string): string {
  let webhook: Webhook;
  try {
    webhook = new Webhook(secret);
  } catch (error) {
    throw new InvalidParameterError("secret", "is not a webhook secret (whsec_ and base64)", { cause: error });
  }
  return webhook.sign(id, new Date(timestamp * 1000), bodyText(body));
}

/**
 * The signature headers of one attempt of a delivery: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature` with a signature under each of `secrets` (the current secret, and the one a
 * rotation replaced while its window lasts), and `X-SERVICE-Signature` under `specSecret` (single
 * valued: the replaced secret during the window, so receivers not yet updated keep verifying).
 */
export function signatureHeaders(delivery: {
  id: string;
  timestamp: number;
  body: string | Uint8Array;
  secrets: readonly string[];
  specSecret: string;
}): Record<string, string> {
  return {
    [WEBHOOK_ID_HEADER]: delivery.id,
    [WEBHOOK_TIMESTAMP_HEADER]: String(delivery.timestamp),
    [WEBHOOK_SIGNATURE_HEADER]: delivery.secrets
      .map((secret) => standardSignature(delivery.id, delivery.timestamp, delivery.body, secret))
      .join(" "),
    [SIGNATURE_HEADER]: signBody(delivery.body, delivery.specSecret),
  };
}

/**
 * A received webhook, verified: the Standard Webhooks signature (`webhook-signature` over
 * `webhook-id`, `webhook-timestamp` and the exact body) under one of `secrets`, the timestamp within
 * `tolerance` of now (a captured delivery replayed later is refused), and `X-SERVICE-Signature`
 * under one of `secrets`; then the body as the typed event, told apart by `event`. Every secret is
 * tried, with no early exit. During a rotation window hold both the old and the new secret (the
 * spec's header is made with the old one until the window ends). Deduplicate on `webhook-id`
 * (retries) and, when subscribed to two events that announce one fact, on the body's `fact_id`.
 *
 * @throws {WebhookVerificationError} naming why (and the status to answer: 401 or 400).
 * @example
 * const event = constructEvent(rawBody, request.headers, [process.env.WEBHOOK_SECRET!], { tolerance: 300 });
 * if (event.event === "redemption.fulfilled") console.log(event.data.access_details);
 */
export function constructEvent(
  rawBody: string | Uint8Array,
  headers: WebhookHeaders,
  secrets: string | readonly string[],
  options: ConstructEventOptions = {},
): WebhookEvent {
  const get = headerLookup(headers);
  const id = get(WEBHOOK_ID_HEADER);
  const timestampText = get(WEBHOOK_TIMESTAMP_HEADER);
  const signatures = get(WEBHOOK_SIGNATURE_HEADER);
  const specSignature = get(SIGNATURE_HEADER);
  for (const [name, value] of [
    [WEBHOOK_ID_HEADER, id],
    [WEBHOOK_TIMESTAMP_HEADER, timestampText],
    [WEBHOOK_SIGNATURE_HEADER, signatures],
    [SIGNATURE_HEADER, specSignature],
  ] as const) {
    if (value === undefined) throw new WebhookVerificationError("missing_header", `no ${name} header`);
  }
  if (!/^\d{1,15}$/.test(timestampText!)) {
    throw new WebhookVerificationError("missing_header", `${WEBHOOK_TIMESTAMP_HEADER} is not Unix seconds`);
  }
  const timestamp = Number(timestampText);
  const tolerance = options.tolerance ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (now - timestamp > tolerance) {
    throw new WebhookVerificationError("timestamp_too_old", `sent ${now - timestamp} s ago; tolerance ${tolerance} s`);
  }
  if (timestamp - now > tolerance) {
    throw new WebhookVerificationError(
      "timestamp_too_new",
      `sent ${timestamp - now} s ahead; tolerance ${tolerance} s`,
    );
  }
  const list = typeof secrets === "string" ? [secrets] : [...secrets];
  const offered = signatures!
    .split(" ")
    .filter((v) => v.startsWith("v1,"))
    .map((v) => utf8ToBytes(v));
  let standard = false;
  let spec = false;
  for (const secret of list) {
    const expected = utf8ToBytes(standardSignature(id!, timestamp, rawBody, secret));
    for (const candidate of offered) standard = constantTimeEqual(expected, candidate) || standard;
    spec = verifySignature(rawBody, specSignature, secret) || spec;
  }
  if (!standard) throw new WebhookVerificationError("invalid_signature", `no ${WEBHOOK_SIGNATURE_HEADER} matches`);
  if (!spec) throw new WebhookVerificationError("invalid_signature", `${SIGNATURE_HEADER} does not match`);
  let event: unknown;
  try {
    event = JSON.parse(bodyText(rawBody));
  } catch {
    throw new WebhookVerificationError("invalid_body", "the body is not JSON");
  }
  const e = event as Partial<WebhookPayload> | null;
  if (e === null || typeof e !== "object" || typeof e.event !== "string" || typeof e.id !== "string") {
    throw new WebhookVerificationError("invalid_body", "the body is not a webhook event");
  }
  return event as WebhookEvent;
}

function headerLookup(headers: WebhookHeaders): (name: string) => string | undefined {
  const raw =
    typeof headers === "function"
      ? headers
      : typeof (headers as { get?: unknown }).get === "function"
        ? (name: string) => (headers as { get(name: string): string | null }).get(name)
        : (name: string) => {
            const record = headers as Record<string, string | string[] | undefined>;
            const key = Object.keys(record).find((k) => k.toLowerCase() === name);
            return key === undefined ? undefined : record[key];
          };
  return (name) => {
    const value = raw(name);
    const single = Array.isArray(value) ? value.join(" ") : value;
    return single === null || single === undefined ? undefined : single;
  };
}

function bodyText(body: string | Uint8Array): string {
  return typeof body === "string" ? body : new TextDecoder().decode(body);
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
