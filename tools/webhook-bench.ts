// `npm run bench:webhooks` (add DATABASE_URL for PostgreSQL too): webhook latency from a mined event
// to a real receiver, and deliveries per second with one and three workers against receivers that
// answer at once or after 20 ms, beside a bare HTTP client measured in the same run; writes
// docs/webhook-bench.md. Not part of `npm test`.
import http from "node:http";
import { cpus, loadavg } from "node:os";
import { writeFile } from "node:fs/promises";

import { and, isNotNull, like } from "drizzle-orm";
import { getAddress } from "ethers";

import { DELIVERY_HEADER, EVENT_HEADER, signatureHeaders } from "@compute-capacity/sdk";
import { webhookSettings } from "../gateway/webhooks/settings.js";
import { DeliveryWorkers } from "../gateway/webhooks/worker.js";
import { WebhookSecrets } from "../gateway/webhooks/secrets.js";
import { Sealer } from "../gateway/accounts/sealed.js";
import { nodeHmac } from "../gateway/webhooks/signature.js";
import { silentLog } from "../gateway/observability/log.js";
import type { Gateway } from "../gateway/server.js";
import { webhookDeliveries } from "../gateway/store/schema.js";
import { ROLE, startLiveDeployment, startTestGateway, TEST_ACCOUNT_KEY } from "../testing/fixtures.js";
import { TestReceiver } from "../testing/local-servers.js";

const TRANSFERS = Number(process.env.BENCH_TRANSFERS ?? 50);
/** Deliveries per measurement, spread over {@link SUBSCRIPTIONS} subscriptions. */
const BURST = Number(process.env.BENCH_DELIVERIES ?? 1200);
const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 12);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Requests the bare client keeps in flight (as three workers of the default concurrency could). */
const BARE_IN_FLIGHT = 48;

/** Issue 26's goals, deliveries per second with three workers. */
export const WEBHOOK_GOALS = { instant: 1_000, slow: 300 } as const;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const median = (values: number[]) => percentile(values, 50);

/** A backlog's measurement: deliveries per second, and whether order and uniqueness held. */
interface Drain {
  perSecond: number;
  inOrder: boolean;
  duplicates: number;
}

/**
 * POSTs signed bodies with a keep-alive client, `inFlight` at a time, for `count` requests: what the
 * machine does right now without the gateway (no database, no claim, no delivery log).
 */
async function bareClient(receiver: TestReceiver, secret: string, count: number, inFlight: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: inFlight });
  const body = JSON.stringify({ id: "bare", event: "verification.completed", timestamp: 0, data: {} });
  const one = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const request = http.request(receiver.url, {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          // every header a delivery carries (the receiver checks the Standard Webhooks ones), made per request as the worker does
          ...signatureHeaders(
            { id: `bare-${i}`, timestamp: Math.floor(Date.now() / 1000), body, secrets: [secret], specSecret: secret },
            nodeHmac,
          ),
          [DELIVERY_HEADER]: `bare-${i}`,
          [EVENT_HEADER]: "verification.completed",
        },
      });
      request.on("socket", (socket) => socket.setNoDelay(true));
      request.on("response", (response) => {
        response.resume();
        response.on("end", () =>
          response.statusCode === 200 ? resolve() : reject(new Error(`${response.statusCode}`)),
        );
      });
      request.on("error", reject);
      request.end(body);
    });
  let next = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) await one(next++);
    }),
  );
  agent.destroy();
  return count / ((Date.now() - started) / 1000);
}

/** Queues `count` deliveries over the subscriptions (round robin) and drains them with `workers` workers. */
async function drain(
  gateway: Gateway,
  subscriptions: Array<{ account: string; receiver: TestReceiver }>,
  count: number,
  workers: number,
  label: string,
): Promise<Drain> {
  for (const s of subscriptions) s.receiver.received.length = 0;
  await gateway.store.db.transaction(async (tx) => {
    for (let i = 0; i < count; i++) {
      await gateway.webhooks.outbox.publish(tx, {
        id: `bench:${label}:${i}`,
        event: "verification.completed",
        timestamp: Math.floor(Date.now() / 1000),
        data: { verification_id: String(i) },
        accounts: [subscriptions[i % subscriptions.length].account],
      });
    }
  });
  // as another gateway's workers on the database: they open the subscriptions' secrets with the master
  // key the gateway sealed them under (decision 0167; with a key of their own they could send nothing)
  const pool = new DeliveryWorkers(
    gateway.store.db,
    webhookSettings("devnet", { pollMs: 20 }),
    undefined,
    silentLog,
    new WebhookSecrets(new Sealer(TEST_ACCOUNT_KEY)),
  );
  const started = Date.now();
  pool.start(workers);
  const received = () => subscriptions.reduce((sum, s) => sum + s.receiver.received.length, 0);
  while (received() < count) {
    // a pool that can send nothing (it cannot open the secrets, the receivers refuse it) says why at once
    if (received() === 0 && Date.now() - started > 15_000) {
      const [failed] = await gateway.store.db
        .select({ error: webhookDeliveries.lastError })
        .from(webhookDeliveries)
        .where(and(like(webhookDeliveries.eventId, `bench:${label}:%`), isNotNull(webhookDeliveries.lastError)))
        .limit(1);
      await pool.close();
      throw new Error(`${label}: nothing delivered in 15 s (a delivery's last error: ${failed?.error ?? "none"})`);
    }
    if (Date.now() - started > 600_000) throw new Error(`${label}: ${received()} of ${count} delivered in 10 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const seconds = (Date.now() - started) / 1000;
  await pool.close();
  let inOrder = true;
  let duplicates = 0;
  for (const { receiver } of subscriptions) {
    const ids = receiver.received.map((r) => Number(r.payload.data.verification_id));
    for (let i = 1; i < ids.length; i++) if (ids[i] < ids[i - 1]) inOrder = false;
    duplicates += receiver.received.length - new Set(receiver.received.map((r) => r.deliveryId)).size;
  }
  return { perSecond: count / seconds, inOrder, duplicates };
}

/** Runs the benchmark and writes its report under docs/ (see the header of this file). */
export async function runWebhookBench(): Promise<void> {
  const loadBefore = loadavg();
  const live = await startLiveDeployment("bench-webhooks", { satellite: false });
  const latencyRows: string[] = [];
  const rows: string[] = [];
  const goals: string[] = [];
  const databases = [{ name: "PGlite", url: undefined as string | undefined }];
  if (process.env.DATABASE_URL) databases.push({ name: "PostgreSQL", url: process.env.DATABASE_URL });
  try {
    for (const db of databases) {
      if (db.url) process.env.DATABASE_URL = db.url;
      else delete process.env.DATABASE_URL;
      // the devnet's own polling: indexer every 200 ms, idle workers every 100 ms
      const gateway = await startTestGateway(live, {
        dataDir: `${live.dir}/bench-${db.name}`,
        pollIntervalMs: 200,
        webhooks: { pollMs: 100 },
      });
      const user = live.signers[ROLE.user];
      const receiver = await new TestReceiver().start();
      const created = await gateway.webhooks.subscriptions.create(user.address, {
        url: receiver.url,
        events: ["sstb.transferred"],
      });
      receiver.secrets = [created.secret];

      // --- latency: mined (receipt in hand) -> accepted by the receiver ---
      const latencies: number[] = [];
      for (let i = 0; i < TRANSFERS; i++) {
        // a transfer of 0 sSTB: a real Transfer event without minting first
        const receipt = await (await live.d.sstb.connect(user).transfer(live.signers[ROLE.user2].address, 0n)).wait();
        const mined = Date.now();
        await receiver.waitFor((r) => r.some((x) => x.payload.data.transactionHash === receipt!.hash), 10_000);
        latencies.push(receiver.received.find((x) => x.payload.data.transactionHash === receipt!.hash)!.at - mined);
      }
      latencyRows.push(
        `| ${db.name} | latency, mined -> receiver (${TRANSFERS} transfers) | median ${percentile(latencies, 50)} ms, ` +
          `p99 ${percentile(latencies, 99)} ms, max ${Math.max(...latencies)} ms |`,
      );
      await receiver.stop();
      await gateway.webhooks.workers.stop();

      // --- throughput: backlogs drained by N workers, beside the bare client ---
      for (const delayMs of [0, 20]) {
        // one receiver per subscription, one subscription per account (each account has its endpoint)
        const distinct: Array<{ account: string; receiver: TestReceiver; id: string }> = [];
        for (let i = 0; i < SUBSCRIPTIONS; i++) {
          const account = getAddress(`0x${(0xbe00 + i).toString(16).padStart(40, "0")}`);
          const sink = await new TestReceiver().start();
          const sub = await gateway.webhooks.subscriptions.create(account, {
            url: sink.url,
            events: ["verification.completed"],
          });
          sink.secrets = [sub.secret];
          sink.delayMs = delayMs;
          distinct.push({ account, receiver: sink, id: sub.subscription_id });
        }
        const samples = new Map<string, { values: number[]; inOrder: boolean; duplicates: number }>();
        const record = (key: string, value: number, inOrder = true, duplicates = 0) => {
          const entry = samples.get(key) ?? { values: [], inOrder: true, duplicates: 0 };
          entry.values.push(value);
          entry.inOrder &&= inOrder;
          entry.duplicates += duplicates;
          samples.set(key, entry);
        };
        for (let round = 1; round <= ROUNDS; round++) {
          const bare = await bareClient(distinct[0].receiver, distinct[0].receiver.secrets[0], BURST, BARE_IN_FLIGHT);
          record("bare", bare);
          for (const workers of [1, 3]) {
            const many = await drain(gateway, distinct, BURST, workers, `${db.name}:${delayMs}:${round}:${workers}`);
            record(`many:${workers}`, many.perSecond, many.inOrder, many.duplicates);
          }
          const one = await drain(
            gateway,
            distinct.slice(0, 1),
            Math.min(BURST, 200),
            3,
            `${db.name}:${delayMs}:${round}:one`,
          );
          record("one", one.perSecond, one.inOrder, one.duplicates);
          console.log(
            `${db.name.padEnd(10)} ${delayMs} ms round ${round}: bare ${bare.toFixed(0)}/s, ` +
              `${[...samples].map(([k, v]) => `${k} ${v.values.at(-1)!.toFixed(0)}/s`).join(", ")}`,
          );
        }
        const bare = median(samples.get("bare")!.values);
        const answer = delayMs === 0 ? "answers at once" : `answers in ~${delayMs} ms`;
        rows.push(
          `| ${db.name} | bare client: ${BARE_IN_FLIGHT} signed POSTs in flight, keep-alive, receiver ${answer} | ` +
            `${bare.toFixed(0)}/s | | |`,
        );
        for (const [key, label] of [
          ["many:1", `${BURST} deliveries over ${distinct.length} subscriptions, 1 worker`],
          ["many:3", `${BURST} deliveries over ${distinct.length} subscriptions, 3 workers`],
          ["one", "200 deliveries to one subscription (in order: one at a time), 3 workers"],
        ] as const) {
          const s = samples.get(key)!;
          const rate = median(s.values);
          rows.push(
            `| ${db.name} | ${label}, receiver ${answer} | ${rate.toFixed(0)}/s | ${((rate / bare) * 100).toFixed(0)}% | ` +
              `${s.inOrder ? "yes" : "NO"}, ${s.duplicates} duplicates |`,
          );
          if (key === "many:3") {
            const goal = delayMs === 0 ? WEBHOOK_GOALS.instant : WEBHOOK_GOALS.slow;
            goals.push(
              `- ${db.name}, 3 workers, receiver ${answer}: ${rate.toFixed(0)} deliveries/s (goal >= ${goal}/s: ` +
                `${rate >= goal ? "met" : "missed"}; the bare client reached ${bare.toFixed(0)}/s in the same run)`,
            );
          }
        }
        for (const s of distinct) {
          await gateway.webhooks.subscriptions.remove(s.account, s.id);
          await s.receiver.stop();
        }
      }
      await gateway.close();
    }
  } finally {
    await live.stop();
  }
  const loadAfter = loadavg();
  const fmt = (l: number[]) => l.map((x) => x.toFixed(1)).join(" / ");
  const intro =
    `\`npm run bench:webhooks\` (with \`DATABASE_URL\` for PostgreSQL too), one real \`hardhat node\`, ` +
    `${cpus().length} cores shared with the node, the receivers, the database and whatever else runs (load ` +
    `average ${fmt(loadBefore)} at the start, ${fmt(loadAfter)} at the end). Receivers: loopback servers built ` +
    "on `gateway/webhooks/receiver.ts` (signature checked on every body), in the benchmark's process. " +
    "Latency: a transfer of sSTB is mined (its receipt in hand) until the receiver has accepted the webhook, " +
    "devnet polling (indexer every 200 ms, depth 0; idle workers every 100 ms, and woken when a batch that " +
    `queued deliveries commits). Throughput: medians over ${ROUNDS} rounds of a backlog of queued deliveries ` +
    "drained by 1 or 3 workers (each claims in batches and keeps up to 16 runs in flight over keep-alive " +
    "connections; a run is one subscription's deliveries, sent in order), each round right after the bare " +
    "client: signed POSTs to the same receiver over keep-alive connections with no database, what the machine " +
    "does at that moment. A subscription's deliveries go one at a time (their order is kept), so one " +
    "subscription drains at the pace of its receiver's answers; the backlog is spread over one subscription per " +
    "account, as a gateway's accounts each have their endpoint.";
  const table =
    "| database | measure | result | of bare | in order per subscription, duplicates |\n|---|---|---:|---:|---|\n" +
    [...latencyRows.map((r) => r.replace(/ \|$/, " | | |")), ...rows].join("\n");
  const report = `# Webhook benchmark\n\n${intro}\n\n${table}\n\nGoals (issue 26):\n\n${goals.join("\n")}\n`;
  console.log(report);
  await writeFile("docs/webhook-bench.md", report);
  console.log("Written docs/webhook-bench.md");
}
