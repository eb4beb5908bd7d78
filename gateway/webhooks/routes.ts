import type { FastifyInstance, FastifyRequest } from "fastify";

import { ApiError } from "../http/errors.js";
import * as s from "../http/schemas.js";
import { DELIVERY_EVENTS, TEST_EVENT, WEBHOOK_EVENTS } from "./event-names.js";
import { DELIVERY_STATUSES, MAX_URL_LENGTH } from "./subscriptions.js";
import type { CreateSubscription, SubscriptionService } from "./subscriptions.js";

const unix = { type: "integer", description: "Unix seconds" } as const;
const nullableUnix = { type: ["integer", "null"], description: "Unix seconds" } as const;
const id = { type: "string", pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$" } as const;
const eventName = { type: "string", enum: [...WEBHOOK_EVENTS] } as const;
/** A delivery's event: a subscribed one, or the test event. */
const deliveryEvent = {
  type: "string",
  enum: [...DELIVERY_EVENTS],
  description: `a subscribed event, or \`${TEST_EVENT}\` for a test delivery (POST /webhooks/{subscription_id}/test)`,
} as const;
const timestampFormat = {
  type: "string",
  enum: ["unix", "iso8601"],
  description: "payload timestamp: Unix seconds (reference form, default) or ISO 8601 UTC (guide form)",
} as const;

const subscriptionProperties = {
  subscription_id: id,
  url: { type: "string" },
  events: { type: "array", items: eventName },
  timestamp_format: timestampFormat,
  own_events_only: { type: "boolean", description: "only events that involve the key's account" },
  created_at: unix,
  rotated_at: nullableUnix,
};
const subscription = {
  type: "object",
  required: Object.keys(subscriptionProperties),
  additionalProperties: false,
  properties: subscriptionProperties,
} as const;
/** Creation and rotation: the secret, shown this once. */
const subscriptionWithSecret = {
  ...subscription,
  required: [...subscription.required, "secret"],
  properties: {
    ...subscriptionProperties,
    secret: { type: "string", description: "HMAC-SHA256 key of X-SERVICE-Signature; shown only now" },
  },
} as const;

const attemptProperties = {
  attempt: { type: "integer" },
  started_at: unix,
  duration_ms: { type: "integer" },
  status_code: { type: ["integer", "null"] },
  error: { type: ["string", "null"] },
  ok: { type: "boolean" },
};
const deliveryProperties = {
  delivery_id: id,
  event_id: { type: "string" },
  event: deliveryEvent,
  status: { type: "string", enum: [...DELIVERY_STATUSES] },
  attempts: { type: "integer" },
  created_at: unix,
  next_attempt_at: nullableUnix,
  delivered_at: nullableUnix,
  last_status_code: { type: ["integer", "null"] },
  last_error: { type: ["string", "null"] },
  payload: { type: "object", additionalProperties: true, description: "the body sent: {id, event, timestamp, data}" },
  attempt_log: {
    type: "array",
    items: {
      type: "object",
      required: Object.keys(attemptProperties),
      additionalProperties: false,
      properties: attemptProperties,
    },
  },
};
const delivery = {
  type: "object",
  required: Object.keys(deliveryProperties),
  additionalProperties: false,
  properties: deliveryProperties,
} as const;

const createBody = {
  type: "object",
  required: ["url", "events"],
  additionalProperties: false,
  properties: {
    url: { type: "string", minLength: 1, maxLength: MAX_URL_LENGTH, description: "https outside the devnet" },
    events: { type: "array", minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true, items: eventName },
    timestamp_format: timestampFormat,
    own_events_only: { type: "boolean", default: false },
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
  const byId = s.params({ subscription_id: id });

  app.post(
    "/webhooks",
    {
      schema: {
        tags,
        summary: "Subscribe a URL to events (the secret is returned only now)",
        body: createBody,
        response: { 201: s.envelope(subscriptionWithSecret), ...s.errors },
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
        querystring: s.query({ ...s.paging }),
        response: { 200: s.listEnvelope("webhooks", subscription), ...s.errors },
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
        params: byId,
        response: { 200: s.envelope(subscription), ...s.errors },
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
        params: byId,
        response: {
          200: s.envelope({
            type: "object",
            required: ["subscription_id", "deleted"],
            additionalProperties: false,
            properties: { subscription_id: id, deleted: { type: "boolean", const: true } },
          }),
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
        params: byId,
        body: noBody,
        response: { 200: s.envelope(subscriptionWithSecret), ...s.errors },
      },
    },
    async (request) => {
      const { subscription_id } = request.params as { subscription_id: string };
      return ok(await subscriptions.rotate(accountOf(request), subscription_id));
    },
  );
  app.get(
    "/webhooks/:subscription_id/deliveries",
    {
      schema: {
        tags,
        summary: "The subscription's delivery log, newest first, with every attempt",
        params: byId,
        querystring: s.query({ status: { type: "string", enum: [...DELIVERY_STATUSES] }, ...s.paging }),
        response: { 200: s.listEnvelope("deliveries", delivery), ...s.errors },
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
        response: { 202: s.envelope(delivery), ...s.errors },
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
        params: s.params({ subscription_id: id, delivery_id: id }),
        body: noBody,
        response: { 200: s.envelope(delivery), ...s.errors },
      },
    },
    async (request) => {
      const { subscription_id, delivery_id } = request.params as { subscription_id: string; delivery_id: string };
      return ok(await subscriptions.redeliver(accountOf(request), subscription_id, delivery_id));
    },
  );
}
