import path from "node:path";

import { expect } from "chai";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";

import type { KeyService } from "../../../gateway/auth/keys.js";
import { buildApp } from "../../../gateway/http/app.js";
import { createLogger } from "../../../gateway/observability/log.js";
import { GatewayMetrics } from "../../../gateway/observability/metrics.js";
import { startGateway } from "../../../gateway/server.js";
import type { Gateway } from "../../../gateway/server.js";
import type { ReadModel } from "../../../gateway/store/queries.js";
import { ROLE, resetDatabase, sharedLiveDeployment, testConfig } from "../../../testing/fixtures.js";
import type { LiveDeployment } from "../../../testing/fixtures.js";
import { TcpProxy, TestReceiver, eventually } from "../../../testing/local-servers.js";

/** The value of one series in a scrape (undefined when absent). */
function valueOf(scrape: string, series: string): number | undefined {
  const line = scrape.split("\n").find((l) => l.startsWith(series + " "));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const ACCOUNT_KEY = "9f".repeat(32);

describe(`Gateway observability on ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"}: JSON logs and /metrics (real node)`, function () {
  this.timeout(300_000);
  let live: LiveDeployment;
  let proxy: TcpProxy;
  let gw: Gateway;
  const lines: Array<Record<string, any>> = [];
  const raw: string[] = [];
  let token: string;

  const scrape = async () => {
    const response = await fetch(`${gw.url}/metrics`);
    expect(response.status).to.equal(200);
    expect(response.headers.get("content-type")).to.match(/^text\/plain; version=0\.0\.4/);
    return response.text();
  };
  const get = (p: string, headers: Record<string, string> = {}) =>
    fetch(gw.url + p, { headers: { authorization: `Bearer ${token}`, ...headers } });

  before(async function () {
    live = await sharedLiveDeployment("observability", { satellite: false });
    const node = new URL(live.nodes[0].url);
    proxy = await new TcpProxy({ host: node.hostname, port: Number(node.port) }).start();
    await resetDatabase();
    gw = await startGateway(
      testConfig(live, {
        dataDir: path.join(live.dir, "gateway"),
        rpcUrls: { arbitrum: proxy.url },
        accountKey: ACCOUNT_KEY,
        verifierKeys: [live.verifierKeys[0].privateKey],
        webhooks: { timeoutMs: 1_000 },
      }),
      {
        logger: createLogger({
          level: "debug",
          destination: {
            write(chunk: string) {
              raw.push(chunk);
              lines.push(JSON.parse(chunk) as Record<string, any>);
            },
          },
        }),
      },
    );
    await gw.synced();
    ({ token } = await gw.keys.create({
      tier: "premium",
      account: live.signers[ROLE.user].address,
      scopes: ["read", "write"],
    }));
  });

  after(async function () {
    await gw?.close();
    await proxy?.cut();
    await live?.stop();
  });

  describe("the log", function () {
    it("writes JSON lines with a level name and a time; a request's line carries its request id", async function () {
      const response = await get("/api/v1/cu/list?limit=1", { "x-request-id": "obs-1" });
      expect(response.status).to.equal(200);
      const failed = await get("/api/v1/cu/999");
      await new Promise((resolve) => setTimeout(resolve, 50));
      for (const line of lines) {
        expect(line.level, JSON.stringify(line)).to.be.oneOf(["trace", "debug", "info", "warn", "error", "fatal"]);
        expect(Date.parse(line.time), JSON.stringify(line)).to.be.a("number").and.not.NaN;
        expect(line.service).to.equal("gateway");
      }
      const mine = lines.filter((l) => l.reqId === "obs-1");
      expect(mine).to.have.length(1);
      expect(mine[0]).to.include({ level: "info", statusCode: 200, route: "/api/v1/cu/list", method: "GET" });
      const other = lines.find((l) => l.reqId === failed.headers.get("x-request-id"));
      expect(other).to.include({ statusCode: 404, route: "/api/v1/cu/:cu_id" });
      // the start's lines: the configuration, and the indexer's own component
      expect(lines.find((l) => l.msg === "gateway starting (devnet)")).to.have.property("config");
    });

    it("never writes a credential: keys, cookies, webhook secrets, private keys, the master key", async function () {
      await get(`/api/v1/me?api_key=${token}`, { authorization: "" });
      await fetch(`${gw.url}/api/v1/cu/list`, { headers: { cookie: "portal_session=cookie-value-0123456789" } });
      const created = await fetch(`${gw.url}/api/v1/webhooks`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ url: "http://127.0.0.1:9/hooks", events: ["sstb.transferred"] }),
      });
      expect(created.status).to.equal(201);
      const { data } = (await created.json()) as { data: { secret: string; subscription_id: string } };
      const rotated = await fetch(`${gw.url}/api/v1/webhooks/${data.subscription_id}/rotate`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
      });
      const { data: again } = (await rotated.json()) as { data: { secret: string } };
      await new Promise((resolve) => setTimeout(resolve, 50));
      const text = raw.join("");
      for (const [what, secret] of [
        ["API key", token],
        ["session cookie", "cookie-value-0123456789"],
        ["webhook secret", data.secret],
        ["rotated webhook secret", again.secret],
        ["verifier private key", live.verifierKeys[0].privateKey.slice(2)],
        ["master key", ACCOUNT_KEY],
        ["JWT secret", testConfig(live).jwtSecret],
      ]) {
        expect(text.includes(secret), `the log holds the ${what}`).to.equal(false);
      }
      const config = lines.find((l) => l.msg === "gateway starting (devnet)")!.config;
      expect(config).to.include({ jwtSecret: "[redacted]", accountKey: "[redacted]", verifierKeys: "[redacted]" });
      const keyed = lines.find((l) => l.route === "/api/v1/me");
      expect(keyed!.url).to.equal("/api/v1/me?api_key=[redacted]");
      await fetch(`${gw.url}/api/v1/webhooks/${data.subscription_id}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${token}` },
      });
    });
  });

  describe("/metrics", function () {
    it("counts requests by route and status, their latency, and rate-limit refusals", async function () {
      const before = await scrape();
      const list = 'method="GET",route="/api/v1/cu/list"';
      const detail = 'method="GET",route="/api/v1/cu/:cu_id"';
      const ok = valueOf(before, `gateway_http_requests_total{${list},status_code="200"}`) ?? 0;
      const missing = valueOf(before, `gateway_http_requests_total{${detail},status_code="404"}`) ?? 0;
      for (let i = 0; i < 3; i++) expect((await get("/api/v1/cu/list?limit=1")).status).to.equal(200);
      expect((await get("/api/v1/cu/999")).status).to.equal(404);
      const limited = await gw.keys.create({
        tier: "enterprise",
        account: live.signers[ROLE.user].address,
        rateLimit: 1,
      });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const response = await fetch(`${gw.url}/api/v1/cu/list?limit=2`, {
          headers: { authorization: `Bearer ${limited.token}` },
        });
        statuses.push(response.status);
      }
      expect(statuses).to.deep.equal([200, 429, 429]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const after = await scrape();
      expect(valueOf(after, `gateway_http_requests_total{${list},status_code="200"}`)).to.equal(ok + 4);
      expect(valueOf(after, `gateway_http_requests_total{${detail},status_code="404"}`)).to.equal(missing + 1);
      expect(valueOf(after, `gateway_http_requests_total{${list},status_code="429"}`)).to.equal(2);
      expect(valueOf(after, 'gateway_rate_limit_refusals_total{route="/api/v1/cu/list"}')).to.equal(2);
      expect(valueOf(after, `gateway_http_request_duration_seconds_count{${list},status_code="200"}`)).to.equal(ok + 4);
      expect(
        valueOf(after, `gateway_http_request_duration_seconds_bucket{le="+Inf",${list},status_code="200"}`),
      ).to.equal(ok + 4);
      expect(valueOf(after, 'gateway_db_pool_connections{state="total"}')).to.be.at.least(1);
      expect(valueOf(after, "nodejs_eventloop_lag_seconds")).to.be.a("number");
    });

    it("follows the indexer: head, indexed block and lag per chain, reorgs, RPC errors", async function () {
      const before = await scrape();
      const indexed = valueOf(before, 'gateway_indexer_indexed_block{chain="arbitrum"}')!;
      expect(valueOf(before, 'gateway_indexer_head_block{chain="arbitrum"}')).to.be.at.least(indexed);
      expect(valueOf(before, 'gateway_indexer_lag_blocks{chain="arbitrum"}')).to.be.a("number");
      const user = live.signers[ROLE.user];
      await (await live.d.sstb.connect(user).transfer(live.signers[ROLE.user2].address, 0n)).wait();
      await gw.synced();
      expect(valueOf(await scrape(), 'gateway_indexer_indexed_block{chain="arbitrum"}')).to.be.greaterThan(indexed);

      // a reorg: a block the indexer stored is replaced by another
      const reorgs = valueOf(before, 'gateway_indexer_reorgs_total{chain="arbitrum"}') ?? 0;
      const snapshot = await live.rpc.send("evm_snapshot", []);
      await (await live.d.sstb.connect(user).transfer(live.signers[ROLE.user2].address, 0n)).wait();
      await gw.synced();
      await live.rpc.send("evm_revert", [snapshot]);
      await live.rpc.send("evm_mine", []);
      await live.rpc.send("evm_mine", []);
      await eventually(async () =>
        (valueOf(await scrape(), 'gateway_indexer_reorgs_total{chain="arbitrum"}') ?? 0) > reorgs ? true : undefined,
      );

      // the node out of reach: the indexer's calls fail and are counted
      const errors = valueOf(await scrape(), 'gateway_rpc_errors_total{chain="arbitrum"}') ?? 0;
      await proxy.cut();
      try {
        await eventually(async () =>
          (valueOf(await scrape(), 'gateway_rpc_errors_total{chain="arbitrum"}') ?? 0) > errors ? true : undefined,
        );
      } finally {
        await proxy.restore();
      }
      await gw.synced();
    });

    it("follows the outbox: its depth and oldest delivery, and the attempts by outcome and failure", async function () {
      const receiver = await new TestReceiver().start();
      const port = receiver.port;
      await receiver.stop(); // down: deliveries fail and wait
      const user = live.signers[ROLE.user];
      const sub = await gw.webhooks.subscriptions.create(user.address, {
        url: `http://127.0.0.1:${port}/hooks`,
        events: ["sstb.transferred"],
      });
      receiver.secrets = [sub.secret];
      const failedBefore =
        valueOf(await scrape(), 'gateway_webhook_attempt_failures_total{channel="webhook",reason="network"}') ?? 0;
      const deliveredBefore =
        valueOf(await scrape(), 'gateway_webhook_attempts_total{channel="webhook",outcome="delivered"}') ?? 0;
      await (await live.d.sstb.connect(user).transfer(live.signers[ROLE.user2].address, 0n)).wait();
      const waiting = await eventually(async () => {
        const text = await scrape();
        const failed = valueOf(text, 'gateway_webhook_attempt_failures_total{channel="webhook",reason="network"}') ?? 0;
        return failed > failedBefore ? text : undefined;
      });
      expect(valueOf(waiting, "gateway_webhook_outbox_pending")).to.be.at.least(1);
      expect(valueOf(waiting, 'gateway_webhook_attempts_total{channel="webhook",outcome="retry"}')).to.be.at.least(1);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      expect(valueOf(await scrape(), "gateway_webhook_outbox_oldest_pending_age_seconds")).to.be.at.least(1);

      // the receiver back (the retry comes after the backoff: make it due now)
      await receiver.start();
      await gw.store.db.execute(sql`update webhook_deliveries set next_attempt_at = 0 where status = 'pending'`);
      gw.webhooks.workers.wake();
      const delivered = await eventually(async () => {
        const text = await scrape();
        return valueOf(text, "gateway_webhook_outbox_pending") === 0 ? text : undefined;
      }, 30_000);
      expect(
        valueOf(delivered, 'gateway_webhook_attempts_total{channel="webhook",outcome="delivered"}'),
      ).to.be.greaterThan(deliveredBefore);
      expect(valueOf(delivered, "gateway_webhook_outbox_oldest_pending_age_seconds")).to.equal(0);
      await gw.webhooks.subscriptions.remove(user.address, sub.subscription_id);
      await receiver.stop();
    });
  });
});

describe("Gateway /metrics, /livez, /readyz (no database)", function () {
  const apps: FastifyInstance[] = [];
  const app = async (environment: string, metricsToken?: string) => {
    const built = await buildApp({
      model: {} as ReadModel,
      keys: {
        known: () => undefined,
        authenticate: async () => Promise.reject(new Error("no keys")),
      } as unknown as KeyService,
      chains: [],
      chainLabels: {},
      bridges: {
        quote: async () => Promise.reject(new Error("not used")),
        queue: async () => Promise.reject(new Error("not used")),
      },
      activity: { activity: async () => [] },
      health: () => ({}),
      environment,
      metrics: new GatewayMetrics(),
      ...(metricsToken === undefined ? {} : { metricsToken }),
    });
    await built.listen({ host: "127.0.0.1", port: 0 });
    apps.push(built);
    return `http://127.0.0.1:${(built.server.address() as { port: number }).port}`;
  };

  after(async function () {
    for (const a of apps) await a.close();
  });

  it("needs the metrics token when one is set, and one outside the devnet", async function () {
    const withToken = await app("testnet", "scrape-token-0123456789");
    expect((await fetch(`${withToken}/metrics`)).status).to.equal(401);
    expect((await fetch(`${withToken}/metrics`, { headers: { authorization: "Bearer wrong" } })).status).to.equal(401);
    const scraped = await fetch(`${withToken}/metrics`, {
      headers: { authorization: "Bearer scrape-token-0123456789" },
    });
    expect(scraped.status).to.equal(200);
    expect(await scraped.text()).to.contain("gateway_http_requests_total");
    const without = await app("mainnet");
    const refused = await fetch(`${without}/metrics`);
    expect(refused.status).to.equal(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).to.contain(
      "GATEWAY_METRICS_TOKEN",
    );
    expect((await fetch(`${await app("devnet")}/metrics`)).status).to.equal(200);
  });

  it("never rate-limits the probes (a load balancer polls them from one address)", async function () {
    const url = await app("devnet");
    const statuses = await Promise.all(
      Array.from({ length: 130 }, (_, i) => fetch(`${url}/${i % 2 === 0 ? "livez" : "readyz"}`).then((r) => r.status)),
    );
    expect(statuses.every((s) => s === 200)).to.equal(true);
    // a route that is limited: the 101st request of the minute from this address is refused
    const health = [];
    for (let i = 0; i < 101; i++) health.push((await fetch(`${url}/health`)).status);
    expect(health.at(-1)).to.equal(429);
  });
});
