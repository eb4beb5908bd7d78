// `npm run bench:gateway`: autocannon against the gateway's list and detail routes and, in the same
// run, a bare Fastify route, on PGlite and (with DATABASE_URL) PostgreSQL; writes
// docs/gateway-bench.md. Not part of `npm test`.
import { cpus } from "node:os";
import { writeFile } from "node:fs/promises";

import autocannon from "autocannon";
import Fastify from "fastify";

import { populate, resetDatabase, startLiveDeployment, startTestGateway } from "../testing/fixtures.js";

const CONNECTIONS = 10;
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);

interface Row {
  database: string;
  route: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function measure(url: string, token?: string): Promise<Omit<Row, "database" | "route">> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/** Runs the benchmark and writes its report under docs/ (see the header of this file). */
export async function runGatewayBench(): Promise<void> {
  const bare = Fastify();
  bare.get("/bare", async () => ({ success: true, data: { ok: true } }));
  const bareUrl = await bare.listen({ host: "127.0.0.1", port: 0 });

  const live = await startLiveDeployment("bench", { satellite: false });
  await populate(live);
  const rows: Row[] = [];
  const databases = [{ name: "PGlite", url: undefined as string | undefined }];
  const pgUrl = process.env.DATABASE_URL;
  if (pgUrl) databases.push({ name: "PostgreSQL", url: pgUrl });
  delete process.env.DATABASE_URL;
  try {
    for (const db of databases) {
      if (db.url) process.env.DATABASE_URL = db.url;
      else delete process.env.DATABASE_URL;
      await resetDatabase();
      // the gateway as it runs (answers cached until the indexer commits), then with every request querying
      for (const cached of [true, false]) {
        const gateway = await startTestGateway(
          live,
          { dataDir: `${live.dir}/bench-${db.name}-${cached}` },
          { responseCache: cached },
        );
        const { token } = await gateway.keys.create({
          tier: "enterprise",
          account: live.signers[6].address,
          rateLimit: 10_000_000,
        });
        const mode = cached ? "" : " (no cache)";
        for (const [route, path] of [
          ...(cached ? ([["bare Fastify route", null]] as const) : []),
          [`list: GET /api/v1/cu/list${mode}`, "/api/v1/cu/list"],
          [`list: GET /api/v1/providers/list?status=active${mode}`, "/api/v1/providers/list?status=active"],
          [`detail: GET /api/v1/cu/1${mode}`, "/api/v1/cu/1"],
          [`detail: GET /api/v1/providers/:id${mode}`, `/api/v1/providers/${live.signers[5].address}`],
        ] as const) {
          const result = path === null ? await measure(`${bareUrl}/bare`) : await measure(gateway.url + path, token);
          rows.push({ database: db.name, route, ...result });
          console.log(
            `${db.name.padEnd(10)} ${route.padEnd(60)} ${String(result.rps).padStart(6)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms  errors ${result.errors}`,
          );
        }
        await gateway.close();
      }
    }
  } finally {
    await live.stop();
    await bare.close();
  }
  await writeFile("docs/gateway-bench.md", render(rows));
  console.log("Written docs/gateway-bench.md");
}

function render(rows: Row[]): string {
  const lines = [
    "# Gateway benchmark",
    "",
    `\`npm run bench:gateway\` (autocannon, ${CONNECTIONS} connections, ${DURATION} s per route, loopback, ` +
      `${cpus().length} cores shared with the gateway, the node and autocannon). Data: the devnet scenario plus ` +
      "the test fixture's providers, units, redemptions and listings, indexed from a real `hardhat node`. Every " +
      "gateway request carries an enterprise API key (JWT check, revocation lookup cached for 2 s, rate-limit " +
      "counter) and is served with schema validation and serialization; the bare route is a Fastify route " +
      "returning a constant, measured in the same run. The gateway keeps each read route's serialized answer " +
      "until the indexer commits new events (at most 1 s): the rows without a mark measure that, as a client " +
      "polling a route sees it; the rows marked (no cache) run a gateway with the cache off, so every request " +
      "authenticates, counts, validates, queries the database (one query per page: rows and `count(*) over ()`) " +
      "and serializes.",
    "",
    "| database | route | req/s | p50 ms | p99 ms | errors | vs bare |",
    "|---|---|---:|---:|---:|---:|---:|",
  ];
  const targets: string[] = [];
  for (const row of rows) {
    const bare = rows.find((r) => r.database === row.database && r.route.startsWith("bare"))!;
    const ratio = row === bare ? "" : `${((row.rps / bare.rps) * 100).toFixed(1)}%`;
    lines.push(`| ${row.database} | ${row.route} | ${row.rps} | ${row.p50} | ${row.p99} | ${row.errors} | ${ratio} |`);
    if (row !== bare) {
      const floor = row.route.startsWith("list") ? 25 : 50;
      const share = (row.rps / bare.rps) * 100;
      targets.push(
        `- ${row.database}, ${row.route}: throughput ${share.toFixed(1)}% of the bare route ` +
          `(target >= ${floor}%: ${share >= floor ? "met" : "missed"}), p99 ${row.p99} ms ` +
          `(target <= 50 ms: ${row.p99 <= 50 ? "met" : "missed"})`,
      );
    }
  }
  lines.push("", "Targets (issue 12: on PostgreSQL; PGlite shown for comparison):", "", ...targets, "");
  return lines.join("\n");
}
