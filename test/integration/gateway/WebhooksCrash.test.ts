import path from "node:path";

import { expect } from "chai";
import { eq } from "drizzle-orm";

import { startGateway } from "../../../gateway/server.js";
import { openStore } from "../../../gateway/store/db.js";
import type { Db } from "../../../gateway/store/db.js";
import { events, webhookDeliveries } from "../../../gateway/store/schema.js";
import { WEBHOOK_EVENTS } from "../../../gateway/webhooks/events.js";
import { webhookSettings } from "../../../gateway/webhooks/settings.js";
import { SubscriptionService } from "../../../gateway/webhooks/subscriptions.js";
import {
  ROLE,
  populate,
  resetDatabase,
  spawnGatewayProcess,
  sharedLiveDeployment,
  testConfig,
} from "../../../testing/fixtures.js";
import type { LiveDeployment } from "../../../testing/fixtures.js";
import { TestReceiver } from "../../../testing/local-servers.js";

/** The chain position (`chainId:txHash:logIndex`) of an on-chain event id (`...:<event>`). */
const positionOf = (eventId: string) => eventId.split(":").slice(0, 3).join(":");

/** The subscription's queued event ids, and the positions of every indexed event. */
async function outboxAndEvents(db: Db, subscriptionId: string) {
  const queued = await db
    .select({ eventId: webhookDeliveries.eventId })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.subscriptionId, subscriptionId));
  const indexed = await db
    .select({ chainId: events.chainId, txHash: events.txHash, logIndex: events.logIndex })
    .from(events);
  return {
    queued: queued.map((q) => q.eventId).sort(),
    positions: new Set(indexed.map((e) => `${e.chainId}:${e.txHash}:${e.logIndex}`)),
  };
}

describe(`Webhooks across SIGKILLs on ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"} (real gateway processes)`, function () {
  this.timeout(600_000);
  let live: LiveDeployment;
  const receiver = new TestReceiver();
  /** Every event id a full, uninterrupted index of the chain queues for a subscription to everything. */
  let reference: string[];
  const owner = () => live.signers[ROLE.user].address;

  before(async function () {
    live = await sharedLiveDeployment("webhooks-crash", { satellite: false });
    await populate(live);
    await receiver.start();
    await resetDatabase();
    const clean = await startGateway(testConfig(live, { dataDir: path.join(live.dir, "reference") }), {
      listen: false,
      index: false,
      deliver: false,
    });
    const sub = await clean.webhooks.subscriptions.create(owner(), { url: receiver.url, events: [...WEBHOOK_EVENTS] });
    await clean.indexers[0].catchUp();
    reference = (await outboxAndEvents(clean.store.db, sub.subscription_id)).queued;
    await clean.close();
  });

  after(async function () {
    await receiver.stop();
    await live?.stop();
  });

  it("never commits an event without its outbox rows, and delivers every event after restarts (duplicates only with the same delivery id)", async function () {
    expect(reference.length, "the fixture announces events").to.be.greaterThan(40);
    await resetDatabase();
    const dataDir = path.join(live.dir, "killed");
    const config = testConfig(live, { dataDir, webhooks: { timeoutMs: 1_000 } });
    const store = await openStore({ databaseUrl: config.databaseUrl, dataDir });
    const sub = await new SubscriptionService(store.db, webhookSettings("devnet")).create(owner(), {
      url: receiver.url,
      events: [...WEBHOOK_EVENTS],
    });
    await store.close();
    receiver.secrets = [sub.secret];

    const env = {
      ...process.env,
      GATEWAY_DATA_DIR: dataDir,
      GATEWAY_DEPLOYMENT_FILE: live.deploymentFile,
      GATEWAY_PORT: "0",
      GATEWAY_BATCH_BLOCKS: "2",
      GATEWAY_POLL_MS: "20",
      GATEWAY_JWT_SECRET: config.jwtSecret,
      // a 1 s timeout: a delivery a kill interrupted is due again after its 7 s lease
      GATEWAY_WEBHOOK_TIMEOUT_MS: "1000",
    };
    const partialCounts: number[] = [];
    for (const delay of [150, 500, 1_000]) {
      const gateway = await spawnGatewayProcess(env);
      await new Promise((resolve) => setTimeout(resolve, delay));
      await gateway.kill();

      const after = await openStore({ databaseUrl: config.databaseUrl, dataDir });
      const { queued, positions } = await outboxAndEvents(after.db, sub.subscription_id);
      await after.close();
      // exactly the reference's rows for the events that were committed: none missing, none extra
      const expected = reference.filter((id) => positions.has(positionOf(id)));
      expect(queued, `after a kill at ${delay} ms`).to.deep.equal(expected);
      partialCounts.push(queued.length);
    }
    expect(
      partialCounts.some((n) => n < reference.length),
      `a kill landed mid-way (outbox sizes ${partialCounts.join(", ")} of ${reference.length})`,
    ).to.equal(true);

    const resumed = await startGateway(config, { listen: false });
    try {
      await resumed.synced();
      const wanted = new Set(reference);
      await receiver.waitFor((r) => new Set(r.map((x) => x.payload.id)).size === wanted.size, 120_000, "every event");
      const received = receiver.received;
      expect(new Set(received.map((x) => x.payload.id))).to.deep.equal(wanted);
      for (const id of wanted) {
        const deliveries = new Set(received.filter((x) => x.payload.id === id).map((x) => x.deliveryId));
        expect(deliveries.size, `${id} arrived under one delivery id`).to.equal(1);
      }
      const rows = await resumed.store.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.subscriptionId, sub.subscription_id));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(rows.length).to.equal(reference.length);
      const duplicates = received.length - wanted.size;
      console.error(`      ${reference.length} events, ${duplicates} duplicate deliveries after 3 SIGKILLs`);
      expect(receiver.hits.filter((h) => h.answer === "refused")).to.have.length(0);
    } finally {
      await resumed.close();
    }
  });
});
