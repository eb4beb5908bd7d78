import { randomUUID } from "node:crypto";

import { createSigner, createVerifier } from "fast-jwt";
import { Wallet, getAddress } from "ethers";
import { asc, eq } from "drizzle-orm";

import { ApiError } from "../api/errors.js";
import type { Db } from "../store/db.js";
import { apiKeys } from "../store/schema.js";
import type { ApiKeyRow } from "../store/queries.js";

/** Rate-limit tiers: the spec's reference table, requests per minute (enterprise: set per key). */
export const TIER_LIMITS = { standard: 100, premium: 500, enterprise: 1_000 } as const;
export type Tier = keyof typeof TIER_LIMITS;
export const SCOPES = ["read", "write"] as const;
export type Scope = (typeof SCOPES)[number];

/** What a verified key allows. */
export interface ApiKey {
  keyId: string;
  tier: Tier;
  account: string;
  scopes: Scope[];
  /** Requests per minute. */
  rateLimit: number;
  label: string;
  /** Unix seconds. */
  createdAt: number;
  /** Unix seconds; null: valid until revoked. */
  expiresAt: number | null;
}

export interface CreateKeyOptions {
  /** Default `standard`. */
  tier?: Tier;
  /**
   * The account the key acts for (its balance, its writes, the owner of its webhook
   * subscriptions). Required with the `write` scope; a read-only key without one gets a fresh
   * random account, which owns nothing.
   */
  account?: string;
  scopes?: Scope[];
  label?: string;
  /** Lifetime in seconds; none: valid until revoked. */
  expiresIn?: number;
  /** Enterprise only: requests per minute (default 1000). */
  rateLimit?: number;
}

/** Raised for a bad `keys create` input (or a command's refusal); the message names the option. */
export class KeyInputError extends Error {
  /** The flag at fault without its dashes (`account`), when there is one. */
  constructor(
    message: string,
    readonly flag?: string,
  ) {
    super(message);
  }
}

/**
 * API keys are HS256 JWTs the gateway signs (claims: `jti` key id, `sub` account, `tier`, `scope`,
 * `rl` enterprise limit, `exp` if any). A row per key makes them listable and revocable; a
 * verified key is looked up at most every `cacheMs` (revocation takes effect within that time on
 * other instances, at once on the instance that revoked it).
 */
export class KeyService {
  private readonly sign: (payload: Record<string, unknown>) => string;
  private readonly verify: (token: string) => Record<string, unknown>;
  private readonly cache = new Map<string, { row: ApiKeyRow | undefined; at: number }>();
  /** Tokens authenticated within `cacheMs`, with their key: {@link known} answers them without a promise. */
  private readonly tokens = new Map<string, { key: ApiKey; at: number }>();

  constructor(
    private readonly db: Db,
    secret: string,
    private readonly cacheMs = 2_000,
  ) {
    this.sign = createSigner({ key: secret, algorithm: "HS256" });
    this.verify = createVerifier({ key: secret, algorithms: ["HS256"], cache: 1_000 }) as (
      token: string,
    ) => Record<string, unknown>;
  }

  async create(options: CreateKeyOptions): Promise<{ token: string; key: ApiKeyRow }> {
    const tier = options.tier ?? "standard";
    if (typeof tier !== "string" || !Object.hasOwn(TIER_LIMITS, tier)) {
      throw new KeyInputError(`--tier must be one of ${Object.keys(TIER_LIMITS).join(", ")}`, "tier");
    }
    const scopes = options.scopes ?? ["read"];
    if (!Array.isArray(scopes) || scopes.length === 0) {
      throw new KeyInputError(`--scopes must name at least one of ${SCOPES.join(", ")}`, "scopes");
    }
    for (const scope of scopes) {
      if (!SCOPES.includes(scope)) throw new KeyInputError(`--scopes must be from ${SCOPES.join(", ")}`, "scopes");
    }
    let account: string;
    if (options.account === undefined || options.account === "") {
      // a read-only key needs no account of its own: a fresh one, which owns nothing
      if (scopes.includes("write")) {
        throw new KeyInputError("--account is required for a key with the write scope (writes act for it)", "account");
      }
      account = Wallet.createRandom().address;
    } else {
      try {
        account = getAddress(options.account);
      } catch {
        throw new KeyInputError(`--account must be a chain address, got ${JSON.stringify(options.account)}`, "account");
      }
    }
    if (options.rateLimit !== undefined && tier !== "enterprise") {
      throw new KeyInputError(
        "--rate-limit is for the enterprise tier (the others have the reference limits)",
        "rate-limit",
      );
    }
    if (options.rateLimit !== undefined && !(Number.isInteger(options.rateLimit) && options.rateLimit > 0)) {
      throw new KeyInputError("--rate-limit must be a positive integer (requests per minute)", "rate-limit");
    }
    if (options.expiresIn !== undefined && !(Number.isInteger(options.expiresIn) && options.expiresIn > 0)) {
      throw new KeyInputError("--expires-in must be a positive number of seconds", "expires-in");
    }
    if (options.label !== undefined && typeof options.label !== "string") {
      throw new KeyInputError("--label must be text", "label");
    }
    const now = Math.floor(Date.now() / 1000);
    const row: ApiKeyRow = {
      keyId: randomUUID(),
      tier,
      account,
      scopes: [...new Set(scopes)],
      rateLimit: tier === "enterprise" ? (options.rateLimit ?? TIER_LIMITS.enterprise) : null,
      label: options.label ?? "",
      createdAt: now,
      expiresAt: options.expiresIn === undefined ? null : now + options.expiresIn,
      revokedAt: null,
    };
    await this.db.insert(apiKeys).values(row);
    const token = this.sign({
      jti: row.keyId,
      sub: row.account,
      tier: row.tier,
      scope: row.scopes.join(" "),
      ...(row.rateLimit === null ? {} : { rl: row.rateLimit }),
      iat: now,
      ...(row.expiresAt === null ? {} : { exp: row.expiresAt }),
    });
    return { token, key: row };
  }

  async revoke(keyId: string): Promise<boolean> {
    const updated = await this.db
      .update(apiKeys)
      .set({ revokedAt: Math.floor(Date.now() / 1000) })
      .where(eq(apiKeys.keyId, keyId))
      .returning({ keyId: apiKeys.keyId });
    this.cache.delete(keyId);
    for (const [token, entry] of this.tokens) if (entry.key.keyId === keyId) this.tokens.delete(token);
    return updated.length > 0;
  }

  list(): Promise<ApiKeyRow[]> {
    return this.db.select().from(apiKeys).orderBy(asc(apiKeys.createdAt), asc(apiKeys.keyId));
  }

  /** Verifies a presented token; throws `authentication_error` for a missing, bad, expired or revoked key. */
  async authenticate(token: string | undefined): Promise<ApiKey> {
    if (token === undefined || token === "") {
      throw new ApiError("authentication_error", "an API key is required (Authorization: Bearer <key> or ?api_key=)");
    }
    let claims: Record<string, unknown>;
    try {
      claims = this.verify(token);
    } catch (error) {
      const expired = (error as { code?: string }).code === "FAST_JWT_EXPIRED";
      throw new ApiError("authentication_error", expired ? "the API key has expired" : "the API key is not valid");
    }
    const keyId = typeof claims.jti === "string" ? claims.jti : "";
    const row = await this.lookup(keyId);
    if (row === undefined) throw new ApiError("authentication_error", "the API key is not valid");
    if (row.revokedAt !== null) throw new ApiError("authentication_error", "the API key has been revoked");
    if (row.expiresAt !== null && row.expiresAt <= Date.now() / 1000) {
      throw new ApiError("authentication_error", "the API key has expired");
    }
    const tier = row.tier as Tier;
    const key: ApiKey = {
      keyId: row.keyId,
      tier,
      account: row.account,
      scopes: row.scopes as Scope[],
      rateLimit: row.rateLimit ?? TIER_LIMITS[tier],
      label: row.label,
      createdAt: row.createdAt,
      expiresAt: row.expiresAt,
    };
    if (this.tokens.size > 10_000) this.tokens.clear();
    this.tokens.set(token, { key, at: Date.now() });
    return key;
  }

  /**
   * The key of a token {@link authenticate} accepted less than `cacheMs` ago and that has not
   * expired since; undefined otherwise (then `authenticate` decides). The same freshness as the
   * lookup cache: a revocation on another instance takes effect within that time.
   */
  known(token: string): ApiKey | undefined {
    const entry = this.tokens.get(token);
    if (entry === undefined) return undefined;
    const now = Date.now();
    if (now - entry.at >= this.cacheMs || (entry.key.expiresAt !== null && entry.key.expiresAt <= now / 1000)) {
      this.tokens.delete(token);
      return undefined;
    }
    return entry.key;
  }

  /**
   * A token for the gateway's own `keys` command to manage keys through a running gateway (PGlite
   * lets one process open the data folder): signed with the same secret, scope `admin`, valid for a
   * minute, never stored.
   */
  adminToken(): string {
    const now = Math.floor(Date.now() / 1000);
    return this.sign({ jti: randomUUID(), scope: "admin", iat: now, exp: now + 60 });
  }

  /** Accepts only an {@link adminToken}. */
  authenticateAdmin(token: string | undefined): void {
    let claims: Record<string, unknown>;
    try {
      claims = this.verify(token ?? "");
    } catch {
      throw new ApiError("authentication_error", "the admin token is not valid");
    }
    const now = Date.now() / 1000;
    if (claims.scope !== "admin" || typeof claims.exp !== "number" || claims.exp > now + 120) {
      throw new ApiError("authorization_error", "an admin token is required");
    }
  }

  private async lookup(keyId: string): Promise<ApiKeyRow | undefined> {
    const cached = this.cache.get(keyId);
    if (cached !== undefined && Date.now() - cached.at < this.cacheMs) return cached.row;
    const [row] = keyId === "" ? [] : await this.db.select().from(apiKeys).where(eq(apiKeys.keyId, keyId)).limit(1);
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(keyId, { row, at: Date.now() });
    return row;
  }
}
