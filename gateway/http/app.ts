import { randomUUID } from "node:crypto";

import rateLimit from "@fastify/rate-limit";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import Fastify from "fastify";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { GraphQLFormattedError, SourceLocation } from "graphql";
import type { Redis } from "ioredis";
import mercurius from "mercurius";

import type { ManagedAccounts } from "../accounts/managed.js";
import type { Sealer } from "../accounts/sealed.js";
import type { ApiKey, KeyService, Scope } from "../auth/keys.js";
import { TIER_LIMITS } from "../auth/keys.js";
import { resolvers, typeDefs } from "../graphql/schema.js";
import type { ActivitySource } from "../graphql/schema.js";
import type { Db } from "../store/db.js";
import type { VerificationService } from "../verification/service.js";
import { registerIdempotency } from "../writes/idempotency.js";
import type { WriteService } from "../writes/operations.js";
import { componentSchemas } from "./components.js";
import { DEPRECATED_AT, SUNSET, announceDeprecations } from "./deprecation.js";
import { documentRoute, finishDocument, openApiOptions } from "./document.js";
import { ApiError, ERROR_STATUS, errorSchema, invalidParameter } from "./errors.js";
import type { ErrorCode } from "./errors.js";
import { EXAMPLE, errors as errorResponses } from "./schemas.js";
import { operationIdOf } from "./operations.js";
import { rateLimitOf } from "./rate-limit-headers.js";
import { lazySerializers } from "./serializers.js";
import { FREE_TEXT, textProblemIn } from "./text.js";
import type { ResponseCache } from "./response-cache.js";
import { accountRoutes } from "./routes/account.js";
import { accountAdminRoutes } from "./routes/account-admin.js";
import { adminRoutes } from "./routes/admin.js";
import { readRoutes } from "./routes/read.js";
import type { ReadRouteOptions } from "./routes/read.js";
import { verificationRoutes } from "./routes/verification.js";
import { writeRoutes } from "./routes/write.js";
import { webhookRoutes } from "../webhooks/routes.js";
import type { SubscriptionService } from "../webhooks/subscriptions.js";
import type { DeployedChain } from "@compute-capacity/sdk";
import { portalRoutes } from "../portal/static.js";
import type { PortalRouteOptions } from "../portal/static.js";
import { authenticateSession } from "../session/auth.js";
import { sessionRoutes } from "../session/routes.js";
import type { SessionService } from "../session/sessions.js";
import type { KeyUsageCounter } from "../session/usage.js";
import { accountReadRoutes } from "./routes/account-reads.js";

declare module "fastify" {
  interface FastifyRequest {
    apiKey?: ApiKey;
    authError?: ApiError;
  }
  interface FastifyContextConfig {
    /** Served without an API key (health, OpenAPI document, docs page). */
    public?: boolean;
    /** Scope the route needs (default: `read` for GET, `write` otherwise; `any`: a valid key of either). */
    scope?: Scope | "any";
  }
}

export interface AppOptions extends ReadRouteOptions {
  keys: KeyService;
  activity: ActivitySource;
  /** Shared rate-limit counters between instances. */
  redis?: Redis;
  /** Answers of the read routes until the indexer commits (none: every request queries). */
  responseCache?: ResponseCache;
  /** Serve HTTPS with this PEM certificate and key. */
  tls?: { cert: string; key: string };
  /** TLS-terminating proxies (addresses or CIDRs) whose `X-Forwarded-Proto` and `-For` are believed. */
  trustedProxies?: string[];
  /** Refuse a request that did not arrive over HTTPS (directly or through a trusted proxy). */
  requireHttps?: boolean;
  /** Largest request body, bytes. */
  bodyLimit?: number;
  /** What `/health` reports (indexer positions). */
  health: () => Record<string, unknown>;
  log?: (line: string) => void;
  /** `devnet`, `testnet` or `mainnet`, as `/deployment` shows it. */
  environment?: string;
  /** One line per answered request (its request id, method, path, status, time and key id). */
  requestLog?: (line: string) => void;
  /** The verifier: verification routes (GET always, the writes with verifier keys). */
  verification?: VerificationService;
  /** Seals secrets at rest (stored idempotent responses) under the gateway's master key. */
  sealer?: Sealer;
  /** The store: `Idempotency-Key` records for every POST route. */
  db?: Db;
  /** The write routes' operations (none: the write routes are not served). */
  writes?: WriteService;
  /** Managed accounts, for the `accounts` command through a running gateway. */
  accounts?: ManagedAccounts;
  /** Webhook subscriptions (routes under both prefixes at `/webhooks`). */
  webhooks?: SubscriptionService;
  /** Portal sessions (SIWE): the session routes, and the session cookie as a credential on every route. */
  sessions?: SessionService;
  /** Counts each API key's requests (the portal's key list shows them). */
  usage?: KeyUsageCounter;
  /** The primary chain: the account routes (redemptions of an account, quotes, collateral). */
  primary?: DeployedChain;
  /** The built portal, served at `/portal/`. */
  portal?: PortalRouteOptions;
}

/** The API's two path prefixes: every route answers under both (DESIGN.md section 9). */
export const PREFIXES = ["/api/v1", "/v1"] as const;
/** The header of every response that names the request (the client's own id when it sent a sane one). */
export const REQUEST_ID_HEADER = "x-request-id";
/** A client-supplied request id the gateway adopts: 1-128 characters, letters, digits and `._:+/=-`. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:+/=-]{1,128}$/;
/**
 * Where a request whose URL cannot be decoded (malformed percent-encoding or UTF-8) is routed, so
 * that it is authenticated, counted and answered like any other request (the router would refuse
 * it before every hook).
 */
const MALFORMED_URL_ROUTE = "/__malformed-url";
/** Longest path parameter the router takes: beyond any URL Node accepts, so that route schemas refuse long ones. */
const MAX_PARAM_LENGTH = 65_536;

/** The request's id: the client's `X-Request-Id` when it is sane, a new UUID otherwise. */
function requestIdOf(request: { headers: Record<string, string | string[] | undefined> }): string {
  const supplied = request.headers[REQUEST_ID_HEADER];
  return typeof supplied === "string" && SANE_REQUEST_ID.test(supplied) ? supplied : randomUUID();
}

/** Whether the path of a request target decodes (the router refuses one that does not). */
function decodablePath(url: string): boolean {
  try {
    decodeURIComponent(url.split("?")[0]);
    return true;
  } catch {
    return false;
  }
}

/** The URL as logged: an `api_key` in the query is never written out. */
function loggedUrl(url: string): string {
  return url.replace(/([?&]api_key=)[^&]*/gi, "$1[redacted]");
}
const WINDOW_MS = 60_000;
/** Deepest nesting of arrays and objects a JSON body may have. */
export const MAX_JSON_DEPTH = 32;

/** Whether `value` nests arrays or objects deeper than `limit` (iterative: any depth is safe to ask). */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== "object") continue;
    if (depth + 1 > limit) return true;
    for (const child of Object.values(item as Record<string, unknown>)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * The HTTP API: JSON-schema validation on every route, the `{success, data}` envelope, the spec's
 * six error codes for every failure (validation, auth, limits, malformed or oversized bodies, wrong
 * content types, unknown routes, GraphQL), API keys, per-tier rate limits with the spec's headers,
 * GraphQL at `/graphql`, the OpenAPI 3.1 document at `/api/v1/openapi.json` and a docs page at
 * `/docs`.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const log = options.log ?? (() => {});
  const app = Fastify({
    ...(options.tls === undefined ? {} : { https: options.tls }),
    ...(options.trustedProxies === undefined || options.trustedProxies.length === 0
      ? {}
      : { trustProxy: options.trustedProxies }),
    logger: false,
    bodyLimit: options.bodyLimit ?? 64 * 1024,
    return503OnClosing: true,
    requestIdHeader: false,
    genReqId: requestIdOf,
    // a URL the router could not decode goes to a route of its own, through every hook
    rewriteUrl: (request) => {
      const url = request.url ?? "/";
      if (decodablePath(url)) return url;
      const query = url.indexOf("?");
      return MALFORMED_URL_ROUTE + (query === -1 ? "" : url.slice(query));
    },
    // long path parameters reach their route, whose schema refuses them after authentication and
    // the rate limit (the router's own limit would refuse them before either)
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // response serializers compiled on first use (serializers.ts): start-up stays short
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
    ajv: {
      // FREE_TEXT is an annotation for the control-character check and the document, not a validation
      customOptions: {
        removeAdditional: false,
        coerceTypes: true,
        useDefaults: true,
        allErrors: false,
        keywords: [FREE_TEXT, DEPRECATED_AT, SUNSET],
      },
    },
    // what the rewrite above leaves to the router (an absolute-form target it cannot parse)
    frameworkErrors: (error, request, reply) => {
      const api = invalidParameter("url", error.message.includes("URL") ? "the URL is malformed" : "malformed request");
      void (reply as unknown as FastifyReply)
        .header(REQUEST_ID_HEADER, request.id)
        .code(api.statusCode)
        .send(api.body());
    },
  }) as unknown as FastifyInstance;
  const fail = (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const api = toApiError(error, (line) => log(`request ${request.id}: ${line}`));
    return reply.code(api.statusCode).type("application/json; charset=utf-8").send(api.body());
  };
  app.setErrorHandler((error, request, reply) => fail(error, request, reply));

  // every response names its request; the request log's line for it carries the same id
  app.addHook("onRequest", async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  if (options.requestLog !== undefined) {
    const requestLog = options.requestLog;
    app.addHook("onResponse", async (request, reply) => {
      requestLog(
        `request ${request.id} ${request.method} ${loggedUrl(request.originalUrl)} ${reply.statusCode} ` +
          `${reply.elapsedTime.toFixed(1)} ms key ${request.apiKey?.keyId ?? "-"}`,
      );
    });
  }
  // JSON only: a text/plain body is refused as a wrong content type, not parsed as a string
  app.removeContentTypeParser("text/plain");
  // Fastify's own JSON parser (prototype-poisoning checks included), then a depth limit: a small
  // body nested thousands deep would otherwise overflow the stack of whatever walks it later
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    parseJson(request, body as string, (error: Error | null, value?: unknown) => {
      if (error !== null) return done(error, undefined);
      if (nestedDeeperThan(value, MAX_JSON_DEPTH)) {
        return done(invalidParameter("body", `is nested deeper than ${MAX_JSON_DEPTH} levels`), undefined);
      }
      done(null, value);
    });
  });
  // the named schemas (components.ts): every resource, the error envelope and the webhook events
  for (const schema of componentSchemas()) app.addSchema(schema);

  // --- API keys: read here, refused in preParsing (after the rate limit has counted the request) ---
  app.addHook("onRequest", async (request) => {
    const query = request.query as Record<string, unknown> | undefined;
    let token: string | undefined;
    if (query !== undefined && "api_key" in query) {
      token = typeof query.api_key === "string" ? query.api_key : "";
      delete query.api_key;
    }
    const header = request.headers.authorization;
    if (header !== undefined) {
      const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
      token = bearer === null ? "" : bearer[1];
    }
    if (isPublic(request)) {
      // a route that needs no key (sign-in, health, the document) still counts a request that
      // carries a valid key against that key's limit rather than the caller's address, as any other
      // route does; an unknown key is not an error here and the address is counted instead
      if (token !== undefined && token !== "") {
        request.apiKey = await options.keys.authenticate(token).catch(() => undefined);
      }
      return;
    }
    try {
      // no API key but a portal session cookie: the session's address is the account
      const session =
        token === undefined && options.sessions !== undefined
          ? await authenticateSession(request, options.sessions)
          : undefined;
      request.apiKey = session ?? (await options.keys.authenticate(token));
    } catch (error) {
      request.authError = toApiError(error, log);
    }
  });
  if (options.usage !== undefined) {
    const usage = options.usage;
    app.addHook("onResponse", async (request) => {
      if (request.apiKey !== undefined && request.portalSession === undefined) usage.record(request.apiKey.keyId);
    });
  }

  await app.register(rateLimit, {
    global: true,
    hook: "onRequest",
    // a Redis outage lets requests through rather than failing every one of them
    skipOnError: true,
    timeWindow: WINDOW_MS,
    max: (request: FastifyRequest) => request.apiKey?.rateLimit ?? TIER_LIMITS.standard,
    keyGenerator: (request: FastifyRequest) =>
      request.apiKey === undefined ? `ip:${request.ip}` : `key:${request.apiKey.keyId}`,
    ...(options.redis === undefined ? {} : { redis: options.redis, nameSpace: "gateway-rate-limit:" }),
    errorResponseBuilder: (_request, context) =>
      new ApiError("rate_limit_exceeded", `rate limit of ${context.max} requests per minute exceeded`, {
        limit: context.max,
        retry_after_seconds: Math.ceil(context.ttl / 1000),
      }),
  });

  // "All requests use HTTPS" (after the rate limit has counted the request, so the refusal carries
  // its headers): outside the devnet a request that came over plain HTTP, or through a
  // proxy the gateway does not trust (whose X-Forwarded-Proto is then ignored), is refused
  if (options.requireHttps === true) {
    app.addHook("preParsing", async (request) => {
      if (request.protocol !== "https") {
        throw new ApiError("authorization_error", "HTTPS is required", { protocol: request.protocol });
      }
    });
  }

  app.addHook("preParsing", async (request) => {
    if (request.is404 || isPublic(request)) return;
    if (request.authError !== undefined) throw request.authError;
    const scope =
      request.routeOptions.config?.scope ?? (request.method === "GET" || isGraphql(request) ? "read" : "write");
    if (request.apiKey !== undefined && scope !== "any" && !request.apiKey.scopes.includes(scope)) {
      throw new ApiError("authorization_error", `this API key lacks the "${scope}" scope`, { scope });
    }
  });

  // control characters and lone surrogates in any string of the query, the path or the body (and
  // GraphQL's variables): refused before the schema, the handler or the database sees them
  app.addHook("preValidation", async (request) => {
    const graphql = isGraphql(request);
    const bodySchema = (request.routeOptions.schema as { body?: { properties?: Record<string, object> } } | undefined)
      ?.body;
    const freeBodyFields = new Set(
      graphql
        ? ["query"]
        : Object.entries(bodySchema?.properties ?? {})
            .filter(([, property]) => (property as Record<string, unknown>)[FREE_TEXT] === true)
            .map(([name]) => name),
    );
    let variables: unknown;
    if (graphql && request.method === "GET") {
      const text = (request.query as Record<string, unknown> | undefined)?.variables;
      try {
        variables = typeof text === "string" ? { variables: JSON.parse(text) } : undefined;
      } catch {
        variables = undefined; // not JSON: GraphQL refuses it
      }
    }
    const problem =
      textProblemIn(request.query, graphql ? new Set(["query"]) : undefined) ??
      textProblemIn(request.params) ??
      textProblemIn(request.body, freeBodyFields) ??
      textProblemIn(variables);
    if (problem !== undefined) throw invalidParameter(problem.parameter, problem.reason);
  });

  // Ajv's coercion takes "0x10" for 16 and "1e400" for a non-number without an error: numbers in
  // the query and the path must be written in decimal (integers without a fraction or exponent)
  // and be finite, before the schema checks their range
  app.addHook("preValidation", async (request) => {
    if (isGraphql(request)) {
      // the spec's body: {query: string, variables: object}; anything else never reaches GraphQL
      const body = (request.method === "POST" ? request.body : request.query) as Record<string, unknown> | null;
      if (typeof body !== "object" || body === null || Array.isArray(body)) {
        throw invalidParameter("body", "must be a JSON object with a query string");
      }
      if (typeof body.query !== "string" || body.query.trim() === "")
        throw invalidParameter("query", "must be a GraphQL document");
      const variables = body.variables;
      if (
        request.method === "POST" &&
        variables !== undefined &&
        variables !== null &&
        (typeof variables !== "object" || Array.isArray(variables))
      ) {
        throw invalidParameter("variables", "must be an object");
      }
      return;
    }
    const schema = request.routeOptions.schema as
      | {
          querystring?: { properties?: Record<string, { type?: string }> };
          params?: { properties?: Record<string, { type?: string }> };
        }
      | undefined;
    for (const [values, properties] of [
      [request.query, schema?.querystring?.properties],
      [request.params, schema?.params?.properties],
    ] as const) {
      if (properties === undefined || values === undefined || values === null) continue;
      for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
        const type = properties[name]?.type;
        if (typeof value !== "string" || (type !== "number" && type !== "integer")) continue;
        const decimal = type === "integer" ? /^-?\d+$/ : /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
        if (!decimal.test(value))
          throw invalidParameter(name, `must be ${type === "integer" ? "an integer" : "a number"} in decimal`);
        if (!Number.isFinite(Number(value))) throw invalidParameter(name, "must be a finite number");
      }
    }
  });

  // every POST route registered from here on honours Idempotency-Key
  if (options.db !== undefined) {
    registerIdempotency(app, options.db, options.sealer === undefined ? {} : { sealer: options.sealer });
  }

  // the spec's X-RateLimit-Reset is a Unix time; the plugin sends seconds until the reset
  app.addHook("onSend", async (request, reply, payload) => {
    const { reset } = rateLimitOf(request, reply);
    if (reset !== null) reply.header("x-ratelimit-reset", reset);
    return payload;
  });

  const noRoute = (request: FastifyRequest) => {
    const path = request.originalUrl.split("?")[0];
    return new ApiError("resource_not_found", `no route ${request.method} ${path}`, { method: request.method, path });
  };
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, async (request, reply) => {
    return reply.code(404).send(noRoute(request).body());
  });

  await app.register(swagger, {
    openapi: openApiOptions() as never,
    // the headers each route really uses, in the document only (every POST honours Idempotency-Key
    // when the store is there: the hook is registered below with it)
    transform: documentRoute(options.db !== undefined) as never,
    transformObject: finishDocument as never,
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (json.$id as string | undefined) ?? `def-${i}` },
  });
  await app.register(swaggerUi, { routePrefix: "/docs", uiConfig: { docExpansion: "list" } });

  // a route that takes no query parameters refuses any (an unknown filter is an error, not ignored);
  // every documented operation gets its stable operationId (operations.ts)
  app.addHook("onRoute", (route) => {
    if (route.url === "/graphql") {
      const graphqlFailure = {
        type: "object",
        // request-level failures (auth, limits, malformed documents) also carry the envelope;
        // failures while executing a valid document carry GraphQL's `errors` with the code
        required: ["errors"],
        properties: { ...errorSchema.properties, data: { type: "null" }, errors: graphqlErrors },
      };
      const querystring = (route.schema as { querystring?: { properties?: Record<string, object> } } | undefined)
        ?.querystring;
      route.schema = {
        ...route.schema,
        ...(querystring?.properties === undefined
          ? {}
          : {
              querystring: {
                ...querystring,
                properties: Object.fromEntries(
                  Object.entries(querystring.properties).map(([name, property]) => [
                    name,
                    { ...property, description: GRAPHQL_QUERY_PARAMETERS[name] ?? `GraphQL's \`${name}\`` },
                  ]),
                ),
              },
            }),
        tags: ["graphql"],
        summary: "GraphQL: provider(id), marketplaceActivity(limit) and claimableBalances(account)",
        description:
          "The spec's GraphQL endpoint with the same credentials as the HTTP API: `{query, variables}` as a JSON " +
          "body (POST) or in the query string (GET). Queries only. Amounts are Float whole tokens and, exactly, " +
          "String base units (`…BaseUnits`).",
        ...(route.method === "HEAD" ? {} : { operationId: operationIdOf(route.method as string, route.url) }),
        response: {
          200: {
            type: "object",
            description: "The query's data (and `errors` for the fields that failed)",
            required: ["data"],
            properties: { data: { type: ["object", "null"], additionalProperties: true }, errors: graphqlErrors },
            examples: [{ data: { provider: { id: EXAMPLE.provider, name: "Acme Compute", reputation: 87.5 } } }],
          },
          ...Object.fromEntries(
            (Object.entries(ERROR_STATUS) as Array<[ErrorCode, number]>).map(([code, status]) => [
              status,
              {
                ...graphqlFailure,
                description: `${code}: the request failed before or while running the query`,
                examples: [
                  {
                    ...(errorResponses[status as keyof typeof errorResponses].examples[0] as object),
                    data: null,
                    errors: [{ message: "failed", extensions: { code, details: {} } }],
                  },
                ],
              },
            ]),
          ),
        },
      };
      return;
    }
    const schema = route.schema as { querystring?: unknown; hide?: boolean } | undefined;
    if (schema !== undefined && !schema.hide && schema.querystring === undefined) {
      schema.querystring = { type: "object", additionalProperties: false, properties: {} };
    }
    if (schema !== undefined && !schema.hide && route.method !== "HEAD") {
      // a copy: two routes may share one schema object (/providers and /providers/list do)
      route.schema = { ...schema, operationId: operationIdOf(route.method as string, route.url) };
    }
  });
  // a deprecated route, or one that serves a deprecated field, says so in every answer
  announceDeprecations(app);
  options.responseCache?.register(app);
  for (const prefix of PREFIXES) {
    await app.register(readRoutes, { ...options, prefix });
    await app.register(accountRoutes, {
      chains: options.chains,
      chainLabels: options.chainLabels,
      ...(options.environment === undefined ? {} : { environment: options.environment }),
      prefix,
    });
    if (options.verification) await app.register(verificationRoutes, { verification: options.verification, prefix });
    if (options.writes !== undefined) await app.register(writeRoutes, { writes: options.writes, prefix });
    if (options.webhooks) await app.register(webhookRoutes, { subscriptions: options.webhooks, prefix });
    if (options.sessions !== undefined && options.usage !== undefined && options.db !== undefined) {
      const { sessions, usage, db } = options;
      await app.register(sessionRoutes, { sessions, keys: options.keys, usage, db, prefix });
    }
    if (options.primary !== undefined && options.db !== undefined) {
      await app.register(accountReadRoutes, { db: options.db, primary: options.primary, prefix });
    }
    app.get(`${prefix}/openapi.json`, { schema: { hide: true }, config: { public: true } }, async () => app.swagger());
  }
  if (options.portal !== undefined) await app.register(portalRoutes, options.portal);
  await app.register(adminRoutes, { keys: options.keys });
  await app.register(accountAdminRoutes, {
    keys: options.keys,
    accounts: options.accounts,
    webhooks: options.webhooks,
  });
  // a request whose URL could not be decoded (rewritten here above): authenticated and counted, then refused
  app.all(MALFORMED_URL_ROUTE, { schema: { hide: true } }, async (request) => {
    if (request.originalUrl === request.url) throw noRoute(request); // asked for by name: no such route
    throw invalidParameter("url", "the URL is malformed (bad percent-encoding or UTF-8)");
  });
  app.get("/health", { schema: { hide: true }, config: { public: true } }, async () => ({
    success: true,
    data: options.health(),
  }));

  await app.register(mercurius, {
    schema: typeDefs,
    resolvers: resolvers(options.model, options.activity) as never,
    graphiql: false,
    queryDepth: 8,
    errorHandler: async (error, _request, reply) => {
      const graphqlErrors = error as { code?: string; errors?: Array<{ message: string; locations?: unknown }> };
      const original = graphqlErrors.code === "MER_ERR_GQL_VALIDATION" ? graphqlErrors.errors : undefined;
      const api = Array.isArray(original)
        ? invalidParameter("query", original[0]?.message ?? "invalid GraphQL document")
        : toApiError(error, log);
      // awaited until the response is written: mercurius's async wrapper sends `undefined` a second
      // time when it resolves while the reply is still in its onSend hooks
      await reply.code(api.statusCode).send({
        ...api.body(),
        data: null,
        errors: (original ?? [{ message: api.message }]).map((e) => graphqlError(e, api.code)),
      });
    },
    errorFormatter: (execution) => {
      const errors = (execution.errors ?? []).map((e) => {
        const api = toApiError((e as { originalError?: unknown }).originalError ?? e, log);
        return graphqlError({ message: api.message, locations: e.locations, path: e.path }, api.code, api.details);
      });
      const status = execution.data
        ? 200
        : Math.max(...errors.map((e) => ERROR_STATUS[e.extensions.code as ErrorCode] ?? 500));
      return { statusCode: status, response: { data: execution.data ?? null, errors } };
    },
  });

  return app;
}

/** What the GET form of GraphQL takes in its query string. */
const GRAPHQL_QUERY_PARAMETERS: Record<string, string> = {
  query: "the GraphQL document (queries only)",
  variables: "the variables, as a JSON object",
  operationName: "which operation of the document to run",
  persisted: "not used: the gateway keeps no persisted queries",
  extensions: "GraphQL request extensions, as JSON (not used by the gateway)",
};

/** GraphQL's `errors`, with the API's error code in `extensions.code`. */
const graphqlErrors = {
  type: "array",
  items: {
    type: "object",
    required: ["message", "extensions"],
    properties: {
      message: { type: "string" },
      locations: { type: "array", items: { type: "object", additionalProperties: true } },
      path: { type: "array", items: { type: ["string", "integer"] } },
      extensions: {
        type: "object",
        required: ["code"],
        properties: { code: { type: "string" }, details: { type: "object", additionalProperties: true } },
      },
    },
  },
} as const;

function graphqlError(
  error: { message: string; locations?: unknown; path?: unknown },
  code: string,
  details: Record<string, unknown> = {},
): GraphQLFormattedError & { extensions: { code: string } } {
  return {
    message: error.message,
    ...(error.locations == null ? {} : { locations: error.locations as SourceLocation[] }),
    ...(error.path == null ? {} : { path: error.path as Array<string | number> }),
    extensions: { code, details },
  };
}

function isGraphql(request: FastifyRequest): boolean {
  return request.url === "/graphql" || request.url.startsWith("/graphql?");
}

function isPublic(request: FastifyRequest): boolean {
  return request.routeOptions.config?.public === true || request.url === "/docs" || request.url.startsWith("/docs/");
}

/**
 * Any failure -> one of the six codes. Framework errors keep their meaning but never their shape;
 * anything unexpected is an `internal_error` whose message says nothing about the internals.
 */
export function toApiError(error: unknown, log: (line: string) => void): ApiError {
  if (error instanceof ApiError) return error;
  const e = error as Partial<FastifyError> & {
    validation?: Array<Record<string, unknown>>;
    validationContext?: string;
  };
  if (Array.isArray(e.validation) && e.validation.length > 0) {
    const v = e.validation[0] as { instancePath?: string; message?: string; params?: Record<string, unknown> };
    const fromPath = (v.instancePath ?? "")
      .split("/")
      .filter((p) => p !== "")
      .join(".");
    const parameter =
      (v.params?.additionalProperty as string | undefined) ??
      (v.params?.missingProperty as string | undefined) ??
      (fromPath === "" ? (e.validationContext ?? "request") : fromPath);
    const reason =
      v.params?.additionalProperty !== undefined ? "is not a parameter of this route" : (v.message ?? "is invalid");
    return invalidParameter(parameter, reason);
  }
  switch (e.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return invalidParameter("body", "is larger than the limit");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return invalidParameter("content-type", "must be application/json");
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return invalidParameter("body", "is empty but the content type says JSON");
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return invalidParameter("body", "is not valid JSON");
  }
  const status = typeof e.statusCode === "number" ? e.statusCode : 500;
  if (status === 429) return new ApiError("rate_limit_exceeded", "rate limit exceeded");
  if (status === 404) return new ApiError("resource_not_found", "not found");
  if (status === 413) return invalidParameter("body", "is larger than the limit");
  if (status === 415) return invalidParameter("content-type", "is not supported");
  if (status >= 400 && status < 500) {
    return invalidParameter(
      e instanceof SyntaxError ? "body" : "request",
      e instanceof SyntaxError ? "is not valid JSON" : "is malformed",
    );
  }
  log(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return new ApiError("internal_error", "internal error");
}
