import type { FastifyInstance, FastifyRequest } from "fastify";
import { and, desc, eq, isNull, sql } from "drizzle-orm";

import { KeyInputError } from "../auth/keys.js";
import type { KeyService, Scope } from "../auth/keys.js";
import { ApiError, invalidParameter, notFound } from "../http/errors.js";
import { component, exampleOf } from "../http/components.js";
import * as s from "../http/schemas.js";
import { FREE_TEXT } from "../http/text.js";
import type { Db } from "../store/db.js";
import { accessPublicKeys, apiKeys } from "../store/schema.js";
import { checkCsrf, clearSessionCookie, setSessionCookie } from "./auth.js";
import type { PortalSession, SessionService } from "./sessions.js";
import type { KeyUsageCounter } from "./usage.js";

export interface SessionRouteOptions {
  sessions: SessionService;
  keys: KeyService;
  usage: KeyUsageCounter;
  db: Db;
}

/** Most API keys an address may hold at once (revoked and expired ones do not count). */
export const MAX_KEYS_PER_ADDRESS = 20;

const unix = s.unix;
const nullableUnix = s.nullableUnix;
const uuid = {
  type: "string",
  pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
  examples: ["0b9f4c7e-5a43-4d2b-9a8e-3f1c2d4e5a6b"],
} as const;
const hex32 = { type: "string", pattern: "^0x[0-9a-fA-F]{64}$" } as const;
const scope = { type: "string", enum: ["read", "write"] } as const;

const sessionSchema = s.object(
  {
    address: { ...s.addressParam, description: "the signed-in address", examples: [s.EXAMPLE.user] },
    created_at: { ...unix, description: "Unix seconds: sign-in" },
    expires_at: { ...unix, description: "Unix seconds: the session ends", examples: [s.EXAMPLE.time + 86_400] },
  },
  "A portal session (Sign-In with Ethereum).",
);
const PortalSession = component("PortalSession", sessionSchema, exampleOf(sessionSchema));
const keyProperties = {
  key_id: { ...uuid, description: "the key's id" },
  label: { type: "string", description: "the label given at creation", examples: ["laptop"] },
  tier: { type: "string", enum: ["standard", "premium", "enterprise"], description: "the rate-limit tier" },
  scopes: { type: "array", items: scope, description: "what the key may do", examples: [["read"]] },
  rate_limit: { type: "integer", description: "requests per minute", examples: [100] },
  created_at: { ...unix, description: "Unix seconds: creation" },
  expires_at: nullableUnix("Unix seconds: expiry; null: until revoked"),
  revoked_at: nullableUnix("Unix seconds: revocation; null: not revoked"),
  last_used_at: nullableUnix("Unix seconds: the last request with it; null: never used"),
  requests_24h: {
    type: "integer",
    description: "requests in the current hour and the 23 before it",
    examples: [42],
  },
};
const keySchema = s.object(keyProperties, "An API key of the signed-in address, and its use.");
const keyExample = { ...(exampleOf(keySchema) as object), revoked_at: null, expires_at: null };
const ApiKey = component("ApiKey", keySchema, keyExample);
const createdKeySchema = s.object(
  {
    ...keyProperties,
    token: {
      type: "string",
      description: "the API key (a JWT): shown only in this answer",
      examples: ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIwYjlmIn0.c2lnbmF0dXJl"],
    },
  },
  "A new API key and its token, shown only in this answer.",
);
const CreatedApiKey = component("CreatedApiKey", createdKeySchema, {
  ...keyExample,
  token: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIwYjlmIn0.c2lnbmF0dXJl",
  last_used_at: null,
  requests_24h: 0,
});
const accessKeySchema = s.object(
  {
    address: { ...s.addressParam, description: "the signed-in address", examples: [s.EXAMPLE.user] },
    public_key: {
      type: ["string", "null"],
      description: "X25519 public key, 32 bytes hex; null before registration",
      examples: ["0x4cfb1d3b2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b"],
    },
    updated_at: nullableUnix("Unix seconds: registration; null before"),
  },
  "The access public key a holder registered in a portal session (what providers encrypt access details to).",
);
const AccessPublicKey = component("AccessPublicKey", accessKeySchema, exampleOf(accessKeySchema));
const nonceSchema = s.object(
  {
    nonce: { type: "string", description: "the single-use nonce", examples: ["k3J9dX2mQ7pL"] },
    expires_at: { ...unix, description: "Unix seconds: the nonce's end", examples: [s.EXAMPLE.time + 300] },
    domain: { type: "string", description: "the message's domain (the portal's host)", examples: ["portal.example"] },
    uri: {
      type: "string",
      description: "the message's URI (the portal's origin)",
      examples: ["https://portal.example"],
    },
    chain_id: { type: "integer", description: "the message's chain id (the primary chain)", examples: [42161] },
  },
  "A Sign-In with Ethereum nonce and what the message must name.",
);
const SignInNonce = component("SignInNonce", nonceSchema, exampleOf(nonceSchema));

const ok = <T>(data: T) => ({ success: true as const, data });

/** The request's session; refuses an API key (key management and sign-out belong to the portal). */
function sessionOf(request: FastifyRequest): PortalSession {
  if (request.portalSession !== undefined) return request.portalSession;
  if (request.apiKey !== undefined) {
    throw new ApiError("authorization_error", "this route takes a portal session, not an API key", {
      reason: "session_required",
    });
  }
  throw new ApiError("authentication_error", "sign in to the portal first", { reason: "no_session" });
}

/**
 * The portal's session routes (issue 20), under both prefixes: Sign-In with Ethereum (a nonce, then
 * the signed message), the session, sign-out, the session's API keys (create: the token is shown
 * once; list with use; revoke) and the holder's access public key. Every other route of the API
 * also accepts the session cookie instead of an API key (gateway/session/auth.ts).
 */
export async function sessionRoutes(app: FastifyInstance, options: SessionRouteOptions): Promise<void> {
  const { sessions, keys, usage, db } = options;
  const tags = ["portal sessions"];
  const config = { public: true };

  app.post(
    "/session/nonce",
    {
      config,
      schema: {
        tags,
        summary: "A single-use nonce for a Sign-In with Ethereum message, and what the message must name",
        description:
          "The first step of signing in: the nonce, domain, URI and chain id the EIP-4361 message must name.",
        body: { type: ["object", "null"], additionalProperties: false, properties: {} },
        response: { 200: s.envelope(SignInNonce, "The nonce"), ...s.errors },
      },
    },
    async () => {
      const { nonce, expires_at } = await sessions.issueNonce();
      return ok({
        nonce,
        expires_at,
        domain: sessions.domain(),
        uri: sessions.origin(),
        chain_id: sessions.settings.chainId,
      });
    },
  );

  app.post(
    "/session",
    {
      config,
      schema: {
        tags,
        summary: "Sign in: a signed EIP-4361 message opens a session (httpOnly, SameSite=Strict cookie)",
        description:
          "Checks the message (domain, URI, chain, nonce, times) and its signature, then sets the session cookie " +
          "that authenticates the portal's requests.",
        body: {
          type: "object",
          required: ["message", "signature"],
          additionalProperties: false,
          properties: {
            // an EIP-4361 message is lines of text: line feeds (and a wallet's CR LF) are its syntax
            message: {
              type: "string",
              minLength: 1,
              maxLength: 4_096,
              [FREE_TEXT]: true,
              description: "the EIP-4361 message, naming a nonce from POST /session/nonce",
            },
            signature: { ...s.signature, description: "the address's signature of the message" },
          },
        },
        response: { 200: s.envelope(PortalSession, "The session (its cookie is set)"), ...s.errors },
      },
    },
    async (request, reply) => {
      checkCsrf(request, sessions); // no cookie yet, but a cross-site page must not sign a user in either
      const { message, signature } = request.body as { message: string; signature: string };
      const { id, session } = await sessions.signIn(message, signature);
      setSessionCookie(reply, sessions, id, session.expiresAt - session.createdAt);
      return ok({ address: session.address, created_at: session.createdAt, expires_at: session.expiresAt });
    },
  );

  app.get(
    "/session",
    {
      schema: {
        tags,
        summary: "The signed-in session",
        description: "The session the cookie names (an API key is refused: this route is the portal's).",
        response: { 200: s.envelope(PortalSession, "The session"), ...s.errors },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      return ok({ address: session.address, created_at: session.createdAt, expires_at: session.expiresAt });
    },
  );

  app.delete(
    "/session",
    {
      schema: {
        tags,
        summary: "Sign out: the session ends on every gateway instance",
        description: "Ends the session and clears its cookie.",
        response: {
          200: s.envelope(
            s.object({ signed_out: { type: "boolean", const: true, description: "always true" } }, "the sign-out"),
            "Signed out",
          ),
          ...s.errors,
        },
      },
    },
    async (request, reply) => {
      await sessions.revoke(sessionOf(request));
      clearSessionCookie(reply, sessions);
      return ok({ signed_out: true as const });
    },
  );

  // --- the session's API keys ---
  const keysOf = async (address: string) => {
    const rows = await db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.account, address))
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.keyId));
    const used = await usage.usageOf(rows.map((r) => r.keyId));
    return rows.map((r) => view(r, used.get(r.keyId)));
  };
  const view = (r: typeof apiKeys.$inferSelect, u: { lastUsedAt: number | null; requests24h: number } | undefined) => ({
    key_id: r.keyId,
    label: r.label,
    tier: r.tier as "standard",
    scopes: r.scopes as Scope[],
    rate_limit: r.rateLimit ?? (r.tier === "premium" ? 500 : 100),
    created_at: r.createdAt,
    expires_at: r.expiresAt,
    revoked_at: r.revokedAt,
    last_used_at: u?.lastUsedAt ?? null,
    requests_24h: u?.requests24h ?? 0,
  });

  app.get(
    "/session/keys",
    {
      schema: {
        tags,
        summary: "The signed-in address's API keys, newest first, with their use",
        description:
          "Every key of the address, revoked and expired ones included, with its last use and request count.",
        response: {
          200: s.envelope(
            s.object(
              {
                keys: { type: "array", items: ApiKey, description: "the keys, newest first" },
                total: { type: "integer", description: "how many", examples: [1] },
              },
              "the address's keys",
            ),
            "The address's API keys",
          ),
          ...s.errors,
        },
      },
    },
    async (request) => {
      const list = await keysOf(sessionOf(request).address);
      return ok({ keys: list, total: list.length });
    },
  );

  app.post(
    "/session/keys",
    {
      schema: {
        tags,
        summary: "Create an API key for the signed-in address (standard tier; the token is shown only now)",
        description: `At most ${MAX_KEYS_PER_ADDRESS} live keys per address. The token is the key: keep it secret.`,
        body: {
          type: "object",
          additionalProperties: false,
          required: ["scopes"],
          properties: {
            label: { type: "string", maxLength: 100, default: "", description: "a label to tell keys apart" },
            scopes: {
              type: "array",
              minItems: 1,
              maxItems: 2,
              uniqueItems: true,
              items: scope,
              description: "`read` (GET and GraphQL), `write` (the other methods)",
            },
            expires_in: {
              type: "integer",
              minimum: 60,
              maximum: 366 * 86_400,
              description: "lifetime in seconds (none: until revoked)",
            },
          },
        },
        response: { 201: s.envelope(CreatedApiKey, "The new key and its token"), ...s.errors },
      },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const body = request.body as { label: string; scopes: Scope[]; expires_in?: number };
      const [{ n }] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(apiKeys)
        .where(
          and(
            eq(apiKeys.account, session.address),
            isNull(apiKeys.revokedAt),
            sql`(${apiKeys.expiresAt} is null or ${apiKeys.expiresAt} > ${Math.floor(Date.now() / 1000)})`,
          ),
        );
      if (n >= MAX_KEYS_PER_ADDRESS) {
        throw invalidParameter("scopes", `an address may hold at most ${MAX_KEYS_PER_ADDRESS} live API keys`);
      }
      try {
        const { token, key } = await keys.create({
          tier: "standard",
          account: session.address,
          scopes: body.scopes,
          label: body.label,
          ...(body.expires_in === undefined ? {} : { expiresIn: body.expires_in }),
        });
        return reply.code(201).send(ok({ ...view(key, undefined), token }));
      } catch (error) {
        if (error instanceof KeyInputError) throw invalidParameter("body", error.message);
        throw error;
      }
    },
  );

  app.delete(
    "/session/keys/:key_id",
    {
      schema: {
        tags,
        summary: "Revoke one of the signed-in address's API keys (refused at once on every instance)",
        description: "Revokes the key (another address's key is not found) and answers it as it now is.",
        params: s.params({ key_id: { ...uuid, description: "the key's id" } }),
        response: { 200: s.envelope(ApiKey, "The revoked key"), ...s.errors },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      const { key_id } = request.params as { key_id: string };
      const [row] = await db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.keyId, key_id), eq(apiKeys.account, session.address)));
      // another address's key is "not found": its existence is not disclosed
      if (row === undefined) throw notFound("API key", key_id);
      if (row.revokedAt === null) await keys.revoke(key_id);
      const [revoked] = (await keysOf(session.address)).filter((k) => k.key_id === key_id);
      return ok(revoked);
    },
  );

  // --- the holder's access public key (DESIGN.md 5b; on-chain registration comes with issue 19) ---
  const accessKeyOf = async (address: string) => {
    const [row] = await db
      .select()
      .from(accessPublicKeys)
      .where(eq(accessPublicKeys.addressLower, address.toLowerCase()));
    return { address, public_key: row?.publicKey ?? null, updated_at: row?.updatedAt ?? null };
  };
  app.get(
    "/session/access-key",
    {
      schema: {
        tags,
        summary: "The signed-in address's access public key (what providers encrypt access details to)",
        description: "The X25519 public key registered in a portal session (the on-chain one is the redemption's).",
        response: { 200: s.envelope(AccessPublicKey, "The access public key"), ...s.errors },
      },
    },
    async (request) => ok(await accessKeyOf(sessionOf(request).address)),
  );
  app.put(
    "/session/access-key",
    {
      schema: {
        tags,
        summary: "Register (or replace) the signed-in address's access public key, derived in the browser",
        description:
          "Stores the key the browser derived from the holder's signature; providers encrypt access details to it.",
        body: {
          type: "object",
          required: ["public_key"],
          additionalProperties: false,
          properties: { public_key: { ...hex32, description: "the X25519 public key, 32 bytes hex" } },
        },
        response: { 200: s.envelope(AccessPublicKey, "The registered key"), ...s.errors },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      const { public_key } = request.body as { public_key: string };
      const row = {
        addressLower: session.address.toLowerCase(),
        publicKey: public_key.toLowerCase(),
        updatedAt: Math.floor(Date.now() / 1000),
      };
      await db
        .insert(accessPublicKeys)
        .values(row)
        .onConflictDoUpdate({
          target: accessPublicKeys.addressLower,
          set: { publicKey: row.publicKey, updatedAt: row.updatedAt },
        });
      return ok(await accessKeyOf(session.address));
    },
  );
}
