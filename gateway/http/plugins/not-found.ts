import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";

import { ApiError, invalidParameter } from "../../api/errors.js";
import { MALFORMED_URL_ROUTE } from "./request-id.js";

function noRoute(request: FastifyRequest): ApiError {
  const path = request.originalUrl.split("?")[0];
  return new ApiError("resource_not_found", `no route ${request.method} ${path}`, { method: request.method, path });
}

/** An unknown route: `resource_not_found`, counted by the rate limit (registered after it). */
export const notFound = fp(async (app: FastifyInstance) => {
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, async (request, reply) => {
    return reply.code(404).send(noRoute(request).body());
  });
});

/** A request whose URL could not be decoded (rewritten by request-id.ts): authenticated and counted, then refused. */
export const malformedUrls = fp(async (app: FastifyInstance) => {
  app.all(MALFORMED_URL_ROUTE, { schema: { hide: true } }, async (request) => {
    if (request.originalUrl === request.url) throw noRoute(request); // asked for by name: no such route
    throw invalidParameter("url", "the URL is malformed (bad percent-encoding or UTF-8)");
  });
});
