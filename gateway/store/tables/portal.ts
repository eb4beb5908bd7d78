import { bigint, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

/**
 * The portal's session layer (issue 20): Sign-In with Ethereum nonces, sessions, API-key usage
 * counters and the holders' access public keys. Kept in the database, not in one process, so
 * several gateway instances agree (a nonce is used once across all of them; signing out ends a
 * session on every instance). Times are Unix seconds.
 */

const seconds = (name: string) => bigint(name, { mode: "number" });

/** A SIWE nonce the gateway issued: used at most once (deleted when used), void after `expires_at`. */
export const siweNonces = pgTable(
  "siwe_nonces",
  {
    nonce: text("nonce").primaryKey(),
    createdAt: seconds("created_at").notNull(),
    expiresAt: seconds("expires_at").notNull(),
  },
  (t) => [index("siwe_nonces_expiry").on(t.expiresAt)],
);

/**
 * A portal session: the cookie carries a random id, the row is keyed by its SHA-256 (a copy of the
 * table gives no usable cookie). `revoked_at` is set by sign-out.
 */
export const portalSessions = pgTable(
  "portal_sessions",
  {
    idHash: text("id_hash").primaryKey(),
    /** The signed-in address, checksummed. */
    address: text("address").notNull(),
    addressLower: text("address_lower").notNull(),
    createdAt: seconds("created_at").notNull(),
    expiresAt: seconds("expires_at").notNull(),
    revokedAt: seconds("revoked_at"),
  },
  (t) => [index("portal_sessions_address").on(t.addressLower), index("portal_sessions_expiry").on(t.expiresAt)],
);

/**
 * Requests per API key and hour (Unix seconds of the hour's start), with the last request's time:
 * the portal's key list shows "last used" and "requests in the last 24 h" from it. Written in
 * batches (gateway/session/usage.ts), not per request.
 */
export const apiKeyUsage = pgTable(
  "api_key_usage",
  {
    keyId: text("key_id").notNull(),
    hour: seconds("hour").notNull(),
    requests: integer("requests").notNull(),
    lastAt: seconds("last_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.hour] })],
);

/**
 * A holder's X25519 access public key (DESIGN.md 5b), registered from a portal session (the
 * address proved by its SIWE signature): the gateway shows it to the provider of the holder's
 * redemptions, who encrypts the access details to it. Until the redemption manager registers keys
 * on-chain (issue 19), this is the channel the provider trusts.
 */
export const accessPublicKeys = pgTable("access_public_keys", {
  addressLower: text("address_lower").primaryKey(),
  publicKey: text("public_key").notNull(),
  updatedAt: seconds("updated_at").notNull(),
});
