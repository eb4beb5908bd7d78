import { randomUUID } from "node:crypto";

import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/** The header of every response that names the request (the client's own id when it sent a sane one). */
export const REQUEST_ID_HEADER = "x-request-id";
/** A client-supplied request id the gateway adopts: 1-128 characters, letters, digits and `._:+/=-`. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:+/=-]{1,128}$/;
/**
 * Where a request whose URL cannot be decoded (malformed percent-encoding or UTF-8) is routed, so
 * that it is authenticated, counted and answered like any other request (the router would refuse
 * it before every hook). The route itself is in not-found.ts.
 */
export const MALFORMED_URL_ROUTE = "/__malformed-url";

/** The request's id (Fastify's `genReqId`): the client's `X-Request-Id` when it is sane, a new UUID otherwise. */
export function requestIdOf(request: { headers: Record<string, string | string[] | undefined> }): string {
  const supplied = request.headers[REQUEST_ID_HEADER];
  return typeof supplied === "string" && SANE_REQUEST_ID.test(supplied) ? supplied : randomUUID();
}

/** Fastify's `rewriteUrl`: a URL the router could not decode goes to a route of its own, through every hook. */
export function rewriteMalformedUrl(request: { url?: string }): string {
  const url = request.url ?? "/";
  if (decodablePath(url)) return url;
  const query = url.indexOf("?");
  return MALFORMED_URL_ROUTE + (query === -1 ? "" : url.slice(query));
}

/** Whether the path of a request target decodes (the router refuses one that does not). */
function decodablePath(url: string): boolean {
  // only a percent sign can make decoding fail
  if (!url.includes("%")) return true;
  try {
    decodeURIComponent(url.split("?")[0]);
    return true;
  } catch {
    return false;
  }
}

/** Every response names its request (the request's log lines carry the same id). */
export const requestId = fp(async (app: FastifyInstance) => {
  app.addHook("onRequest", (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
});
