import type { FastifyReply, FastifyRequest } from "fastify";

declare module "fastify" {
  interface FastifyRequest {
    /** `X-RateLimit-Reset` as a Unix time, computed once per request (header and `/me` agree). */
    rateLimitResetAt?: number;
  }
}

/**
 * The request's rate-limit budget as the rate-limit plugin left it in the reply's headers (after
 * counting this request): the limit, what remains, and the reset as Unix seconds (the plugin sends
 * seconds until the reset; the spec wants a Unix time). Null where the plugin set no header (a
 * Redis outage lets requests through uncounted).
 */
export function rateLimitOf(
  request: FastifyRequest,
  reply: FastifyReply,
): { limit: number | null; remaining: number | null; reset: number | null } {
  const untilReset = numberHeader(reply, "x-ratelimit-reset");
  if (untilReset !== null && request.rateLimitResetAt === undefined) {
    request.rateLimitResetAt = Math.floor(Date.now() / 1000) + untilReset;
  }
  return {
    limit: numberHeader(reply, "x-ratelimit-limit"),
    remaining: numberHeader(reply, "x-ratelimit-remaining"),
    reset: request.rateLimitResetAt ?? null,
  };
}

function numberHeader(reply: FastifyReply, name: string): number | null {
  const value = reply.getHeader(name);
  return value === undefined ? null : Number(value);
}
