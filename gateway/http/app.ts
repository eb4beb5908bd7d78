import Fastify, { LogController } from "fastify";
import type { FastifyInstance } from "fastify";
import type { Redis } from "ioredis";

import type { Sealer } from "../accounts/sealed.js";
import type { ActivitySource } from "../graphql/schema.js";
import { silentLog } from "../observability/log.js";
import type { Logger } from "../observability/log.js";
import type { ReadinessReport } from "../observability/health.js";
import type { GatewayMetrics } from "../observability/metrics.js";
import type { Instance } from "../store/db.js";
import { DEPRECATED_AT, SUNSET, announceDeprecations } from "./deprecation.js";
import { FREE_TEXT } from "../api/text.js";
import { authentication, authorization } from "./plugins/authentication.js";
import { errorHandling, frameworkErrors } from "./plugins/errors.js";
import { graphql } from "./plugins/graphql.js";
import { idempotency } from "./plugins/idempotency.js";
import { inputGuards } from "./plugins/input-guards.js";
import { requestMetrics } from "./plugins/metrics.js";
import { malformedUrls, notFound } from "./plugins/not-found.js";
import { openApi } from "./plugins/openapi.js";
import { rateLimiting } from "./plugins/rate-limit.js";
import { requestId, requestIdOf, rewriteMalformedUrl } from "./plugins/request-id.js";
import type { ResponseCache } from "./response-cache.js";
import { apiRoutes } from "./routes/index.js";
import type { ApiRouteOptions } from "./routes/index.js";
import { probeRoutes } from "./routes/probes.js";
import { lazySerializers } from "./serializers.js";

export { PREFIXES } from "./routes/index.js";
export { REQUEST_ID_HEADER } from "./plugins/request-id.js";
export { MAX_JSON_DEPTH } from "./plugins/input-guards.js";
export { toApiError } from "./plugins/errors.js";

export interface AppOptions extends ApiRouteOptions {
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
  /** `/readyz`: whether the gateway should get traffic (none: ready whenever it answers). */
  readiness?: { check(): Promise<ReadinessReport> };
  /** Counts every answered request; `/metrics` serves them with the rest of the gateway's. */
  metrics?: GatewayMetrics;
  /**
   * `/metrics` needs `Authorization: Bearer <this>` (`GATEWAY_METRICS_TOKEN`). Without one it is
   * open on the devnet and refused elsewhere.
   */
  metricsToken?: string;
  /** Fastify's logger: a JSON line per answered request and for every internal error (none: silent). */
  logger?: Logger;
  /** Seals secrets at rest (stored idempotent responses) under the gateway's master key. */
  sealer?: Sealer;
  /** This gateway among those sharing the store (a key left pending by a stopped one is abandoned). */
  instance?: Instance;
}

/** Longest path parameter the router takes: beyond any URL Node accepts, so that route schemas refuse long ones. */
const MAX_PARAM_LENGTH = 65_536;

/**
 * The HTTP API: JSON-schema validation on every route, the `{success, data}` envelope, the spec's
 * six error codes for every failure (validation, auth, limits, malformed or oversized bodies, wrong
 * content types, unknown routes, GraphQL), API keys, per-tier rate limits with the spec's headers,
 * GraphQL at `/graphql`, the OpenAPI 3.1 document at `/api/v1/openapi.json` and a docs page at
 * `/docs`. The order of the plugins is the order of their hooks: the request is named, its
 * credential read, counted by the rate limit, then refused or let through.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const logger = options.logger ?? silentLog;
  const app = Fastify({
    loggerInstance: logger,
    // one line per answered request, written by the metrics plugin (Fastify's own pair of lines per
    // request would double the cost and say less)
    logController: new LogController({ disableRequestLogging: true }),
    ...(options.tls === undefined ? {} : { https: options.tls }),
    ...(options.trustedProxies === undefined || options.trustedProxies.length === 0
      ? {}
      : { trustProxy: options.trustedProxies }),
    bodyLimit: options.bodyLimit ?? 64 * 1024,
    return503OnClosing: true,
    requestIdHeader: false,
    genReqId: requestIdOf,
    rewriteUrl: rewriteMalformedUrl,
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
    frameworkErrors,
  }) as unknown as FastifyInstance;

  await app.register(errorHandling);
  await app.register(requestMetrics, { logger, metrics: options.metrics, usage: options.usage });
  await app.register(requestId);
  await app.register(authentication, { keys: options.keys, sessions: options.sessions });
  await app.register(rateLimiting, { redis: options.redis });
  await app.register(authorization, { requireHttps: options.requireHttps });
  await app.register(inputGuards);
  if (options.db !== undefined) {
    await app.register(idempotency, { db: options.db, sealer: options.sealer, instance: options.instance });
  }
  await app.register(notFound);
  await app.register(openApi, { idempotency: options.db !== undefined });
  // a deprecated route, or one that serves a deprecated field, says so in every answer
  announceDeprecations(app);
  options.responseCache?.register(app);
  await app.register(apiRoutes, options);
  await app.register(malformedUrls);
  await app.register(probeRoutes, options);
  await app.register(graphql, { model: options.model, activity: options.activity, logger });
  return app;
}
