import { timingSafeEqual } from "node:crypto";

import type { FastifyInstance } from "fastify";

import { ApiError } from "../../api/errors.js";
import type { ReadinessReport } from "../../observability/health.js";
import type { GatewayMetrics } from "../../observability/metrics.js";

export interface ProbeRouteOptions {
  /** What `/health` reports (indexer positions). */
  health: () => Record<string, unknown>;
  /** `/readyz`: whether the gateway should get traffic (none: ready whenever it answers). */
  readiness?: { check(): Promise<ReadinessReport> };
  /** `/metrics` (none: not served). */
  metrics?: GatewayMetrics;
  /** `/metrics` needs `Authorization: Bearer <this>`; without one it is open on the devnet and refused elsewhere. */
  metricsToken?: string;
  /** `devnet`, `testnet` or `mainnet`. */
  environment?: string;
}

/** What operators and load balancers poll, outside the API's prefixes and its document: `/health`, `/livez`, `/readyz`, `/metrics`. */
export async function probeRoutes(app: FastifyInstance, options: ProbeRouteOptions): Promise<void> {
  app.get("/health", { schema: { hide: true }, config: { public: true } }, async () => ({
    success: true,
    data: options.health(),
  }));
  // liveness: the process answers (a load balancer restarts it when it does not)
  app.get("/livez", { schema: { hide: true }, config: { public: true, rateLimit: false } }, async () => ({
    success: true,
    data: { status: "ok" },
  }));
  // readiness: whether to send it traffic (503 with the reasons while not)
  app.get(
    "/readyz",
    { schema: { hide: true }, config: { public: true, rateLimit: false } },
    async (_request, reply) => {
      const report = (await options.readiness?.check()) ?? { ready: true, reasons: [] };
      return reply.code(report.ready ? 200 : 503).send({ success: report.ready, data: report });
    },
  );
  const metrics = options.metrics;
  if (metrics !== undefined) {
    const expected = options.metricsToken === undefined ? undefined : Buffer.from(`Bearer ${options.metricsToken}`);
    app.get(
      "/metrics",
      { schema: { hide: true }, config: { public: true, rateLimit: false } },
      async (request, reply) => {
        if (expected === undefined && options.environment !== undefined && options.environment !== "devnet") {
          throw new ApiError(
            "authorization_error",
            "metrics need a token outside the devnet: set GATEWAY_METRICS_TOKEN",
          );
        }
        if (expected !== undefined) {
          const given = Buffer.from(request.headers.authorization ?? "");
          if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
            throw new ApiError("authentication_error", "the metrics token is missing or wrong");
          }
        }
        const { contentType, body } = await metrics.scrape();
        return reply.type(contentType).send(body);
      },
    );
  }
}
