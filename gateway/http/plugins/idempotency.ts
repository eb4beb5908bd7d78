import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";

import { and, eq, lte } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";

import type { Sealer } from "../../accounts/sealed.js";
import { ApiError, invalidParameter } from "../../api/errors.js";
import type { Db, Instance } from "../../store/db.js";
import { idempotencyKeys } from "../../store/schema.js";
import { canonicalJson } from "../../writes/canonical.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** `false`: the route ignores `Idempotency-Key` (every POST honours it by default). */
    idempotency?: boolean;
  }
  interface FastifyRequest {
    /** The key this request holds (it runs first with that key); its response is stored. */
    idempotencyClaim?: { account: string; key: string };
  }
}

export interface IdempotencyOptions {
  /** How long a key and its stored response are kept (default 24 h). */
  ttlSeconds?: number;
  /** How long a retry waits for the first request with its key to finish (default 120 s). */
  waitMs?: number;
  /**
   * Seals stored responses with the gateway's master key (some carry secrets: a webhook
   * subscription's is shown at creation and rotation only, and a replay must show it again).
   */
  sealer?: Sealer;
  /**
   * This gateway among those sharing the database: a key being processed names its instance, and a
   * retry finds out when that instance stopped without answering (the key is then abandoned).
   */
  instance?: Instance;
}

export const IDEMPOTENCY_HEADER = "idempotency-key";
/** A key's state while its first request runs (`pending:<instance id>` when the instance is known). */
const PENDING = "pending";
/** A key whose first request's gateway stopped before answering. */
const ABANDONED = "abandoned";
const DEFAULT_TTL_SECONDS = 86_400;
const POLL_MS = 50;

/**
 * `Idempotency-Key` for every POST route of `app` registered after this call (a route opts out
 * with `config: { idempotency: false }`). Keys are scoped to the API key's account. The first
 * request with a key claims it (an insert that only one of concurrent requests wins) and runs;
 * its response (status and body, errors included) is stored when it is sent. A retry with the same
 * key and the same request (method, path, query and body, compared by hash) gets that response
 * back without running again; while the first still runs, the retry waits for it. The same key
 * with another request is refused with `invalid_parameter`. Requests refused before the handler
 * (authentication, validation) never claim a key. A key whose first request was being processed by a
 * gateway that stopped (killed, crashed) before answering is abandoned: its outcome is unknown (a
 * transaction may have been sent), so a retry with it is refused, saying so, and never runs it again.
 */
export function registerIdempotency(app: FastifyInstance, db: Db, options: IdempotencyOptions = {}): void {
  const ttl = options.ttlSeconds ?? DEFAULT_TTL_SECONDS;
  const waitMs = options.waitMs ?? 120_000;
  const pending = options.instance === undefined ? PENDING : `${PENDING}:${options.instance.id}`;

  // expired keys are removed hourly (a retry after expiry claims the key again in any case)
  const purge = setInterval(() => void purgeExpiredKeys(db).catch(() => {}), 3_600_000).unref();
  app.addHook("onClose", async () => clearInterval(purge));

  // the hooks are the POST routes' own (a GET pays nothing for them), first among the route's hooks
  // as they were among the app's
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes("POST") || route.config?.idempotency === false) return;
    route.preHandler = [claim, ...asArray(route.preHandler)];
    route.onSend = [store, ...asArray(route.onSend)];
  });

  async function claim(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    // a route of several methods has the hooks for all of them (the opted-out ones have none)
    if (request.method !== "POST") return;
    // GraphQL serves queries only (reads): nothing to deduplicate
    if (request.routeOptions.url === "/graphql") return;
    const header = request.headers[IDEMPOTENCY_HEADER];
    if (header === undefined) return;
    if (typeof header !== "string" || !/^[\x21-\x7e]{1,255}$/.test(header)) {
      throw invalidParameter("Idempotency-Key", "must be 1 to 255 visible ASCII characters");
    }
    const account = request.apiKey?.account;
    if (account === undefined) return; // public routes have no account to scope the key to
    const requestHash = hashOf(request);
    const deadline = Date.now() + waitMs;
    for (;;) {
      const now = Math.floor(Date.now() / 1000);
      const claimed = await db
        .insert(idempotencyKeys)
        .values({ account, key: header, requestHash, state: pending, createdAt: now, expiresAt: now + ttl })
        .onConflictDoNothing()
        .returning({ key: idempotencyKeys.key });
      if (claimed.length > 0) {
        request.idempotencyClaim = { account, key: header };
        return;
      }
      const where = and(eq(idempotencyKeys.account, account), eq(idempotencyKeys.key, header));
      const [row] = await db.select().from(idempotencyKeys).where(where).limit(1);
      if (row === undefined) continue; // expired and removed meanwhile: claim it
      if (row.expiresAt <= now) {
        await db.delete(idempotencyKeys).where(and(where, lte(idempotencyKeys.expiresAt, now)));
        continue;
      }
      if (row.requestHash !== requestHash) {
        throw invalidParameter("Idempotency-Key", "was already used with a different request");
      }
      if (row.state === "done") {
        const stored = row.response ?? "";
        const body = stored.startsWith("v1.") ? options.sealer!.open(stored, aad(account, header)).toString() : stored;
        return replay(reply, row.statusCode ?? 200, body);
      }
      if (row.state === ABANDONED || (await ownerStopped(row.state))) {
        await db
          .update(idempotencyKeys)
          .set({ state: ABANDONED })
          .where(and(where, eq(idempotencyKeys.state, row.state)));
        throw new ApiError(
          "invalid_parameter",
          "invalid Idempotency-Key: the gateway that processed the first request with this key stopped before " +
            "answering, so its outcome is unknown (a transaction may have been sent); check, then retry with a new key",
          { parameter: "Idempotency-Key", reason: "abandoned", state: ABANDONED },
        );
      }
      if (Date.now() >= deadline) {
        throw new ApiError(
          "invalid_parameter",
          "invalid Idempotency-Key: the first request with this key is still being processed",
          { parameter: "Idempotency-Key", reason: "still being processed", state: "pending" },
        );
      }
      await sleep(POLL_MS);
    }
  }

  /** Whether a pending key's owner (`pending:<instance>`) has stopped. */
  async function ownerStopped(state: string): Promise<boolean> {
    const owner = state.startsWith(`${PENDING}:`) ? Number(state.slice(PENDING.length + 1)) : undefined;
    if (owner === undefined || options.instance === undefined || !Number.isSafeInteger(owner)) return false;
    return !(await options.instance.alive(owner));
  }

  async function store(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
    const claim = request.idempotencyClaim;
    if (claim === undefined) return payload;
    request.idempotencyClaim = undefined;
    const text = typeof payload === "string" ? payload : "";
    const response =
      options.sealer === undefined ? text : options.sealer.seal(Buffer.from(text), aad(claim.account, claim.key));
    await db
      .update(idempotencyKeys)
      .set({ state: "done", statusCode: reply.statusCode, response })
      .where(
        and(
          eq(idempotencyKeys.account, claim.account),
          eq(idempotencyKeys.key, claim.key),
          eq(idempotencyKeys.state, pending),
        ),
      );
    return payload;
  }
}

/** A route's hooks of one kind as an array (Fastify takes one function or several). */
function asArray<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}

/** Deletes expired keys; returns how many. */
export async function purgeExpiredKeys(db: Db, now = Math.floor(Date.now() / 1000)): Promise<number> {
  const removed = await db
    .delete(idempotencyKeys)
    .where(lte(idempotencyKeys.expiresAt, now))
    .returning({ key: idempotencyKeys.key });
  return removed.length;
}

/** A sealed response opens only under its own account and key. */
const aad = (account: string, key: string) => `idempotency:${account.toLowerCase()}:${key}`;

function hashOf(request: FastifyRequest): string {
  const path = request.url.split("?")[0];
  return createHash("sha256")
    .update(`${request.method} ${path}\n${canonicalJson(request.query ?? {})}\n${canonicalJson(request.body ?? null)}`)
    .digest("hex");
}

function replay(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply
    .code(status)
    .header("content-type", "application/json; charset=utf-8")
    .header("idempotent-replayed", "true")
    .send(body);
}

/** `registerIdempotency` as a plugin of the app (app.ts): every POST route registered after it honours Idempotency-Key. */
export const idempotency = fp(async (app: FastifyInstance, options: IdempotencyOptions & { db: Db }) => {
  const { db, ...rest } = options;
  registerIdempotency(app, db, rest);
});
