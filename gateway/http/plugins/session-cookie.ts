import type { FastifyReply, FastifyRequest } from "fastify";

import type { ApiKey } from "../../auth/keys.js";
import { TIER_LIMITS } from "../../auth/keys.js";
import { ApiError } from "../../api/errors.js";
import { SESSION_COOKIE } from "../../session/sessions.js";
import type { PortalSession, SessionService } from "../../session/sessions.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The portal session the request was authenticated with (instead of an API key). */
    portalSession?: PortalSession;
  }
}

/** The header every cookie-authenticated write must carry (a cross-site form cannot set it). */
export const CSRF_HEADER = "x-portal-request";
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The session cookie's value in a `Cookie` header, if any. */
export function sessionCookieOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Refuses a state-changing request that a cross-site page could have made with the user's cookie:
 * it must carry {@link CSRF_HEADER} (a form cannot, and a cross-origin `fetch` with it needs a CORS
 * preflight the gateway never grants) and an `Origin` equal to the configured portal origin.
 * SameSite=Strict already keeps the cookie off cross-site requests; this is the second wall.
 */
export function checkCsrf(request: FastifyRequest, sessions: SessionService): void {
  if (SAFE_METHODS.has(request.method)) return;
  if (request.headers[CSRF_HEADER] !== "1") {
    throw new ApiError("authorization_error", `a portal request must carry the ${CSRF_HEADER} header`, {
      reason: "csrf_header_missing",
    });
  }
  const origin = request.headers.origin;
  if (origin !== sessions.origin()) {
    throw new ApiError("authorization_error", "the request's Origin is not the portal's", {
      reason: "origin_mismatch",
      expected: sessions.origin(),
    });
  }
}

/**
 * The credential of a request that has no API key but a session cookie: the session's address as
 * the account, the standard tier's rate limit counted per address (every session of one address
 * shares one budget), the read and write scopes. Undefined without a cookie; a cookie that names no
 * live session, or a write that fails the CSRF checks, is refused.
 */
export async function authenticateSession(
  request: FastifyRequest,
  sessions: SessionService,
): Promise<ApiKey | undefined> {
  const id = sessionCookieOf(request.headers.cookie);
  if (id === undefined || id === "") return undefined;
  const session = await sessions.lookup(id);
  if (session === undefined) {
    throw new ApiError("authentication_error", "the portal session has ended or is not valid: sign in again", {
      reason: "session_ended",
    });
  }
  request.portalSession = session;
  const key: ApiKey = {
    keyId: `session:${session.address.toLowerCase()}`,
    tier: "standard",
    account: session.address,
    scopes: ["read", "write"],
    rateLimit: TIER_LIMITS.standard,
    label: "portal session",
    createdAt: session.createdAt,
    expiresAt: session.expiresAt,
  };
  checkCsrf(request, sessions);
  return key;
}

/** Sets the session cookie (httpOnly, SameSite=Strict, Secure outside the devnet). */
export function setSessionCookie(reply: FastifyReply, sessions: SessionService, id: string, maxAge: number): void {
  const o = sessions.cookieOptions(maxAge);
  reply.header(
    "set-cookie",
    `${SESSION_COOKIE}=${id}; Path=${o.path}; Max-Age=${o.maxAge}; HttpOnly; SameSite=Strict${o.secure ? "; Secure" : ""}`,
  );
}

/** Clears the session cookie. */
export function clearSessionCookie(reply: FastifyReply, sessions: SessionService): void {
  setSessionCookie(reply, sessions, "", 0);
}
