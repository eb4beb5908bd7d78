import path from "node:path";

import { expect } from "chai";
import { asc } from "drizzle-orm";
import { parseEther } from "ethers";

import { startGateway } from "../../../gateway/server.js";
import type { Gateway } from "../../../gateway/server.js";
import { openStore } from "../../../gateway/store/db.js";
import type { Db } from "../../../gateway/store/db.js";
import * as schema from "../../../gateway/store/schema.js";
import {
  ROLE,
  populate,
  resetDatabase,
  spawnGatewayProcess,
  sharedLiveDeployment,
  testConfig,
} from "../../../testing/fixtures.js";
import type { LiveDeployment } from "../../../testing/fixtures.js";

/** Every indexed table, ordered, as plain JSON: two stores that indexed the same chain compare equal. */
async function dump(db: Db) {
  const tables = {
    events: [schema.events, [schema.events.chainId, schema.events.blockNumber, schema.events.logIndex]],
    providers: [schema.providers, [schema.providers.providerId]],
    computeUnits: [schema.computeUnits, [schema.computeUnits.chainId, schema.computeUnits.cuId]],
    verifications: [schema.verifications, [schema.verifications.verificationId]],
    redemptions: [schema.redemptions, [schema.redemptions.redemptionId]],
    balances: [schema.balances, [schema.balances.chainId, schema.balances.account]],
    parameters: [schema.parameters, [schema.parameters.chainId, schema.parameters.contract, schema.parameters.name]],
    listings: [schema.listings, [schema.listings.listingId]],
    trades: [schema.trades, [schema.trades.chainId, schema.trades.blockNumber, schema.trades.logIndex]],
  } as const;
  const out: Record<string, unknown> = {};
  for (const [name, [table, order]] of Object.entries(tables)) {
    out[name] = JSON.parse(
      JSON.stringify(
        await db
          .select()
          .from(table as typeof schema.events)
          .orderBy(...(order as readonly (typeof schema.events.chainId)[]).map((c) => asc(c))),
      ),
    );
  }
  return out as Record<keyof typeof tables, unknown[]>;
}

/** Every log of the deployment's contracts on the primary chain, as the indexer must have stored them. */
async function chainLogCount(live: LiveDeployment, head: number): Promise<number> {
  const file = JSON.parse(await import("node:fs/promises").then((fs) => fs.readFile(live.deploymentFile, "utf8")));
  const addresses = Object.entries(file.arbitrum as Record<string, unknown>)
    .filter(([name, v]) => typeof v === "string" && name !== "rpcUrl" && !name.endsWith("Implementation"))
    .map(([, v]) => v as string);
  return (await live.rpc.getLogs({ address: addresses, fromBlock: 0, toBlock: head })).length;
}

describe(`Indexer on ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"} (real hardhat node)`, function () {
  this.timeout(300_000);
  let live: LiveDeployment;
  let reference: Awaited<ReturnType<typeof dump>>;
  let head: number;

  before(async function () {
    live = await sharedLiveDeployment("indexer", { satellite: false });
    await populate(live);
    head = await live.rpc.getBlockNumber();
    // a clean run to compare every interrupted run with
    await resetDatabase();
    const gateway = await startGateway(testConfig(live, { dataDir: path.join(live.dir, "reference") }), {
      listen: false,
    });
    await gateway.synced();
    reference = await dump(gateway.store.db);
    await gateway.close();
  });

  after(async function () {
    await live?.stop();
  });

  it("stores every log of every contract once, in chain order", async function () {
    expect(reference.events.length).to.equal(await chainLogCount(live, head));
    const positions = reference.events.map((e: any) => `${e.blockNumber}:${e.logIndex}`);
    expect(new Set(positions).size).to.equal(positions.length);
    expect(reference.providers).to.have.length(4);
    expect(reference.listings).to.have.length(7);
  });

  it("loses and duplicates nothing when a batch fails mid-way, at any event", async function () {
    const total = reference.events.length;
    for (const failAt of [1, Math.floor(total / 3), total - 1]) {
      await resetDatabase();
      const dataDir = path.join(live.dir, `fail-${failAt}`);
      let applied = 0;
      const failing = await startGateway(testConfig(live, { dataDir, batchBlocks: 7 }), {
        listen: false,
        index: false,
        afterApply: () => {
          if (++applied === failAt) throw new Error("injected failure inside the batch's transaction");
        },
      });
      let failed = false;
      try {
        await failing.indexers[0].catchUp();
      } catch (error) {
        failed = (error as Error).message.includes("injected failure");
      }
      expect(failed, `failure at event ${failAt}`).to.equal(true);
      const partial = await dump(failing.store.db);
      expect(partial.events.length).to.be.lessThan(total);
      await failing.close();

      const resumed = await startGateway(testConfig(live, { dataDir, batchBlocks: 7 }), { listen: false });
      await resumed.synced();
      expect(await dump(resumed.store.db), `resumed after a failure at event ${failAt}`).to.deep.equal(reference);
      await resumed.close();
    }
  });

  it("loses and duplicates nothing when the gateway process is killed (SIGKILL) while indexing, again and again", async function () {
    await resetDatabase();
    const dataDir = path.join(live.dir, "killed");
    const env = {
      ...process.env,
      GATEWAY_DATA_DIR: dataDir,
      GATEWAY_DEPLOYMENT_FILE: live.deploymentFile,
      GATEWAY_PORT: "0",
      GATEWAY_BATCH_BLOCKS: "2",
      GATEWAY_POLL_MS: "20",
      GATEWAY_JWT_SECRET: "test-secret-of-at-least-thirty-two-characters",
    };
    let cursors: number[] = [];
    for (const delay of [100, 400, 900]) {
      const gateway = await spawnGatewayProcess(env);
      await new Promise((r) => setTimeout(r, delay));
      await gateway.kill();
      const store = await openStore({ databaseUrl: process.env.DATABASE_URL, dataDir });
      const [cursor] = await store.db.select().from(schema.cursors);
      cursors.push(cursor?.blockNumber ?? -1);
      const partial = await dump(store.db);
      // whatever was committed is a prefix of the reference: nothing half-applied, nothing twice
      expect(partial.events, gateway.output()).to.deep.equal(reference.events.slice(0, partial.events.length));
      await store.close();
    }
    cursors = cursors.filter((c) => c >= 0);
    expect(cursors.length, "the indexer committed batches before being killed").to.be.greaterThan(0);
    const lastEventBlock = (reference.events[reference.events.length - 1] as { blockNumber: number }).blockNumber;
    expect(
      cursors.some((c) => c < lastEventBlock),
      `a kill landed mid-way (cursors ${cursors.join(", ")}, last event in block ${lastEventBlock})`,
    ).to.equal(true);
    const resumed = await startGateway(testConfig(live, { dataDir }), { listen: false });
    await resumed.synced();
    expect(await dump(resumed.store.db)).to.deep.equal(reference);
    await resumed.close();
  });

  describe("reorgs (evm_snapshot / evm_revert on the node)", function () {
    let gateway: Gateway;
    const balanceOf = async (account: string) => {
      const r = await fetch(`${gateway.url}/v1/sstb/balance`, { headers: { authorization: `Bearer ${token}` } });
      void account;
      return ((await r.json()) as any).data.sstb_balance_base_units as string;
    };
    let token: string;

    afterEach(async function () {
      await gateway?.close();
    });

    /**
     * A fresh database and a synced gateway on it (in `dir` under the deployment's folder), with a key
     * of the account whose balance a test watches: the sender, that account, and its balance now.
     */
    async function watchBalance(dir: string, options: { defaultConfirmations?: number } = {}) {
      await resetDatabase();
      gateway = await startGateway(testConfig(live, { dataDir: path.join(live.dir, dir), ...options }));
      await gateway.synced();
      const user = live.signers[ROLE.user];
      const other = live.signers[ROLE.user2];
      ({ token } = await gateway.keys.create({ tier: "premium", account: other.address }));
      return { user, other, start: await live.d.sstb.balanceOf(other.address) };
    }

    it("never shows blocks shallower than the confirmation depth, so a shallower reorg is invisible", async function () {
      await resetDatabase();
      gateway = await startGateway(
        testConfig(live, { dataDir: path.join(live.dir, "depth"), defaultConfirmations: 3 }),
      );
      for (let i = 0; i < 3; i++) await live.rpc.send("evm_mine", []); // what came before is confirmed
      await gateway.synced();
      const user = live.signers[ROLE.user];
      const other = live.signers[ROLE.user2];
      ({ token } = await gateway.keys.create({ tier: "premium", account: other.address }));
      const before = await balanceOf(other.address);

      const snapshot = await live.rpc.send("evm_snapshot", []);
      await (await live.d.sstb.connect(user).transfer(other.address, parseEther("1"))).wait(); // to be reorged away
      await live.rpc.send("evm_mine", []);
      await new Promise((r) => setTimeout(r, 500));
      expect(await balanceOf(other.address), "a transfer 2 blocks deep is not shown yet").to.equal(before);
      await live.rpc.send("evm_revert", [snapshot]);
      // the other branch: a different transfer, then enough blocks to confirm it
      await (await live.d.sstb.connect(user).transfer(other.address, parseEther("2"))).wait();
      for (let i = 0; i < 3; i++) await live.rpc.send("evm_mine", []);
      await gateway.synced();
      expect(await balanceOf(other.address)).to.equal((BigInt(before) + parseEther("2")).toString());
      expect(BigInt(await balanceOf(other.address))).to.equal(await live.d.sstb.balanceOf(other.address));
    });

    it("notices a reorg under its cursor (depth 0) and rebuilds from the events still on the chain", async function () {
      const { user, other, start } = await watchBalance("reorg", { defaultConfirmations: 0 });

      const snapshot = await live.rpc.send("evm_snapshot", []);
      await (await live.d.sstb.connect(user).transfer(other.address, parseEther("3"))).wait();
      await gateway.synced();
      expect(await balanceOf(other.address), "indexed at depth 0").to.equal((start + parseEther("3")).toString());

      await live.rpc.send("evm_revert", [snapshot]);
      await (await live.d.sstb.connect(user).transfer(other.address, parseEther("0.5"))).wait();
      await live.rpc.send("evm_mine", []);
      await live.rpc.send("evm_mine", []);
      await gateway.synced();
      const onChain = await live.d.sstb.balanceOf(other.address);
      expect(onChain).to.equal(start + parseEther("0.5"));
      expect(await balanceOf(other.address)).to.equal(onChain.toString());
      // and every table equals a fresh index of the chain as it is now
      const after = await dump(gateway.store.db);
      await gateway.close();
      await resetDatabase();
      const fresh = await startGateway(testConfig(live, { dataDir: path.join(live.dir, "fresh") }), { listen: false });
      await fresh.synced();
      expect(after).to.deep.equal(await dump(fresh.store.db));
      await fresh.close();
    });

    it("notices a reorg to another block of the same height while idle, where only the latest block's hash differs", async function () {
      const { user, other, start } = await watchBalance("same-height");

      const snapshot = await live.rpc.send("evm_snapshot", []);
      await (await live.d.sstb.connect(user).transfer(other.address, parseEther("4"))).wait();
      const height = await live.rpc.getBlockNumber();
      await gateway.synced();
      await new Promise((r) => setTimeout(r, 300)); // idle polls at that head
      expect(await balanceOf(other.address)).to.equal((start + parseEther("4")).toString());

      await live.rpc.send("evm_revert", [snapshot]);
      await (await live.d.sstb.connect(user).transfer(other.address, parseEther("0.25"))).wait();
      expect(await live.rpc.getBlockNumber(), "the new branch's block has the old one's height").to.equal(height);
      const until = Date.now() + 20_000;
      while ((await balanceOf(other.address)) !== (start + parseEther("0.25")).toString()) {
        if (Date.now() > until) expect.fail(`still ${await balanceOf(other.address)} after 20 s`);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(gateway.indexers[0].status().reorgs).to.equal(1);
    });
  });

  describe("polling", function () {
    it("asks an idle chain for its latest block only: no cursor query, no other request", async function () {
      await resetDatabase();
      const gateway = await startGateway(testConfig(live, { dataDir: path.join(live.dir, "idle") }), {
        listen: false,
      });
      try {
        await gateway.synced();
        await new Promise((r) => setTimeout(r, 300));
        const rpc = gateway.indexers[0].rpc;
        const sent: string[] = [];
        const send = rpc.send.bind(rpc);
        rpc.send = (method: string, params: unknown[] | Record<string, unknown>) => {
          sent.push(`${method} ${JSON.stringify(params)}`);
          return send(method, params);
        };
        const queries: string[] = [];
        const execute = gateway.store.db.select.bind(gateway.store.db);
        gateway.store.db.select = ((...args: Parameters<typeof execute>) => {
          queries.push(new Error().stack ?? "");
          return execute(...args);
        }) as typeof execute;
        await new Promise((r) => setTimeout(r, 1_000));
        rpc.send = send;
        gateway.store.db.select = execute;
        // the test configuration polls every 50 ms
        expect(sent.length).to.be.greaterThan(5);
        expect(new Set(sent)).to.deep.equal(new Set(['eth_getBlockByNumber ["latest",false]']));
        expect(queries.filter((stack) => stack.includes("indexer/indexer"))).to.deep.equal([]);
      } finally {
        await gateway.close();
      }
    });
  });

  it("reports the lag from a mined event to the API showing it", async function () {
    await resetDatabase();
    const gateway = await startGateway(testConfig(live, { dataDir: path.join(live.dir, "lag"), pollIntervalMs: 200 }));
    await gateway.synced();
    const user = live.signers[ROLE.user];
    const other = live.signers[ROLE.user2];
    const { token } = await gateway.keys.create({ tier: "enterprise", account: other.address, rateLimit: 100_000 });
    const lags: number[] = [];
    for (let i = 0; i < 10; i++) {
      const receipt = (await (await live.d.sstb.connect(user).transfer(other.address, 1n)).wait())!;
      const mined = Date.now(); // the receipt is back: the block is mined
      const expected = (await live.d.sstb.balanceOf(other.address, { blockTag: receipt.blockNumber })).toString();
      while (true) {
        const r = await fetch(`${gateway.url}/v1/sstb/balance`, { headers: { authorization: `Bearer ${token}` } });
        if (((await r.json()) as any).data.sstb_balance_base_units === expected) break;
        if (Date.now() - mined > 10_000) throw new Error("the API did not show the transfer within 10 s");
        await new Promise((r) => setTimeout(r, 5));
      }
      lags.push(Date.now() - mined);
    }
    await gateway.close();
    lags.sort((a, b) => a - b);
    const median = lags[Math.floor(lags.length / 2)];
    console.log(
      `      indexer lag (poll interval 200 ms, depth 0): median ${median} ms, max ${lags[lags.length - 1]} ms, n=${lags.length}`,
    );
    expect(median).to.be.lessThan(2_000);
  });
});
