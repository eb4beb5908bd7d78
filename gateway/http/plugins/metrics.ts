import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

import { redactUrl } from "../../observability/log.js";
import type { Logger } from "../../observability/log.js";
import type { GatewayMetrics } from "../../observability/metrics.js";
import type { KeyUsageCounter } from "../../session/usage.js";

export interface RequestMetricsOptions {
  logger: Logger;
  /** Counts every answered request (none: only the log line). */
  metrics?: GatewayMetrics;
  /** Counts each API key's requests (the portal's key list shows them). */
  usage?: KeyUsageCounter;
}

/** Routes a load balancer or a scraper polls: logged at `debug`, never rate limited. */
const PROBES = new Set(["/livez", "/readyz", "/metrics"]);

/**
 * Every answered request: a log line (with its request id, as every line of the request has), the
 * metrics (by the route's pattern, so that ids in paths do not multiply the series) and the key's
 * use. `/metrics` itself is served by routes/probes.ts.
 */
export const requestMetrics = fp(async (app: FastifyInstance, options: RequestMetricsOptions) => {
  const { logger, metrics, usage } = options;
  const infoOn = logger.isLevelEnabled("info");
  const debugOn = logger.isLevelEnabled("debug");
  app.addHook("onResponse", (request, reply, done) => {
    // the key's use, for the portal's key list (a session is no key)
    if (usage !== undefined && request.apiKey !== undefined && request.portalSession === undefined) {
      usage.record(request.apiKey.keyId);
    }
    const route = request.routeOptions.url ?? "(unmatched)";
    const ms = reply.elapsedTime;
    metrics?.request(request.method, route, reply.statusCode, ms / 1000);
    const probe = PROBES.has(route);
    if (probe ? !debugOn : !infoOn) return done();
    const url = redactUrl(request.originalUrl);
    const fields = {
      method: request.method,
      url,
      route,
      statusCode: reply.statusCode,
      responseTime: Math.round(ms * 100) / 100,
      keyId: request.apiKey?.keyId ?? null,
    };
    const message = `${request.method} ${url} ${reply.statusCode} ${ms.toFixed(1)} ms`;
    if (probe) request.log.debug(fields, message);
    else request.log.info(fields, message);
    done();
  });
});
