import { spawnSync } from "node:child_process";
import path from "node:path";

import { expect } from "chai";

import { startGateway } from "../../../gateway/server.js";
import type { Gateway } from "../../../gateway/server.js";
import { sharedLiveDeployment, testConfig } from "../../../testing/fixtures.js";
import type { LiveDeployment } from "../../../testing/fixtures.js";
import { TcpProxy, eventually } from "../../../testing/local-servers.js";
import { PrivatePostgres } from "../../helpers/postgres.js";

interface Probe {
  status: number;
  ready: boolean;
  reasons: string[];
}

async function readyz(gateway: Gateway): Promise<Probe> {
  const response = await fetch(`${gateway.url}/readyz`);
  const body = (await response.json()) as { success: boolean; data: { ready: boolean; reasons: string[] } };
  return { status: response.status, ready: body.data.ready, reasons: body.data.reasons };
}

async function livez(gateway: Gateway): Promise<number> {
  return (await fetch(`${gateway.url}/livez`)).status;
}

/** Polls /readyz until `predicate` holds (returns that answer). */
function readyzUntil(gateway: Gateway, predicate: (p: Probe) => boolean, timeoutMs = 30_000): Promise<Probe> {
  return eventually(async () => {
    const probe = await readyz(gateway);
    return predicate(probe) ? probe : undefined;
  }, timeoutMs);
}

describe("Gateway readiness: /livez and /readyz (real node, a PostgreSQL server of the test's own)", function () {
  this.timeout(300_000);
  let live: LiveDeployment;
  let postgres: PrivatePostgres;
  let gateway: Gateway | undefined;

  before(async function () {
    live = await sharedLiveDeployment("readyz", { satellite: false });
    postgres = await PrivatePostgres.create();
  });

  afterEach(async function () {
    await gateway?.close();
    gateway = undefined;
  });

  after(async function () {
    postgres?.destroy();
    await live?.stop();
  });

  describe("the database", function () {
    it("answers 503 naming the database while PostgreSQL is stopped, /livez still 200, and ready again once it is back", async function () {
      // no response cache: every read below queries, on the read routes' own (pipelined) connections
      gateway = await startGateway(
        testConfig(live, { databaseUrl: postgres.url(), dataDir: path.join(live.dir, "db-stop") }),
        { responseCache: false },
      );
      await gateway.synced();
      expect(await readyz(gateway)).to.deep.equal({ status: 200, ready: true, reasons: [] });
      expect(await livez(gateway)).to.equal(200);
      const { token } = await gateway.keys.create({ tier: "enterprise", account: live.signers[6].address });
      const read = (path: string) =>
        fetch(`${gateway!.url}${path}`, { headers: { authorization: `Bearer ${token}` } }).then(async (r) => ({
          status: r.status,
          body: (await r.json()) as { success: boolean; error?: { code: string } },
        }));
      expect((await read("/api/v1/cu/list")).status).to.equal(200);
      expect((await read("/api/v1/providers/list")).status).to.equal(200);

      postgres.stop();
      try {
        const down = await readyzUntil(gateway, (p) => p.status === 503);
        expect(down.ready).to.equal(false);
        expect(
          down.reasons.some((r) => r.startsWith("database: ")),
          down.reasons.join("; "),
        ).to.equal(true);
        expect(await livez(gateway)).to.equal(200);
        // a read fails at once with the error envelope, rather than waiting for the server
        const failed = await read("/api/v1/cu/list");
        expect(failed.status).to.equal(500);
        expect(failed.body.error?.code).to.equal("internal_error");
      } finally {
        postgres.start();
      }
      // the pool opens new connections once the server answers again
      expect(await readyzUntil(gateway, (p) => p.status === 200)).to.deep.include({ ready: true, reasons: [] });
      // and so do the read routes' connections
      await eventually(
        async () => ((await read("/api/v1/cu/list")).status === 200 ? true : undefined),
        30_000,
        "a read",
      );
      expect((await read("/api/v1/providers/list")).status).to.equal(200);
      // and no client was lost on the way: the webhook workers' transactions whose `begin` met the
      // dropped connections gave their clients back, so the pool can end and the gateway closes
      const closing = gateway.close();
      gateway = undefined;
      const bound = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), 15_000).unref());
      expect(await Promise.race([closing.then(() => "closed" as const), bound])).to.equal("closed");
    });

    it("answers 503 while committed migrations are pending, until the migrate command applies them", async function () {
      const url = postgres.createDatabase("fresh");
      // a release that applies its migrations as a step of its own: the gateway does not
      gateway = await startGateway(
        testConfig(live, { databaseUrl: url, dataDir: path.join(live.dir, "unmigrated"), migrate: false }),
      );
      const pending = await readyz(gateway);
      expect(pending.status).to.equal(503);
      expect(pending.reasons[0]).to.match(
        /^migrations pending: 0000_init, 0001_[a-z_]+, 0002_[a-z_]+, 0003_[a-z_]+.* \(run the gateway's migrate command\)$/,
      );

      const migrate = spawnSync(process.execPath, ["--import", "tsx", "gateway/cli.ts", "migrate"], {
        env: { ...process.env, DATABASE_URL: url },
        encoding: "utf8",
      });
      expect(migrate.status, migrate.stderr).to.equal(0);
      expect(migrate.stdout).to.match(/Migrations applied \(postgres: .*\); none pending\./);
      // the indexer, failing on the missing tables until now, catches up
      expect(await readyzUntil(gateway, (p) => p.status === 200, 60_000)).to.deep.include({ ready: true });
    });
  });

  describe("the chain", function () {
    it("answers 503 naming the chain while its node is stalled, and 200 once it answers again", async function () {
      const node = new URL(live.nodes[0].url);
      const proxy = await new TcpProxy({ host: node.hostname, port: Number(node.port) }).start();
      try {
        gateway = await startGateway(
          testConfig(live, {
            databaseUrl: postgres.url(),
            dataDir: path.join(live.dir, "stall"),
            rpcUrls: { arbitrum: proxy.url },
            readyStaleSeconds: 2,
          }),
        );
        await gateway.synced();
        // ready once its indexer keeps up (a step on a busy machine can outlast the 2 s bound once)
        expect(await readyzUntil(gateway, (p) => p.status === 200)).to.deep.include({ ready: true, reasons: [] });

        proxy.stall();
        const stalled = await readyzUntil(gateway, (p) => p.status === 503);
        expect(stalled.reasons).to.have.length(1);
        expect(stalled.reasons[0]).to.match(
          /^arbitrum: the indexer has not reached its node and the database for \d+ s/,
        );
        expect(await livez(gateway)).to.equal(200);

        await proxy.restore();
        expect(await readyzUntil(gateway, (p) => p.status === 200)).to.deep.include({ ready: true, reasons: [] });
      } finally {
        await proxy.cut();
      }
    });

    /** A gateway indexing the primary chain through a proxy of its node, and the proxy. */
    async function behindProxy(name: string, rpcTimeoutMs: number) {
      const node = new URL(live.nodes[0].url);
      const proxy = await new TcpProxy({ host: node.hostname, port: Number(node.port) }).start();
      gateway = await startGateway(
        testConfig(live, {
          databaseUrl: postgres.url(),
          dataDir: path.join(live.dir, name),
          rpcUrls: { arbitrum: proxy.url },
          rpcTimeoutMs,
        }),
      );
      await gateway.synced();
      return { gateway, proxy };
    }

    /** The primary indexer's step once it has awaited a call of the node for more than `ms`. */
    function heldFor(gateway: Gateway, ms: number) {
      return eventually(async () => {
        const step = gateway.inFlight().indexers[0];
        return step.rpc.some((call) => call.ms > ms) ? step : undefined;
      }, 10_000);
    }

    it("names the read a stalled node holds, and fails it after GATEWAY_RPC_TIMEOUT_MS (the indexer retries)", async function () {
      const { gateway, proxy } = await behindProxy("stall-timeout", 1_500);
      try {
        const indexer = gateway.indexers[0];
        const errorsBefore = indexer.status().rpcErrors;
        proxy.stall();
        // the step in progress and the call it awaits, by name and age
        const held = await heldFor(gateway, 300);
        expect(held.chain).to.equal("arbitrum");
        expect(held.ms).to.be.a("number").that.is.at.least(300);
        expect(held.rpc.map((call) => call.method).join(",")).to.match(/eth_getBlockByNumber/);
        // unanswered past the bound: the call fails (counted, named in the status) and is retried
        await eventually(async () => (indexer.status().rpcErrors > errorsBefore ? true : undefined), 10_000);
        expect(indexer.status().lastError).to.match(/timeout/);
        // answered again: the next step succeeds (after the retry's back-off) and clears the error
        await proxy.restore();
        await eventually(async () => (indexer.status().lastError === null ? true : undefined), 30_000);
        expect(indexer.status().rpcErrors).to.be.greaterThan(errorsBefore);
      } finally {
        await proxy.cut();
      }
    });

    it("stops without waiting for a read the stalled node holds: the read is aborted, not awaited until its bound", async function () {
      const { gateway: stopping, proxy } = await behindProxy("stall-stop", 120_000);
      try {
        proxy.stall();
        await heldFor(stopping, 300);
        const outcome = await Promise.race([
          stopping.close().then(() => "stopped"),
          new Promise((resolve) => setTimeout(resolve, 30_000, "still waiting for the node")),
        ]);
        gateway = undefined;
        expect(outcome).to.equal("stopped");
        expect(stopping.indexers[0].inFlight()).to.deep.include({ ms: null, rpc: [] });
      } finally {
        await proxy.cut();
      }
    });

    it("answers 503 while an indexer lags more than the configured blocks behind, until it has caught up", async function () {
      gateway = await startGateway(
        testConfig(live, {
          databaseUrl: postgres.url(),
          dataDir: path.join(live.dir, "lag"),
          // five blocks per batch: 400 new blocks take the indexer 80 batches, long enough to be seen
          // lagging (one per batch took 400, and 27 s of the tier in CI)
          batchBlocks: 5,
          pollIntervalMs: 20,
          defaultReadyMaxLagBlocks: 10,
        }),
      );
      await gateway.synced(120_000);
      // ready once its indexer keeps up, as in the stall case above (in CI, on a busy machine, the
      // first answer after the sync was once a 503)
      expect(await readyzUntil(gateway, (p) => p.status === 200)).to.deep.include({ ready: true, reasons: [] });

      await live.rpc.send("hardhat_mine", ["0x190"]);
      const lagging = await readyzUntil(gateway, (p) => p.status === 503, 10_000);
      expect(lagging.reasons[0]).to.match(
        /^arbitrum: the indexer is \d+ blocks behind \(head \d+, depth 0, indexed \d+; at most 10\)$/,
      );
      expect(Number(/is (\d+) blocks/.exec(lagging.reasons[0])![1])).to.be.greaterThan(10);
      expect(await readyzUntil(gateway, (p) => p.status === 200, 120_000)).to.deep.include({ ready: true });
      const head = await live.rpc.getBlockNumber();
      expect(gateway.indexers[0].status().indexedBlock).to.be.at.least(head - 10);
    });
  });
});
