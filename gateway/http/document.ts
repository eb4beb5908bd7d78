/**
 * What the OpenAPI document says beyond the route schemas: its info (the gateway's release), tags,
 * security schemes, the event catalogue (`webhooks`), and, per operation, the request and response
 * headers the gateway really uses (added to the document only: validation and serialization use the
 * route schemas as they are).
 */
import { refId } from "./components.js";
import { ERROR_STATUS } from "./errors.js";
import { deprecationOf } from "./deprecation.js";
import { GATEWAY_VERSION } from "../version.js";
import { webhooksSection } from "../webhooks/catalogue.js";

type Schema = Record<string, unknown>;

/** The document's tags, in the order the docs page shows them. */
export const TAGS = [
  { name: "compute units", description: "Verified compute units (the short set calls them compute resources)" },
  { name: "providers", description: "Compute providers, their hardware, statistics and collateral" },
  { name: "marketplace", description: "Positions of the spot, futures and options markets, and claimable payments" },
  { name: "redemptions", description: "Redeeming sSTB for compute: initiate, confirm, dispute, and their status" },
  { name: "sSTB", description: "The key's account's sSTB: balance and transfers" },
  { name: "verification", description: "Hardware verification: signed benchmark reports and their attestations" },
  { name: "bridge", description: "Cross-chain transfers: chains, fees and the status of a transfer" },
  { name: "webhooks", description: "Subscriptions: signed event deliveries to the key's account's receivers" },
  { name: "account", description: "The calling API key and the deployment it serves" },
  { name: "portal sessions", description: "Sign-In with Ethereum for the portal, and the session's API keys" },
  { name: "graphql", description: "GraphQL: provider(id), marketplaceActivity(limit) and claimableBalances" },
  {
    name: "webhook events",
    description:
      "The events the gateway POSTs to subscribed receivers (the `webhooks` section): one schema per event, " +
      "signed with X-SERVICE-Signature and the Standard Webhooks headers",
  },
];

export const DOCUMENT_DESCRIPTION =
  "HTTP API of the compute-capacity protocol. Every route answers under both prefixes: /api/v1 (the " +
  "reference set) and /v1 (the short set); an operation under /v1 has the operationId of its /api/v1 twin " +
  "with the suffix `Short`.\n\n" +
  "**Answers**: `{success: true, data}`; failures `{success: false, error: {code, message, details}}` with the " +
  "spec's six codes. Every response carries X-Request-Id (a sane client-supplied one is kept) and " +
  "X-RateLimit-Limit, -Remaining and -Reset (Unix seconds); a 429 also Retry-After.\n\n" +
  "**Amounts**: the spec's fields are JSON numbers of whole tokens (doubles); every amount `x` also comes as " +
  "`x_base_units`, the exact integer in the token's base units as a decimal string (18 decimals for sSTB and " +
  "STBGOV, 6 for USDC). Writes take either form. Times are Unix seconds.\n\n" +
  "**Writes**: every POST honours `Idempotency-Key` (a retry with the same key and request gets the stored " +
  "answer, marked `Idempotent-Replayed: true`).\n\n" +
  "**Versions**: `info.version` is the gateway's release; the changelog and the deprecation policy are in " +
  "docs/api-changelog.md. A deprecated route or field keeps working until its sunset; its answers carry " +
  "`Deprecation` and `Sunset`.\n\n" +
  "**Webhooks**: the `webhooks` section lists every event and its body.\n\n" +
  "No string parameter may hold a control character (U+0000-U+001F, U+007F-U+009F); fields marked " +
  "x-free-text may hold tab, line feed and carriage return.";

/** The `openapi` options of @fastify/swagger (app.ts registers it with them). */
export function openApiOptions() {
  return {
    openapi: "3.1.0",
    info: {
      title: "Compute capacity gateway",
      version: GATEWAY_VERSION,
      description: DOCUMENT_DESCRIPTION,
      license: { name: "MIT", identifier: "MIT" },
    },
    // relative: the gateway that serves this document
    servers: [{ url: "/", description: "the gateway serving this document" }],
    tags: TAGS,
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "An API key: `Authorization: Bearer <API_KEY>`",
        },
        apiKey: {
          type: "apiKey",
          in: "query",
          name: "api_key",
          description: "An API key in the query (`?api_key=`): for testing only",
        },
        portalSession: {
          type: "apiKey",
          in: "cookie",
          name: "portal_session",
          description:
            "The portal's session cookie (Sign-In with Ethereum); writes with it must carry `X-Portal-Request: 1`",
        },
      },
    },
    security: [{ bearer: [] }, { apiKey: [] }, { portalSession: [] }],
    webhooks: webhooksSection(),
  } as const;
}

/**
 * @fastify/swagger's `transformObject`: the finished document. A delivery's `payload` is served as
 * any object (a body queued by an older release may lack a field of today's catalogue), and shown
 * as what deliveries queued now hold: a {@link WebhookEvent}.
 */
export function finishDocument({ openapiObject }: { openapiObject: Record<string, unknown> }) {
  const components = openapiObject.components as { schemas: Record<string, Schema>; headers?: Record<string, Schema> };
  // the response headers the operations share, written once under components.headers
  const used = new Set<string>();
  for (const item of Object.values((openapiObject.paths ?? {}) as Record<string, Record<string, Schema>>)) {
    for (const operation of Object.values(item)) {
      for (const response of Object.values((operation.responses ?? {}) as Record<string, Schema>)) {
        const headers = response.headers as Record<string, Schema> | undefined;
        if (headers === undefined) continue;
        for (const name of Object.keys(headers)) {
          if (!(name in SHARED_HEADERS)) continue;
          headers[name] = { $ref: `#/components/headers/${name}` };
          used.add(name);
        }
      }
    }
  }
  components.headers = Object.fromEntries(
    Object.entries(SHARED_HEADERS)
      .filter(([name]) => used.has(name))
      .map(([name, schema]) => {
        const { description, ...rest } = schema;
        return [name, { description, schema: rest }];
      }),
  );
  const schemas = components.schemas;
  const delivery = schemas.WebhookDelivery as { properties: Record<string, Schema> } | undefined;
  if (delivery !== undefined) {
    const { description, examples } = delivery.properties.payload;
    delivery.properties.payload = { $ref: "#/components/schemas/WebhookEvent", description, examples };
  }
  return openapiObject;
}

/** Headers of every response. */
const COMMON_RESPONSE_HEADERS: Record<string, Schema> = {
  "X-Request-Id": {
    type: "string",
    description: "the request's id: the client's own X-Request-Id when it sent a sane one, else a new UUID",
  },
  "X-RateLimit-Limit": {
    type: "integer",
    description: "requests per minute of the key's tier (of the caller's address without a key)",
  },
  "X-RateLimit-Remaining": { type: "integer", description: "requests left in the current minute" },
  "X-RateLimit-Reset": { type: "integer", description: "Unix seconds when the current minute's budget resets" },
};
const RETRY_AFTER: Schema = { type: "integer", description: "seconds until a request may succeed again" };
const REPLAYED: Schema = {
  type: "string",
  enum: ["true"],
  description:
    "present (`true`) when this answer is the stored one of an earlier request with the same Idempotency-Key",
};
const DEPRECATION_HEADERS: Record<string, Schema> = {
  Deprecation: {
    type: "string",
    description: "RFC 9745: `@<Unix seconds>` of the deprecation's announcement (docs/api-changelog.md)",
  },
  Sunset: { type: "string", description: "RFC 8594: the HTTP date from which the deprecated part may be removed" },
};

/** The response headers written once under `components.headers` and referenced by every response. */
const SHARED_HEADERS: Record<string, Schema> = {
  ...COMMON_RESPONSE_HEADERS,
  "Retry-After": RETRY_AFTER,
  "Idempotent-Replayed": REPLAYED,
  ...DEPRECATION_HEADERS,
};

const REQUEST_ID: Schema = {
  type: "string",
  description:
    "optional: an id for this request (1-128 of letters, digits and `._:+/=-`), echoed in the answer's " +
    "X-Request-Id and the gateway's log; anything else is replaced by a new UUID",
};
const IDEMPOTENCY_KEY: Schema = {
  type: "string",
  minLength: 1,
  maxLength: 255,
  pattern: "^[\\x21-\\x7e]+$",
  description:
    "optional: 1-255 visible ASCII characters naming this request, scoped to the key's account and kept 24 hours. " +
    "A retry with the same key and the same request gets the first answer again (`Idempotent-Replayed: true`) " +
    "without running twice; while the first still runs, it waits for it. The same key with another request is " +
    "refused (invalid_parameter).",
};

/** What the gateway knows about a route when the document is built. */
interface RouteFacts {
  method: string | string[];
  url: string;
  config?: { public?: boolean; idempotency?: boolean };
}

/**
 * @fastify/swagger's `transform`: a route's schema as the document shows it. Adds the X-Request-Id
 * request header everywhere, Idempotency-Key on every POST that honours it (`idempotency`: the
 * gateway registered the hook), the response headers each answer carries (X-Request-Id and the
 * rate-limit headers on all, Retry-After on 429, Idempotent-Replayed on the successes of those
 * POSTs, Deprecation and Sunset where something served is deprecated), no security on public
 * routes.
 */
export function documentRoute(idempotency: boolean) {
  return ({ schema, url, route }: { schema: Schema | undefined; url: string; route: RouteFacts }) => {
    if (schema === undefined || schema.hide === true) return { schema, url };
    const method = Array.isArray(route.method) ? route.method[0] : route.method;
    // GraphQL serves queries only: its POST has nothing to deduplicate (writes/idempotency.ts)
    const honoursKey = idempotency && method === "POST" && route.config?.idempotency !== false && url !== "/graphql";
    const deprecation = deprecationOf(schema);
    const requestHeaders = (schema.headers ?? { type: "object", properties: {} }) as Schema;
    const responses = Object.fromEntries(
      Object.entries((schema.response ?? {}) as Record<string, Schema>).map(([status, response]) => {
        const headers: Record<string, Schema> = { ...COMMON_RESPONSE_HEADERS };
        if (status === String(ERROR_STATUS.rate_limit_exceeded)) headers["Retry-After"] = RETRY_AFTER;
        if (honoursKey && status.startsWith("2")) headers["Idempotent-Replayed"] = REPLAYED;
        if (deprecation !== undefined) Object.assign(headers, DEPRECATION_HEADERS);
        const allHeaders = { ...((response.headers ?? {}) as Schema), ...headers };
        // a response that is a bare `$ref` (the error envelope) loses its siblings when resolved:
        // give its content as the document writes it, with the example
        const id = refId(response);
        if (id !== undefined) {
          const { description, examples } = response as { description?: string; examples?: unknown[] };
          const media = {
            schema: { $ref: `#/components/schemas/${id}` },
            ...(examples === undefined ? {} : { example: examples[0] }),
          };
          return [status, { description, headers: allHeaders, content: { "application/json": media } }];
        }
        return [status, { ...response, headers: allHeaders }];
      }),
    );
    return {
      url,
      schema: {
        ...schema,
        headers: {
          ...requestHeaders,
          properties: {
            ...((requestHeaders.properties ?? {}) as Schema),
            "X-Request-Id": REQUEST_ID,
            ...(honoursKey ? { "Idempotency-Key": IDEMPOTENCY_KEY } : {}),
          },
        },
        response: responses,
        ...(route.config?.public === true ? { security: [] } : {}),
      },
    };
  };
}
