import { randomBytes } from "node:crypto";

import { expect } from "chai";

import { SIGNATURE_HEADER, signBody, signatureHeaders, verifySignature } from "@compute-capacity/sdk";
import { REDACTED, createLogger, redactSecrets, redactUrl } from "../../../gateway/observability/log.js";
import { Readiness } from "../../../gateway/observability/health.js";
import type { IndexerProgress } from "../../../gateway/observability/health.js";
import { GatewayMetrics, failureReason } from "../../../gateway/observability/metrics.js";
import { nodeHmac } from "../../../gateway/webhooks/signature.js";

/** A logger writing into an array of parsed lines. */
function captured(level: "info" | "trace" = "trace") {
  const lines: Array<Record<string, any>> = [];
  const raw: string[] = [];
  const logger = createLogger({
    level,
    destination: {
      write(chunk: string) {
        raw.push(chunk);
        lines.push(JSON.parse(chunk) as Record<string, any>);
      },
    },
  });
  return { logger, lines, raw };
}

/** Sample value of a series in the text exposition format, or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(series + " "));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("Gateway observability (unit)", function () {
  describe("createLogger", function () {
    it("writes one JSON object per line with the level's name, an ISO time, the service and the message", function () {
      const { logger, lines } = captured("info");
      logger.debug("not written at info");
      logger.warn({ chain: "arbitrum", failures: 3 }, "indexer arbitrum: timeout (retrying)");
      logger.flush();
      expect(lines).to.have.length(1);
      expect(lines[0]).to.include({
        level: "warn",
        service: "gateway",
        chain: "arbitrum",
        failures: 3,
        msg: "indexer arbitrum: timeout (retrying)",
      });
      expect(new Date(lines[0].time).toISOString()).to.equal(lines[0].time);
    });

    it("redacts credentials, secrets, private keys and URLs with passwords wherever they sit", function () {
      const { logger, raw } = captured();
      const secrets = {
        authorization: "Bearer eyJhbGciOiJIUzI1NiJ9.secret-token",
        cookie: "portal_session=abcdef0123456789",
        secret: "whsec_0123456789abcdef",
        privateKey: "0x" + "ab".repeat(32),
        jwtSecret: "j".repeat(40),
        accountKey: "cd".repeat(32),
        verifierKeys: ["0x" + "ef".repeat(32)],
        databaseUrl: "postgres://gateway:hunter2@db:5432/gateway",
        smtpUrl: "smtp://mail:hunter3@mail:587",
        metricsToken: "metrics-token-of-the-operator",
      };
      logger.info(
        {
          req: { method: "GET", url: "/x", headers: { authorization: secrets.authorization, cookie: secrets.cookie } },
        },
        "a request",
      );
      logger.info(
        { config: { ...secrets, webhooks: { smtpUrl: secrets.smtpUrl }, tls: { key: "-----BEGIN PRIVATE KEY-----" } } },
        "starting",
      );
      logger.info(
        { subscription: { id: "s1", secret: secrets.secret }, account: { privateKey: secrets.privateKey } },
        "made",
      );
      logger.flush();
      const text = raw.join("");
      for (const [name, value] of Object.entries(secrets)) {
        for (const v of [value].flat()) expect(text, name).to.not.contain(v.slice(-12));
      }
      expect(text).to.not.contain("BEGIN PRIVATE KEY");
      expect(text.split(REDACTED).length - 1).to.be.at.least(12);
    });

    it("redacts a child logger's bindings too", function () {
      const { logger, raw } = captured();
      logger.child({ worker: "w1", token: "eyJ.child-binding-token" }).info("claimed");
      logger.flush();
      const text = raw.join("");
      expect(text).to.not.contain("child-binding-token");
      expect(JSON.parse(text.trim())).to.include({ worker: "w1", token: REDACTED, msg: "claimed" });
    });

    it("copies only the fields it changes: a line without a secret is logged as given, three levels down and no further", function () {
      const clean = { method: "GET", route: "/api/v1/cu/list", nested: { statusCode: 200, list: [{ a: 1 }] } };
      expect(redactSecrets(clean)).to.equal(clean);
      const input = { a: { b: { secret: "s3", c: { secret: "s4" } } }, list: [{ privateKey: "k" }], secret: "s1" };
      const out = redactSecrets(input);
      expect(out).to.deep.equal({
        a: { b: { secret: REDACTED, c: { secret: "s4" } } }, // the fourth level is not looked into
        list: [{ privateKey: REDACTED }],
        secret: REDACTED,
      });
      expect(input.secret, "the caller's object is untouched").to.equal("s1");
      expect(input.a.b.secret).to.equal("s3");
      const error = Object.assign(new Error("boom"), { secret: "kept for the error serializer" });
      expect(redactSecrets({ err: error }).err).to.equal(error);
    });

    it("hides the api_key query parameter of a URL", function () {
      expect(redactUrl("/api/v1/cu/list?limit=2&api_key=eyJ.abc.def&page=1")).to.equal(
        `/api/v1/cu/list?limit=2&api_key=${REDACTED}&page=1`,
      );
      expect(redactUrl("/v1/me?API_KEY=x")).to.equal(`/v1/me?API_KEY=${REDACTED}`);
      expect(redactUrl("/v1/me")).to.equal("/v1/me");
      // the query parser decodes a parameter's name: an encoded api_key is the key all the same
      expect(redactUrl("/v1/me?api%5Fkey=eyJ.abc.def&x=1")).to.equal(`/v1/me?api%5Fkey=${REDACTED}&x=1`);
      expect(redactUrl("/v1/me?x=1&api_key")).to.equal(`/v1/me?x=1&api_key=${REDACTED}`);
      expect(redactUrl("/v1/me?x=%zz&api_key=k#top")).to.equal(`/v1/me?x=%zz&api_key=${REDACTED}#top`);
      expect(redactUrl("/v1/cu/list?limit=2")).to.equal("/v1/cu/list?limit=2");
    });
  });

  describe("nodeHmac (the worker's signing)", function () {
    it("signs every header with the same bytes as the SDK's portable HMAC, and the SDK verifies them", function () {
      const now = Math.floor(Date.now() / 1000);
      for (let i = 0; i < 50; i++) {
        const body = randomBytes(i * 37);
        const secret = `whsec_${randomBytes(24).toString("base64")}`;
        const delivery = { id: `msg_${i}`, timestamp: now, body, secrets: [secret], specSecret: secret };
        const headers = signatureHeaders(delivery, nodeHmac);
        expect(headers).to.deep.equal(signatureHeaders(delivery));
        expect(verifySignature(body, headers[SIGNATURE_HEADER], secret)).to.equal(true);
        // the spec's header is keyed with the secret's text, whatever it holds
        const text = `${secret}${i % 2 === 0 ? "é✓" : ""}`;
        expect(signBody(body, text, nodeHmac)).to.equal(signBody(body, text));
      }
    });
  });

  describe("GatewayMetrics", function () {
    it("counts requests by method, route and status, with their latency, and 429s as rate-limit refusals", async function () {
      const metrics = new GatewayMetrics();
      metrics.request("GET", "/api/v1/cu/:cu_id", 200, 0.004);
      metrics.request("GET", "/api/v1/cu/:cu_id", 200, 0.2);
      metrics.request("GET", "/api/v1/cu/:cu_id", 429, 0.001);
      const { body, contentType } = await metrics.scrape();
      expect(contentType).to.match(/^text\/plain/);
      const labels = 'method="GET",route="/api/v1/cu/:cu_id"';
      expect(sample(body, `gateway_http_requests_total{${labels},status_code="200"}`)).to.equal(2);
      expect(sample(body, `gateway_http_requests_total{${labels},status_code="429"}`)).to.equal(1);
      expect(
        sample(body, `gateway_http_request_duration_seconds_bucket{le="0.005",${labels},status_code="200"}`),
      ).to.equal(1);
      expect(sample(body, `gateway_http_request_duration_seconds_count{${labels},status_code="200"}`)).to.equal(2);
      expect(sample(body, 'gateway_rate_limit_refusals_total{route="/api/v1/cu/:cu_id"}')).to.equal(1);
      expect(body).to.contain("process_cpu_seconds_total"); // Node's own
    });

    it("reads the indexers, the outbox, the pool and the cache at each scrape", async function () {
      const metrics = new GatewayMetrics();
      let head = 100;
      metrics.observe({
        indexers: () => [
          {
            chain: "arbitrum",
            head,
            indexedBlock: 90,
            confirmations: 2,
            reorgs: 1,
            rpcErrors: 4,
            lastProgressAt: Date.now(),
          },
        ],
        outbox: async () => ({ pending: 7, oldestQueuedAt: Date.now() - 30_000 }),
        pool: () => ({ total: 10, idle: 4, waiting: 2 }),
        cache: () => ({ hits: 5, misses: 3 }),
      });
      let body = (await metrics.scrape()).body;
      expect(sample(body, 'gateway_indexer_head_block{chain="arbitrum"}')).to.equal(100);
      expect(sample(body, 'gateway_indexer_indexed_block{chain="arbitrum"}')).to.equal(90);
      expect(sample(body, 'gateway_indexer_lag_blocks{chain="arbitrum"}')).to.equal(8); // 100 - 2 - 90
      expect(sample(body, 'gateway_indexer_reorgs_total{chain="arbitrum"}')).to.equal(1);
      expect(sample(body, 'gateway_rpc_errors_total{chain="arbitrum"}')).to.equal(4);
      expect(sample(body, "gateway_webhook_outbox_pending")).to.equal(7);
      expect(sample(body, "gateway_webhook_outbox_oldest_pending_age_seconds")).to.be.within(29, 40);
      expect(sample(body, 'gateway_db_pool_connections{state="waiting"}')).to.equal(2);
      expect(sample(body, "gateway_response_cache_hits_total")).to.equal(5);
      head = 130;
      body = (await metrics.scrape()).body;
      expect(sample(body, 'gateway_indexer_lag_blocks{chain="arbitrum"}')).to.equal(38);
    });

    it("counts delivery attempts by outcome and failures by reason", async function () {
      const metrics = new GatewayMetrics();
      metrics.attempt("webhook", "delivered", null, 0.01);
      metrics.attempt("webhook", "retry", failureReason({ ok: false, statusCode: 503, error: "HTTP 503" }), 0.02);
      metrics.attempt(
        "webhook",
        "retry",
        failureReason({ ok: false, statusCode: null, error: "timeout after 10000 ms" }),
        10,
      );
      metrics.attempt(
        "email",
        "failed",
        failureReason({ ok: false, statusCode: null, error: "connect ECONNREFUSED" }),
        1,
      );
      const { body } = await metrics.scrape();
      expect(sample(body, 'gateway_webhook_attempts_total{channel="webhook",outcome="delivered"}')).to.equal(1);
      expect(sample(body, 'gateway_webhook_attempts_total{channel="webhook",outcome="retry"}')).to.equal(2);
      expect(sample(body, 'gateway_webhook_attempt_failures_total{channel="webhook",reason="http_5xx"}')).to.equal(1);
      expect(sample(body, 'gateway_webhook_attempt_failures_total{channel="webhook",reason="timeout"}')).to.equal(1);
      expect(sample(body, 'gateway_webhook_attempt_failures_total{channel="email",reason="network"}')).to.equal(1);
    });
  });

  describe("Readiness", function () {
    const settings = { maxLagBlocks: { polygon: 100 }, defaultMaxLagBlocks: 5, staleMs: 10_000, timeoutMs: 200 };
    const indexer = (over: Partial<IndexerProgress> = {}): IndexerProgress => ({
      chain: "arbitrum",
      head: 50,
      indexedBlock: 50,
      confirmations: 0,
      lastProgressAt: Date.now(),
      lastError: null,
      ...over,
    });

    it("is ready when the database answers, nothing is pending and every indexer keeps up", async function () {
      const readiness = new Readiness(
        { ping: async () => {}, pendingMigrations: async () => [], indexers: () => [indexer()] },
        settings,
      );
      expect(await readiness.check()).to.deep.include({ ready: true, reasons: [] });
    });

    it("names each reason it is not: the database, pending migrations, a lag, a stalled indexer", async function () {
      const down = new Readiness(
        {
          ping: async () => Promise.reject(new Error("connect ECONNREFUSED")),
          pendingMigrations: async () => [],
          indexers: () => [],
        },
        settings,
      );
      expect((await down.check()).reasons).to.deep.equal(["database: connect ECONNREFUSED"]);
      const hung = new Readiness(
        { ping: () => new Promise(() => {}), pendingMigrations: async () => [], indexers: () => [] },
        settings,
      );
      expect((await hung.check()).reasons).to.deep.equal(["database: no answer within 200 ms"]);

      const now = Date.now();
      const readiness = new Readiness(
        {
          ping: async () => {},
          pendingMigrations: async () => ["0004_next"],
          indexers: () => [
            indexer({ head: 60, indexedBlock: 50, confirmations: 3 }), // 7 behind its indexable head: > 5
            indexer({ chain: "polygon", head: 500, indexedBlock: 400, confirmations: 64 }), // 36: within 100
            indexer({ chain: "ethereum", lastProgressAt: now - 11_000, lastError: "connect ECONNREFUSED" }),
          ],
        },
        settings,
      );
      const report = await readiness.check(now);
      expect(report.ready).to.equal(false);
      expect(report.reasons).to.deep.equal([
        "migrations pending: 0004_next (run the gateway's migrate command)",
        "arbitrum: the indexer is 7 blocks behind (head 60, depth 3, indexed 50; at most 5)",
        "ethereum: the indexer has not reached its node and the database for 11 s (last error: connect ECONNREFUSED)",
      ]);
      expect(report.checks.indexers.map((i) => i.status)).to.deep.equal(["lagging", "ok", "stalled"]);
    });

    it("answers at once once shutting down, without asking the database, with the indexers' state", async function () {
      let asked = 0;
      const readiness = new Readiness(
        {
          // a database that would hold the probe until its timeout
          ping: () => (asked++, new Promise(() => {})),
          pendingMigrations: async () => (asked++, []),
          indexers: () => [indexer({ head: 60, indexedBlock: 50, confirmations: 3 })],
        },
        settings,
      );
      readiness.drain();
      const report = await readiness.check();
      expect(asked, "the database was asked").to.equal(0);
      expect(report).to.deep.include({ ready: false });
      expect(report.reasons).to.deep.equal([
        "shutting down",
        "arbitrum: the indexer is 7 blocks behind (head 60, depth 3, indexed 50; at most 5)",
      ]);
      expect(report.checks).to.deep.include({ database: "unchecked", migrations: "unknown", shutting_down: true });
    });

    it("checks the master key once the migrations are applied, and says why a wrong one keeps it out", async function () {
      let pending = ["0005_sealing_key_check"];
      let asked = 0;
      const readiness = new Readiness(
        {
          ping: async () => {},
          pendingMigrations: async () => pending,
          indexers: () => [],
          sealingKey: async () => {
            asked++;
            return "GATEWAY_ACCOUNT_KEY is not the master key this database's sealed data was written with";
          },
        },
        settings,
      );
      // the key's record does not exist before the migrations: not asked then
      expect((await readiness.check()).reasons).to.deep.equal([
        "migrations pending: 0005_sealing_key_check (run the gateway's migrate command)",
      ]);
      expect(asked).to.equal(0);
      pending = [];
      const report = await readiness.check();
      expect(report.ready).to.equal(false);
      expect(report.reasons).to.deep.equal([
        "master key: GATEWAY_ACCOUNT_KEY is not the master key this database's sealed data was written with",
      ]);
      expect(asked).to.equal(1);
    });
  });
});
