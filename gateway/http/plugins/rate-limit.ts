import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Redis } from "ioredis";

import { ApiError } from "../../api/errors.js";
import { TIER_LIMITS } from "../../auth/keys.js";
import { rateLimitOf } from "../rate-limit-headers.js";

const WINDOW_MS = 60_000;

export interface RateLimitOptions {
  /** Shared counters between instances (none: each instance counts alone). */
  redis?: Redis;
}

/**
 * Per-tier limits with the spec's headers, counted per key (or per address without one): after
 * authentication (authentication.ts) has named the key, before any refusal, so that refusals are
 * counted and carry the headers.
 */
export const rateLimiting = fp(async (app: FastifyInstance, options: RateLimitOptions) => {
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
  // the spec's X-RateLimit-Reset is a Unix time; the plugin sends seconds until the reset
  app.addHook("onSend", (request, reply, payload, done) => {
    const { reset } = rateLimitOf(request, reply);
    if (reset !== null) reply.header("x-ratelimit-reset", reset);
    done(null, payload);
  });
});
