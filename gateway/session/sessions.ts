import { createHash, randomBytes } from "node:crypto";

import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { SiweMessage } from "siwe";
import { getAddress } from "ethers";

import { ApiError } from "../api/errors.js";
import type { Db } from "../store/db.js";
import { portalSessions, siweNonces } from "../store/schema.js";

/** The portal's sign-in settings (gateway/config.ts `portal`). */
export interface SessionSettings {
  /**
   * The portal's origin, `scheme://host[:port]`: a SIWE message must name its host as `domain` and
   * the origin as `URI`, and a cookie-authenticated write must come from it (`Origin`). Undefined
   * until known (the devnet default is the gateway's own URL, known once it listens).
   */
  origin?: string;
  /** The chain a sign-in message must name (the deployment's primary chain). */
  chainId: number;
  /** Longest session, seconds (the message's expiration shortens it). */
  sessionTtlSeconds: number;
  /** How long an issued nonce may be used, seconds. */
  nonceTtlSeconds: number;
  /** The cookie's `Secure` flag (outside the devnet). */
  secureCookie: boolean;
}

/** A signed-in session as the routes see it. */
export interface PortalSession {
  idHash: string;
  address: string;
  createdAt: number;
  expiresAt: number;
}

export const SESSION_COOKIE = "portal_session";
/** Longest a message may have been issued before it is presented, seconds (clock skew included). */
const MAX_MESSAGE_AGE = 10 * 60;
const now = () => Math.floor(Date.now() / 1000);
const hashOf = (id: string) => createHash("sha256").update(id).digest("hex");

/** Why a sign-in was refused: an `authentication_error` naming the check. */
function refused(reason: string, details: Record<string, unknown> = {}): ApiError {
  return new ApiError("authentication_error", `sign-in refused: ${reason}`, { reason, ...details });
}

/**
 * Sign-In with Ethereum (EIP-4361) and the sessions it opens. Nonces and sessions live in the
 * database: a nonce is deleted as it is used (so a replayed message fails on every instance), and
 * a session row is looked up on every request (so sign-out ends it everywhere at once). The
 * message's domain, URI, chain id and times are checked against configuration, never against the
 * request's `Host`.
 */
export class SessionService {
  constructor(
    private readonly db: Db,
    readonly settings: SessionSettings,
  ) {}

  /** The configured origin; refuses sign-in while none is known. */
  origin(): string {
    if (this.settings.origin === undefined) {
      throw new ApiError("internal_error", "the portal's origin is not configured (GATEWAY_PORTAL_ORIGIN)");
    }
    return this.settings.origin;
  }

  /** The `domain` a message must name: the origin's host and port. */
  domain(): string {
    return new URL(this.origin()).host;
  }

  /** A new single-use nonce (alphanumeric, 128 bits), valid for `nonceTtlSeconds`. */
  async issueNonce(): Promise<{ nonce: string; expires_at: number }> {
    const nonce = randomBytes(16).toString("hex");
    const createdAt = now();
    const expiresAt = createdAt + this.settings.nonceTtlSeconds;
    // expired nonces are dropped as new ones are issued: the table stays the size of a TTL's traffic
    await this.db.delete(siweNonces).where(lt(siweNonces.expiresAt, createdAt));
    await this.db.insert(siweNonces).values({ nonce, createdAt, expiresAt });
    return { nonce, expires_at: expiresAt };
  }

  /**
   * Verifies a signed SIWE message and opens a session for its address. Refused (401) unless the
   * message parses, names the configured domain, URI and chain, carries an expiration in the future
   * and an issue time within the last ten minutes, uses a nonce this gateway issued and nobody has
   * used, and is signed by its address. The nonce is spent before the signature is checked: one try.
   */
  async signIn(message: string, signature: string): Promise<{ id: string; session: PortalSession }> {
    let parsed: SiweMessage;
    try {
      parsed = new SiweMessage(message);
    } catch (error) {
      throw refused("the message is not an EIP-4361 message", {
        parse_error: String((error as Error).message ?? error),
      });
    }
    const domain = this.domain();
    if (parsed.domain !== domain) throw refused("the message is for another domain", { expected: domain });
    if (parsed.uri !== this.origin() && !parsed.uri.startsWith(this.origin() + "/")) {
      throw refused("the message's URI is not the portal's", { expected: this.origin() });
    }
    if (parsed.chainId !== this.settings.chainId) {
      throw refused("the message is for another chain", { expected: this.settings.chainId });
    }
    if (parsed.version !== "1") throw refused("the message's version is not 1");
    const t = now();
    const issuedAt = parsed.issuedAt === undefined ? NaN : Date.parse(parsed.issuedAt) / 1000;
    if (!(issuedAt <= t + 60 && issuedAt >= t - MAX_MESSAGE_AGE)) {
      throw refused("the message was not issued within the last ten minutes");
    }
    const expiration = parsed.expirationTime === undefined ? NaN : Date.parse(parsed.expirationTime) / 1000;
    if (!(expiration > t)) throw refused("the message has no expiration time in the future");
    if (parsed.notBefore !== undefined && Date.parse(parsed.notBefore) / 1000 > t) {
      throw refused("the message is not valid yet");
    }

    // spend the nonce (atomically: of two requests with the same message, one gets the row)
    const [spent] = await this.db
      .delete(siweNonces)
      .where(and(eq(siweNonces.nonce, parsed.nonce), gt(siweNonces.expiresAt, t)))
      .returning({ nonce: siweNonces.nonce });
    if (spent === undefined) throw refused("the nonce is unknown, expired or already used");

    const verified = await parsed.verify(
      { signature, domain, nonce: parsed.nonce, time: new Date(t * 1000).toISOString() },
      { suppressExceptions: true },
    );
    if (!verified.success) {
      throw refused("the signature does not match the message's address", {
        siwe_error: verified.error?.type ?? "unknown",
      });
    }

    const id = randomBytes(32).toString("base64url");
    const session: PortalSession = {
      idHash: hashOf(id),
      address: getAddress(parsed.address),
      createdAt: t,
      expiresAt: Math.min(Math.floor(expiration), t + this.settings.sessionTtlSeconds),
    };
    await this.db.delete(portalSessions).where(lt(portalSessions.expiresAt, t - 86_400));
    await this.db.insert(portalSessions).values({
      idHash: session.idHash,
      address: session.address,
      addressLower: session.address.toLowerCase(),
      createdAt: session.createdAt,
      expiresAt: session.expiresAt,
    });
    return { id, session };
  }

  /** The live session a cookie value names, or undefined (unknown, expired or signed out). */
  async lookup(id: string): Promise<PortalSession | undefined> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
    const [row] = await this.db
      .select()
      .from(portalSessions)
      .where(
        and(
          eq(portalSessions.idHash, hashOf(id)),
          isNull(portalSessions.revokedAt),
          gt(portalSessions.expiresAt, now()),
        ),
      )
      .limit(1);
    return row === undefined
      ? undefined
      : { idHash: row.idHash, address: row.address, createdAt: row.createdAt, expiresAt: row.expiresAt };
  }

  /** Signs a session out (on every instance: the row is what every lookup reads). */
  async revoke(session: PortalSession): Promise<void> {
    await this.db.update(portalSessions).set({ revokedAt: now() }).where(eq(portalSessions.idHash, session.idHash));
  }

  /** Every live session of an address (for tests and operators). */
  async countLive(address: string): Promise<number> {
    const [{ n }] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(portalSessions)
      .where(
        and(
          eq(portalSessions.addressLower, address.toLowerCase()),
          isNull(portalSessions.revokedAt),
          gt(portalSessions.expiresAt, now()),
        ),
      );
    return n;
  }

  /** The `Set-Cookie` options of a session cookie (httpOnly, SameSite=Strict, Secure outside the devnet). */
  cookieOptions(maxAgeSeconds: number) {
    return {
      path: "/",
      httpOnly: true,
      sameSite: "strict" as const,
      secure: this.settings.secureCookie,
      maxAge: maxAgeSeconds,
    };
  }
}
