import type { FastifyInstance, FastifyRequest } from "fastify";

import { ApiError } from "../http/errors.js";
import { component, exampleOf } from "../http/components.js";
import * as s from "../http/schemas.js";
import { EVENT_SCHEMAS } from "./catalogue.js";
import { DELIVERY_EVENTS, TEST_EVENT, WEBHOOK_EVENTS } from "./event-names.js";
import { DELIVERY_STATUSES, MAX_ROTATION_WINDOW_SECONDS, MAX_URL_LENGTH } from "./subscriptions.js";
import type { CreateSubscription, SubscriptionService } from "./subscriptions.js";

const unix = { type: "integer", description: "Unix seconds", examples: [s.EXAMPLE.time] } as const;
const nullableUnix = (description: string) =>
  ({ type: ["integer", "null"], description, examples: [s.EXAMPLE.time] }) as const;
const uuidPattern = "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$";
const id = { type: "string", pattern: uuidPattern } as const;
const subscriptionId = {
  ...id,
  description: "the subscription's id",
  examples: ["5d1e7f2a-3b4c-4d5e-8f6a-7b8c9d0e1f2a"],
} as const;
const deliveryId = {
  ...id,
  description: "the delivery's id: `webhook-id` and `X-SERVICE-Delivery` of every attempt",
  examples: ["6f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f"],
} as const;
const eventName = { type: "string", enum: [...WEBHOOK_EVENTS], description: "a webhook event" } as const;
/** A delivery's event: a subscribed one, or the test event. */
const deliveryEvent = {
  type: "string",
  enum: [...DELIVERY_EVENTS],
  description: `a subscribed event, or \`${TEST_EVENT}\` for a test delivery (POST /webhooks/{subscription_id}/test)`,
} as const;
const timestampFormat = {
  type: "string",
  enum: ["unix", "iso8601"],
  description:
    "the body's `timestamp`: Unix seconds (reference form, default) or ISO 8601 UTC (guide form); either way " +
    "when the fact happened, not the send time (that is the `webhook-timestamp` header)",
} as const;

const warning = s.object(
  {
    code: { type: "string", enum: ["twin_events"], description: "`twin_events`: two events announce one fact" },
    events: {
      type: "array",
      items: { type: "string" },
      description: "the events concerned",
      examples: [["listing.created", "marketplace.listing_created"]],
    },
    message: {
      type: "string",
      description: "what to do about it",
      examples: ["listing.created and marketplace.listing_created announce the same fact: keep one per fact_id"],
    },
  },
  "something the subscriber should know about what it asked for",
);

const subscriptionProperties = {
  subscription_id: subscriptionId,
  url: { type: "string", description: "the receiver", examples: ["https://hooks.example.com/compute"] },
  events: { type: "array", items: eventName, description: "the events sent to it", examples: [["sstb.minted"]] },
  timestamp_format: timestampFormat,
  own_events_only: { type: "boolean", description: "only events that involve the key's account" },
  created_at: { ...unix, description: "Unix seconds: creation" },
  rotated_at: nullableUnix("Unix seconds: the last secret rotation; null: never"),
  previous_secret_expires_at: nullableUnix(
    "Unix seconds: until then the secret the last rotation replaced is still valid (deliveries carry a " +
      "signature under each); null: only the current secret is",
  ),
  warnings: {
    type: "array",
    items: warning,
    description:
      "what the subscriber should know: `twin_events` for each pair of subscribed events that announce one fact " +
      "(each is delivered; both carry the same `fact_id`)",
    examples: [[]],
  },
};
const subscriptionSchema = {
  type: "object",
  description: "A webhook subscription of the key's account.",
  required: Object.keys(subscriptionProperties),
  additionalProperties: false,
  properties: subscriptionProperties,
} as const;
const subscriptionExample = { ...(exampleOf(subscriptionSchema) as object), previous_secret_expires_at: null };
const WebhookSubscription = component("WebhookSubscription", subscriptionSchema, subscriptionExample);

/** Creation and rotation: the secret, shown this once. */
const subscriptionWithSecretSchema = {
  ...subscriptionSchema,
  description: "A webhook subscription and its signing secret, shown only in this answer.",
  required: [...subscriptionSchema.required, "secret"],
  properties: {
    ...subscriptionProperties,
    secret: {
      type: "string",
      description:
        "the signing secret (`whsec_` and 64 hex digits), shown only now: the HMAC-SHA256 key of " +
        "X-SERVICE-Signature (its text) and of webhook-signature (as any Standard Webhooks library reads it)",
      examples: ["whsec_" + "3f".repeat(32)],
    },
  },
} as const;
const WebhookSubscriptionWithSecret = component("WebhookSubscriptionWithSecret", subscriptionWithSecretSchema, {
  ...subscriptionExample,
  secret: "whsec_" + "3f".repeat(32),
});

const attemptProperties = {
  attempt: { type: "integer", description: "the attempt's number, from 1", examples: [1] },
  started_at: { ...unix, description: "Unix seconds: when it was sent" },
  duration_ms: { type: "integer", description: "how long the receiver took", examples: [84] },
  status_code: {
    type: ["integer", "null"],
    description: "the receiver's HTTP status; null: no answer",
    examples: [200],
  },
  error: { type: ["string", "null"], description: "why it failed; null: it did not", examples: [null] },
  ok: { type: "boolean", description: "whether the receiver answered 2xx" },
};
const deliveryProperties = {
  delivery_id: deliveryId,
  event_id: {
    type: "string",
    description: "the event's id (the body's `id`)",
    examples: [`42161:${s.EXAMPLE.txHash}:3:sstb.minted`],
  },
  event: deliveryEvent,
  status: {
    type: "string",
    enum: [...DELIVERY_STATUSES],
    description:
      "`pending`: due or being retried; `delivered`; `failed`: the retry window ended; `cancelled`: a reorg removed its event",
  },
  attempts: { type: "integer", description: "attempts so far", examples: [1] },
  created_at: { ...unix, description: "Unix seconds: when it was queued" },
  next_attempt_at: nullableUnix("Unix seconds: the next attempt while pending; null otherwise"),
  delivered_at: nullableUnix("Unix seconds: when the receiver accepted it; null: not yet"),
  last_status_code: { type: ["integer", "null"], description: "the last attempt's HTTP status", examples: [200] },
  last_error: { type: ["string", "null"], description: "the last attempt's error", examples: [null] },
  payload: {
    type: "object",
    additionalProperties: true,
    description: "the body sent, the same on every attempt: a WebhookEvent ({id, fact_id, event, timestamp, data})",
    examples: [exampleOf(EVENT_SCHEMAS["sstb.minted"])],
  },
  attempt_log: {
    type: "array",
    description: "every attempt, oldest first",
    items: {
      type: "object",
      description: "one attempt",
      required: Object.keys(attemptProperties),
      additionalProperties: false,
      properties: attemptProperties,
    },
  },
};
const deliverySchema = {
  type: "object",
  description: "A delivery of one event to one subscription, and its attempts.",
  required: Object.keys(deliveryProperties),
  additionalProperties: false,
  properties: deliveryProperties,
} as const;
const WebhookDelivery = component("WebhookDelivery", deliverySchema, {
  ...(exampleOf(deliverySchema) as object),
  status: "delivered",
  next_attempt_at: null,
});

const createBody = {
  type: "object",
  required: ["url", "events"],
  additionalProperties: false,
  properties: {
    url: {
      type: "string",
      minLength: 1,
      maxLength: MAX_URL_LENGTH,
      description: "the receiver: https outside the devnet, not a private or loopback address",
    },
    events: {
      type: "array",
      minItems: 1,
      maxItems: WEBHOOK_EVENTS.length,
      uniqueItems: true,
      items: eventName,
      description: "the events to send to it",
    },
    timestamp_format: timestampFormat,
    own_events_only: { type: "boolean", default: false, description: "only events that involve the key's account" },
  },
} as const;
/** Routes whose POST takes no body: an empty object at most. */
const noBody = { type: ["object", "null"], additionalProperties: false, properties: {} } as const;

function accountOf(request: FastifyRequest): string {
  if (request.apiKey === undefined) throw new ApiError("authentication_error", "an API key is required");
  return request.apiKey.account;
}

const ok = <T>(data: T) => ({ success: true as const, data });

/**
 * Webhook subscriptions of the API key's account (issue 13, "Webhooks"): create, list, read,
 * delete, rotate the secret, the delivery log and redelivery. Registered under both prefixes.
 */
export async function webhookRoutes(
  app: FastifyInstance,
  options: { subscriptions: SubscriptionService },
): Promise<void> {
  const { subscriptions } = options;
  const tags = ["webhooks"];
  const byId = s.params({ subscription_id: subscriptionId });

  app.post(
    "/webhooks",
    {
      schema: {
        tags,
        summary: "Subscribe a URL to events (the secret is returned only now)",
        description:
          "Every event of the catalogue (the document's `webhooks` section) the subscription names is POSTed to " +
          "the URL, signed with the secret returned here (X-SERVICE-Signature and the Standard Webhooks headers). " +
          "A subscription to two events that announce one fact gets a `twin_events` warning.",
        body: createBody,
        response: { 201: s.envelope(WebhookSubscriptionWithSecret, "The subscription and its secret"), ...s.errors },
      },
    },
    async (request, reply) => {
      const created = await subscriptions.create(accountOf(request), request.body as CreateSubscription);
      return reply.code(201).send(ok(created));
    },
  );
  app.get(
    "/webhooks",
    {
      schema: {
        tags,
        summary: "The key's account's subscriptions",
        description: "The account's subscriptions, oldest first (without their secrets).",
        querystring: s.query({ ...s.paging }),
        response: { 200: s.listEnvelope("webhooks", WebhookSubscription, "A page of subscriptions"), ...s.errors },
      },
    },
    async (request) =>
      ok(await subscriptions.list(accountOf(request), request.query as { page: number; limit: number })),
  );
  app.get(
    "/webhooks/:subscription_id",
    {
      schema: {
        tags,
        summary: "A subscription",
        description: "One of the account's subscriptions (another account's is not found).",
        params: byId,
        response: { 200: s.envelope(WebhookSubscription, "The subscription"), ...s.errors },
      },
    },
    async (request) => {
      const { subscription_id } = request.params as { subscription_id: string };
      return ok(await subscriptions.get(accountOf(request), subscription_id));
    },
  );
  app.delete(
    "/webhooks/:subscription_id",
    {
      schema: {
        tags,
        summary: "Delete a subscription (its pending deliveries are dropped)",
        description: "Nothing more is sent to it; its deliveries and their log are deleted.",
        params: byId,
        response: {
          200: s.envelope(
            s.object(
              {
                subscription_id: subscriptionId,
                deleted: { type: "boolean", const: true, description: "always true" },
              },
              "the deleted subscription",
            ),
            "The deletion",
          ),
          ...s.errors,
        },
      },
    },
    async (request) => {
      const { subscription_id } = request.params as { subscription_id: string };
      return ok(await subscriptions.remove(accountOf(request), subscription_id));
    },
  );
  app.post(
    "/webhooks/:subscription_id/rotate",
    {
      schema: {
        tags,
        summary: "Replace the signing secret (returned only now); later attempts use the new one",
        description:
          "A new secret signs every attempt from now on (retries included). With `previous_secret_valid_for` " +
          "(seconds, up to 86400), the replaced secret stays valid that long: `webhook-signature` carries a " +
          "signature under each, and the single-valued `X-SERVICE-Signature` is made with the replaced one until " +
          "the window ends, so a receiver not yet updated keeps verifying. Without it the replaced secret stops " +
          "at once (what a leaked secret needs). Hold both secrets while the window lasts.",
        params: byId,
        body: {
          type: ["object", "null"],
          additionalProperties: false,
          properties: {
            previous_secret_valid_for: {
              type: "integer",
              minimum: 0,
              maximum: MAX_ROTATION_WINDOW_SECONDS,
              default: 0,
              description: "seconds the replaced secret stays valid (0 to 86400, 24 hours; 0: it stops now)",
            },
          },
        },
        response: {
          200: s.envelope(WebhookSubscriptionWithSecret, "The subscription and its new secret"),
          ...s.errors,
        },
      },
    },
    async (request) => {
      const { subscription_id } = request.params as { subscription_id: string };
      const body = (request.body ?? {}) as { previous_secret_valid_for?: number };
      return ok(await subscriptions.rotate(accountOf(request), subscription_id, body.previous_secret_valid_for ?? 0));
    },
  );
  app.get(
    "/webhooks/:subscription_id/deliveries",
    {
      schema: {
        tags,
        summary: "The subscription's delivery log, newest first, with every attempt",
        description: "Every delivery to the subscription with its body and attempts, filtered by status.",
        params: byId,
        querystring: s.query({
          status: { type: "string", enum: [...DELIVERY_STATUSES], description: "only deliveries in this status" },
          ...s.paging,
        }),
        response: { 200: s.listEnvelope("deliveries", WebhookDelivery, "A page of deliveries"), ...s.errors },
      },
    },
    async (request) => {
      const { subscription_id } = request.params as { subscription_id: string };
      const query = request.query as { page: number; limit: number; status?: string };
      return ok(await subscriptions.deliveries(accountOf(request), subscription_id, query));
    },
  );
  app.post(
    "/webhooks/:subscription_id/test",
    {
      schema: {
        tags,
        summary: `Send a signed ${TEST_EVENT} event to the subscription now, through the normal delivery path`,
        description:
          `Queues a delivery of the event \`${TEST_EVENT}\` (data: \`subscription_id\`, \`url\`, \`events\`, ` +
          "`message`), signed with the subscription's secret like any webhook. It answers at once with the " +
          "queued delivery; its attempts show in the delivery log, and it can be redelivered.",
        params: byId,
        body: noBody,
        response: { 202: s.envelope(WebhookDelivery, "The queued test delivery"), ...s.errors },
      },
    },
    async (request, reply) => {
      const { subscription_id } = request.params as { subscription_id: string };
      return reply.code(202).send(ok(await subscriptions.sendTest(accountOf(request), subscription_id)));
    },
  );
  app.post(
    "/webhooks/:subscription_id/deliveries/:delivery_id/redeliver",
    {
      schema: {
        tags,
        summary: "Send a delivery again now (same delivery id and body)",
        description:
          "Makes a delivery due now with a new retry window: the same delivery id and body (fresh signatures and " +
          "`webhook-timestamp`). Not a cancelled one (its event was reorged out), nor one being sent right now.",
        params: s.params({ subscription_id: subscriptionId, delivery_id: deliveryId }),
        body: noBody,
        response: { 200: s.envelope(WebhookDelivery, "The delivery, due now"), ...s.errors },
      },
    },
    async (request) => {
      const { subscription_id, delivery_id } = request.params as { subscription_id: string; delivery_id: string };
      return ok(await subscriptions.redeliver(accountOf(request), subscription_id, delivery_id));
    },
  );
}
