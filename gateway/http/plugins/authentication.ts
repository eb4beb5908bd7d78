import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";

import { ApiError } from "../../api/errors.js";
import type { ApiKey, KeyService, Scope } from "../../auth/keys.js";
import type { SessionService } from "../../session/sessions.js";
import { toApiError } from "./errors.js";
import { isGraphql } from "./graphql.js";
import { authenticateSession } from "./session-cookie.js";

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

export interface AuthenticationOptions {
  keys: KeyService;
  /** Portal sessions: without an API key, the session cookie is the credential. */
  sessions?: SessionService;
}

/**
 * Reads the credential (an API key, or a portal session's cookie) in `onRequest`, before the rate
 * limit counts the request against it; a failure is kept and answered by `authorization` below,
 * after the rate limit has counted the request.
 */
export const authentication = fp(async (app: FastifyInstance, options: AuthenticationOptions) => {
  const authenticate = async (request: FastifyRequest, token: string | undefined) => {
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
      request.authError = toApiError(error, request.log);
    }
  };
  app.addHook("onRequest", (request, _reply, done) => {
    const token = tokenOf(request);
    // a key verified and looked up moments ago needs no promise (most requests of a busy client)
    if (token !== undefined && token !== "" && !isPublic(request)) {
      const known = options.keys.known(token);
      if (known !== undefined) {
        request.apiKey = known;
        return done();
      }
    }
    authenticate(request, token).then(
      () => done(),
      (error: Error) => done(error),
    );
  });
});

export interface AuthorizationOptions {
  /** Refuse a request that did not arrive over HTTPS (directly or through a trusted proxy). */
  requireHttps?: boolean;
}

/** Refuses, in `preParsing` (after the rate limit), a request without HTTPS where it is required, a failed credential, or a key without the route's scope. */
export const authorization = fp(async (app: FastifyInstance, options: AuthorizationOptions) => {
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
  app.addHook("preParsing", (request, _reply, payload, done) => {
    if (request.is404 || isPublic(request)) return done(null, payload);
    if (request.authError !== undefined) return done(request.authError);
    const scope =
      request.routeOptions.config?.scope ?? (request.method === "GET" || isGraphql(request) ? "read" : "write");
    if (request.apiKey !== undefined && scope !== "any" && !request.apiKey.scopes.includes(scope)) {
      return done(new ApiError("authorization_error", `this API key lacks the "${scope}" scope`, { scope }));
    }
    done(null, payload);
  });
});

/** The API key a request presents: the `Authorization: Bearer` header's, or `?api_key=` (removed from the query). */
function tokenOf(request: FastifyRequest): string | undefined {
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
  return token;
}

function isPublic(request: FastifyRequest): boolean {
  return request.routeOptions.config?.public === true || request.url === "/docs" || request.url.startsWith("/docs/");
}
