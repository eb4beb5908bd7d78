import path from "node:path";

import { expect } from "chai";
import { eq } from "drizzle-orm";

import { KeyService } from "../../../gateway/auth/keys.js";
import { openStore } from "../../../gateway/store/db.js";
import { webhookDeliveries } from "../../../gateway/store/schema.js";
import { webhookSettings } from "../../../gateway/webhooks/settings.js";
import { SubscriptionService } from "../../../gateway/webhooks/subscriptions.js";
import { ROLE, spawnGatewayProcess, sharedLiveDeployment } from "../../../testing/fixtures.js";
import type { GatewayProcess, LiveDeployment } from "../../../testing/fixtures.js";
import { TestReceiver } from "../../../testing/local-servers.js";
import { PrivatePostgres } from "../../helpers/postgres.js";
import { LocalRedis } from "../../helpers/redis.js";

const JWT_SECRET = "instances-test-secret-of-at-least-32-chars";
const ACCOUNT_KEY = "5e".repeat(32);

/** A request's outcome: the instance that answered, or the failure. */
interface Outcome {
  kind: "read" | "write";
  instance: "a" | "b";
  status: number | "failed";
  /** A write retried on the other instance after the first one failed. */
  retried?: boolean;
  reason?: string;
}

describe("Two gateway instances on one PostgreSQL and one Redis, one killed under load (real processes)", function () {
  this.timeout(600_000);
  let live: LiveDeployment;
  let postgres: PrivatePostgres;
  let redis: LocalRedis;
  const receiver = new TestReceiver();

  before(async function () {
    live = await sharedLiveDeployment("instances", { satellite: false });
    postgres = await PrivatePostgres.create();
    redis = await LocalRedis.start();
    await receiver.start();
  });

  after(async function () {
    await receiver.stop();
    redis?.stop();
    postgres?.destroy();
    await live?.stop();
  });

  it("the survivor answers no 5xx, every event is delivered, none under two delivery ids", async function () {
    const databaseUrl = postgres.url();
    const user = live.signers[ROLE.user];
    const store = await openStore({ databaseUrl, dataDir: path.join(live.dir, "unused") });
    let token: string;
    let subscriptionId: string;
    try {
      ({ token } = await new KeyService(store.db, JWT_SECRET).create({
        tier: "enterprise",
        rateLimit: 100_000,
        account: user.address,
        scopes: ["read", "write"],
      }));
      const sub = await new SubscriptionService(store.db, webhookSettings("devnet")).create(user.address, {
        url: receiver.url,
        events: ["sstb.transferred"],
      });
      receiver.secrets = [sub.secret];
      subscriptionId = sub.subscription_id;
    } finally {
      await store.close();
    }
    const env = (name: string): NodeJS.ProcessEnv => ({
      ...process.env,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redis.url,
      GATEWAY_DATA_DIR: path.join(live.dir, name),
      GATEWAY_DEPLOYMENT_FILE: live.deploymentFile,
      GATEWAY_PORT: "0",
      GATEWAY_POLL_MS: "50",
      GATEWAY_JWT_SECRET: JWT_SECRET,
      // one master key for both, as an operator gives them: each opens what the other sealed (a stored
      // idempotent response replayed on the survivor); with a key of its own, b would refuse to start
      GATEWAY_ACCOUNT_KEY: ACCOUNT_KEY,
      // a 1 s timeout: a delivery the kill interrupted is due again after its 7 s lease
      GATEWAY_WEBHOOK_TIMEOUT_MS: "1000",
      GATEWAY_LOG_LEVEL: "info", // the start line the fixture waits for is at info (requests log at debug)
    });
    const gateways: Record<"a" | "b", GatewayProcess> = {
      a: await spawnGatewayProcess(env("a")),
      b: await spawnGatewayProcess(env("b")),
    };
    // a third given a key of its own is refused at start, saying why (not 500s on the other's data)
    const refused = await spawnGatewayProcess({ ...env("c"), GATEWAY_ACCOUNT_KEY: "c3".repeat(32) }).then(
      async (started) => {
        await started.kill();
        return "started";
      },
      (error: Error) => error.message,
    );
    expect(refused).to.include("the gateway exited before it started");
    expect(refused).to.include("GATEWAY_ACCOUNT_KEY is not the master key this database's sealed data");
    // both in rotation (their indexers caught up) before the load starts
    await Promise.all([gateways.a.ready(), gateways.b.ready()]);
    let killed = false;
    const outcomes: Outcome[] = [];
    const queuedTests: string[] = [];
    const transfers: string[] = [];
    const send = async (instance: "a" | "b", method: string, p: string, headers: Record<string, string> = {}) => {
      const response = await fetch(gateways[instance].url + p, {
        method,
        headers: { authorization: `Bearer ${token}`, ...headers },
      });
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    };
    let stop = false;
    let n = 0;
    // a client in front of both, as a load balancer spreads it: a request that fails on a dead
    // instance goes to the other, a write with the same Idempotency-Key
    const clients = Array.from({ length: 6 }, async (_, c) => {
      while (!stop) {
        const first: "a" | "b" = killed ? "b" : n++ % 2 === 0 ? "a" : "b";
        if (c < 3) {
          const p = c % 2 === 0 ? "/api/v1/cu/list?limit=3" : "/api/v1/providers/list";
          try {
            outcomes.push({ kind: "read", instance: first, status: (await send(first, "GET", p)).status });
          } catch {
            outcomes.push({ kind: "read", instance: first, status: "failed" });
            if (first === "a")
              outcomes.push({ kind: "read", instance: "b", status: (await send("b", "GET", p)).status, retried: true });
          }
        } else {
          const key = `instances-${c}-${n++}`;
          const p = `/api/v1/webhooks/${subscriptionId}/test`;
          try {
            const r = await send(first, "POST", p, { "idempotency-key": key });
            outcomes.push({ kind: "write", instance: first, status: r.status });
            if (r.status === 202) queuedTests.push(r.body.data.delivery_id);
          } catch {
            outcomes.push({ kind: "write", instance: first, status: "failed" });
            if (first === "a") {
              const r = await send("b", "POST", p, { "idempotency-key": key });
              outcomes.push({
                kind: "write",
                instance: "b",
                status: r.status,
                retried: true,
                reason: r.body.error?.details?.reason,
              });
              if (r.status === 202) queuedTests.push(r.body.data.delivery_id);
            }
          }
        }
      }
    });
    // chain activity: transfers whose webhooks either instance may deliver
    const chain = (async () => {
      while (!stop) {
        const receipt = await (await live.d.sstb.connect(user).transfer(live.signers[ROLE.user2].address, 0n)).wait();
        transfers.push(receipt!.hash);
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    await gateways.a.kill();
    killed = true;
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    stop = true;
    await Promise.all([...clients, chain]);

    try {
      const fromB = outcomes.filter((o) => o.instance === "b");
      const serverErrors = fromB.filter((o) => o.status === "failed" || (o.status as number) >= 500);
      expect(serverErrors, JSON.stringify(serverErrors.slice(0, 5))).to.deep.equal([]);
      expect(fromB.filter((o) => !o.retried && o.status === 200).length, "the survivor served reads").to.be.greaterThan(
        5,
      );
      // a write retried on the survivor ran there, or was refused as abandoned when the dead instance
      // had taken its key (its outcome unknown): never another answer
      for (const retried of fromB.filter((o) => o.retried && o.kind === "write")) {
        expect(
          retried.status === 202 || (retried.status === 400 && retried.reason === "abandoned"),
          JSON.stringify(retried),
        ).to.equal(true);
      }
      expect(
        outcomes.filter((o) => o.instance === "a" && o.status === 200).length,
        "both served before the kill",
      ).to.be.greaterThan(3);

      // every transfer's event and every accepted test event is delivered (the survivor takes over
      // what the dead one had leased once its lease runs out), each under one delivery id
      await receiver.waitFor(
        (r) =>
          transfers.every((hash) => r.some((x) => x.payload.data.transactionHash === hash)) &&
          queuedTests.every((id) => r.some((x) => x.deliveryId === id)),
        90_000,
        "every event",
      );
      const byEvent = new Map<string, Set<string>>();
      for (const r of receiver.received) {
        byEvent.set(r.payload.id, (byEvent.get(r.payload.id) ?? new Set()).add(r.deliveryId));
      }
      for (const [event, ids] of byEvent)
        expect(ids.size, `${event} arrived under ${ids.size} delivery ids`).to.equal(1);
      const check = await openStore({ databaseUrl, dataDir: path.join(live.dir, "unused") });
      try {
        const rows = await check.db
          .select({ id: webhookDeliveries.deliveryId, eventId: webhookDeliveries.eventId })
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.subscriptionId, subscriptionId));
        expect(new Set(rows.map((r) => r.eventId)).size, "one delivery per event").to.equal(rows.length);
      } finally {
        await check.close();
      }
      console.log(
        `      ${outcomes.length} requests (${outcomes.filter((o) => o.status === "failed").length} failed on the killed ` +
          `instance, retried on the survivor), ${transfers.length} transfers, ${queuedTests.length} test events, ` +
          `${receiver.received.length} deliveries received for ${byEvent.size} events`,
      );
    } finally {
      await gateways.b.terminate();
    }
  });
});
