import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import Fastify from "fastify";
import type { FastifyInstance } from "fastify";

import { ApiError } from "../../../gateway/http/errors.js";
import { openStore } from "../../../gateway/store/db.js";
import type { Store } from "../../../gateway/store/db.js";
import { idempotencyKeys } from "../../../gateway/store/schema.js";
import { purgeExpiredKeys, registerIdempotency } from "../../../gateway/writes/idempotency.js";
import type { IdempotencyOptions } from "../../../gateway/writes/idempotency.js";
import { resetDatabase } from "../../../testing/fixtures.js";

/**
 * The Idempotency-Key hook on its own: a bare Fastify app with a stand-in for the API key (the
 * `x-account` header) and routes that count how often their handler ran.
 */
describe(`Idempotency-Key hook on ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"}`, function () {
  this.timeout(60_000);
  let dir: string;
  let store: Store;
  let runs: Record<string, number>;
  let release: () => void = () => {};
  const apps: FastifyInstance[] = [];

  async function app(options: IdempotencyOptions = {}): Promise<FastifyInstance> {
    const a = Fastify();
    apps.push(a);
    a.setErrorHandler((error, _request, reply) => {
      const api = error instanceof ApiError ? error : new ApiError("internal_error", "internal error");
      return reply.code(api.statusCode).send(api.body());
    });
    a.addHook("onRequest", async (request) => {
      const account = request.headers["x-account"];
      if (typeof account === "string")
        request.apiKey = {
          keyId: account,
          tier: "standard",
          account,
          scopes: ["write"],
          rateLimit: 100,
          label: "",
          createdAt: 0,
          expiresAt: null,
        };
    });
    registerIdempotency(a, store.db, options);
    // registered after the hook, in a plugin of their own as another part of the gateway would be
    await a.register(async (child) => {
      child.post("/count", async (request) => {
        runs.count = (runs.count ?? 0) + 1;
        return { success: true, data: { run: runs.count, body: request.body } };
      });
      child.post("/fail", async () => {
        runs.fail = (runs.fail ?? 0) + 1;
        throw new ApiError("invalid_parameter", `failure ${runs.fail}`);
      });
      child.post("/slow", async () => {
        runs.slow = (runs.slow ?? 0) + 1;
        await new Promise<void>((resolve) => (release = resolve));
        return { success: true, data: { run: runs.slow } };
      });
      child.post("/opted-out", { config: { idempotency: false } }, async () => {
        runs.optedOut = (runs.optedOut ?? 0) + 1;
        return { success: true, data: { run: runs.optedOut } };
      });
    });
    return a;
  }
  const send = (a: FastifyInstance, url: string, key: string | undefined, body: object = { x: 1 }, account = "0xA") =>
    a.inject({
      method: "POST",
      url,
      payload: body,
      headers: { "x-account": account, ...(key === undefined ? {} : { "idempotency-key": key }) },
    });

  before(async function () {
    dir = await mkdtemp(path.join(tmpdir(), "gateway-idempotency-"));
    await resetDatabase();
    store = await openStore({ databaseUrl: process.env.DATABASE_URL, dataDir: dir });
  });
  beforeEach(async function () {
    runs = {};
    await store.db.delete(idempotencyKeys);
  });
  afterEach(async function () {
    await Promise.all(apps.splice(0).map((a) => a.close()));
  });
  after(async function () {
    await store?.close();
    await rm(dir, { recursive: true, force: true });
  });

  describe("a POST route registered after the hook", function () {
    it("runs once per key and replays the stored status and body", async function () {
      const a = await app();
      const first = await send(a, "/count", "k1");
      const again = await send(a, "/count", "k1");
      expect(first.statusCode).to.equal(200);
      expect(again.statusCode).to.equal(200);
      expect(again.body).to.equal(first.body);
      expect(again.headers["idempotent-replayed"]).to.equal("true");
      expect(runs.count).to.equal(1);
      await send(a, "/count", undefined);
      await send(a, "/count", undefined);
      expect(runs.count).to.equal(3); // without a key every request runs
    });

    it("treats the same body with keys in another order as the same request", async function () {
      const a = await app();
      await send(a, "/count", "k2", { a: 1, b: { c: 2, d: 3 } });
      const again = await send(a, "/count", "k2", { b: { d: 3, c: 2 }, a: 1 });
      expect(again.statusCode).to.equal(200);
      expect(runs.count).to.equal(1);
    });

    it("refuses the same key with another body or path", async function () {
      const a = await app();
      await send(a, "/count", "k3", { x: 1 });
      for (const r of [await send(a, "/count", "k3", { x: 2 }), await send(a, "/fail", "k3", { x: 1 })]) {
        expect(r.statusCode).to.equal(400);
        expect(r.json().error.details.parameter).to.equal("Idempotency-Key");
      }
      expect(runs).to.deep.equal({ count: 1 });
    });

    it("stores error responses too: a retry gets the first failure, not a second run", async function () {
      const a = await app();
      const first = await send(a, "/fail", "k4");
      const again = await send(a, "/fail", "k4");
      expect(first.statusCode).to.equal(400);
      expect(again.body).to.equal(first.body);
      expect(runs.fail).to.equal(1);
    });

    it("scopes keys to the account", async function () {
      const a = await app();
      await send(a, "/count", "k5", { x: 1 }, "0xA");
      await send(a, "/count", "k5", { x: 2 }, "0xB");
      expect(runs.count).to.equal(2);
    });

    it("makes a concurrent retry wait for the first request's response", async function () {
      const a = await app();
      const first = send(a, "/slow", "k6");
      while (runs.slow !== 1) await new Promise((resolve) => setImmediate(resolve));
      const retries = [send(a, "/slow", "k6"), send(a, "/slow", "k6")];
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(runs.slow).to.equal(1);
      release();
      const [r0, r1, r2] = await Promise.all([first, ...retries]);
      expect(r1.body).to.equal(r0.body);
      expect(r2.body).to.equal(r0.body);
      expect(runs.slow).to.equal(1);
    });

    it("answers invalid_parameter when the first request is still running after the wait", async function () {
      const a = await app({ waitMs: 100 });
      const first = send(a, "/slow", "k7");
      while (runs.slow !== 1) await new Promise((resolve) => setImmediate(resolve));
      const retry = await send(a, "/slow", "k7");
      expect(retry.statusCode).to.equal(400);
      expect(retry.json().error.details.state).to.equal("pending");
      release();
      expect((await first).statusCode).to.equal(200);
      expect(runs.slow).to.equal(1);
    });

    it("runs again once the key has expired, and expired keys are purged", async function () {
      const a = await app({ ttlSeconds: 0 });
      await send(a, "/count", "k8");
      await send(a, "/count", "k8", { x: 2 }); // expired: a new request, not a conflict
      expect(runs.count).to.equal(2);
      expect(await purgeExpiredKeys(store.db, Math.floor(Date.now() / 1000) + 1)).to.equal(1);
    });

    it("refuses a malformed key and leaves opted-out routes alone", async function () {
      const a = await app();
      const bad = await send(a, "/count", "has space");
      expect(bad.statusCode).to.equal(400);
      expect(runs.count).to.equal(undefined);
      await send(a, "/opted-out", "k9");
      await send(a, "/opted-out", "k9");
      expect(runs.optedOut).to.equal(2);
      const unknown = await send(a, "/no-such-route", "k10");
      expect(unknown.statusCode).to.equal(404); // an unknown route claims nothing
      expect(await store.db.select().from(idempotencyKeys)).to.have.length(0);
    });
  });
});
