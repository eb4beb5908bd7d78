// `npm run bench:webhooks` (add DATABASE_URL for PostgreSQL too): webhook latency from a mined event
// to a real receiver, and deliveries per second with one and three workers; writes
// docs/webhook-bench.md. Not part of `npm test`.
import { writeFile } from "node:fs/promises";

import { webhookSettings } from "../gateway/webhooks/settings.js";
import { DeliveryWorkers } from "../gateway/webhooks/worker.js";
import { ROLE, startLiveDeployment, startTestGateway } from "../testing/fixtures.js";
import { TestReceiver } from "../testing/local-servers.js";

const INTRO =
  "`npm run bench:webhooks` (with `DATABASE_URL` for PostgreSQL too), one real `hardhat node`, 2 cores shared with the node and the receivers, loopback receivers built on `gateway/webhooks/receiver.ts` (signature checked on every body). Latency: a transfer of sSTB is mined (its receipt in hand) until the receiver has accepted the webhook, devnet polling (indexer every 200 ms, depth 0; idle workers every 100 ms, and woken when a batch that queued deliveries commits). Throughput: a backlog of 400 queued deliveries drained by 1 or 3 workers, with a receiver that answers at once or after 20 ms.";

const TRANSFERS = Number(process.env.BENCH_TRANSFERS ?? 50);
const BURST = Number(process.env.BENCH_DELIVERIES ?? 400);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/** Runs the benchmark and writes its report under docs/ (see the header of this file). */
export async function runWebhookBench(): Promise<void> {
  const live = await startLiveDeployment("bench-webhooks", { satellite: false });
  const lines: string[] = [];
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
      lines.push(
        `| ${db.name} | latency, mined -> receiver (${TRANSFERS} transfers) | median ${percentile(latencies, 50)} ms, ` +
          `p99 ${percentile(latencies, 99)} ms, max ${Math.max(...latencies)} ms |`,
      );

      // --- throughput: a backlog of BURST deliveries drained by N workers ---
      await gateway.webhooks.workers.stop();
      for (const [workers, delayMs] of [
        [1, 0],
        [3, 0],
        [1, 20],
        [3, 20],
      ] as const) {
        const sink = await new TestReceiver().start();
        const sub = await gateway.webhooks.subscriptions.create(user.address, {
          url: sink.url,
          events: ["verification.completed"],
        });
        sink.secrets = [sub.secret];
        sink.delayMs = delayMs;
        await gateway.store.db.transaction(async (tx) => {
          for (let i = 0; i < BURST; i++) {
            await gateway.webhooks.outbox.publish(tx, {
              id: `bench:${db.name}:${workers}:${delayMs}:${i}`,
              event: "verification.completed",
              timestamp: Math.floor(Date.now() / 1000),
              data: { verification_id: String(i) },
              accounts: [user.address],
            });
          }
        });
        const pool = new DeliveryWorkers(
          gateway.store.db,
          webhookSettings("devnet", { pollMs: 20 }),
          undefined,
          () => {},
        );
        const started = Date.now();
        pool.start(workers);
        await sink.waitFor((r) => r.length >= BURST, 300_000);
        const seconds = (Date.now() - started) / 1000;
        await pool.stop();
        await sink.stop();
        await gateway.webhooks.subscriptions.remove(user.address, sub.subscription_id);
        lines.push(
          `| ${db.name} | ${BURST} deliveries, ${workers} worker${workers > 1 ? "s" : ""}, receiver answers in ~${delayMs} ms | ` +
            `${Math.round(BURST / seconds)} deliveries/s |`,
        );
      }
      await receiver.stop();
      await gateway.close();
    }
  } finally {
    await live.stop();
  }
  const table = "| database | measure | result |\n|---|---|---|\n" + lines.join("\n");
  console.log(table);
  await writeFile("docs/webhook-bench.md", `# Webhook benchmark\n\n${INTRO}\n\n${table}\n`);
  console.log("Written docs/webhook-bench.md");
}
