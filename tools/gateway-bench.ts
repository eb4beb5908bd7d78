// `npm run bench:gateway`: autocannon against the gateway's list and detail routes, with the
// response cache and without it, each measured right after a bare Fastify route in the same process,
// in several rounds, on PGlite and (with DATABASE_URL) PostgreSQL; then a CPU profile of each
// uncached route (where its time goes, per request). Writes docs/gateway-bench.md. Not part of `npm test`.
import { cpus, loadavg } from "node:os";
import { readFile, writeFile } from "node:fs/promises";

import autocannon from "autocannon";
import Fastify from "fastify";
import pg from "pg";

import { pino } from "pino";

import * as format from "../gateway/api/format.js";
import { startGateway } from "../gateway/server.js";
import { openStore } from "../gateway/store/db.js";
import { ReadModel } from "../gateway/store/queries.js";
import { createLogger } from "../gateway/observability/log.js";
import type { Gateway } from "../gateway/server.js";
import { populate, resetDatabase, startLiveDeployment, testConfig } from "../testing/fixtures.js";
import type { LiveDeployment } from "../testing/fixtures.js";
import { GATEWAY_CATEGORIES, profiled, selfTimeByCategory } from "./cpu-profile.js";

const CONNECTIONS = 10;
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** Issue 26's goals, as shares of the bare route's throughput (on PostgreSQL; PGlite shown beside). */
export const GOALS = { cached: 60, uncachedDetail: 35, uncachedList: 25 } as const;
/** The marks of the rows that are not the gateway as it runs (see the report's header). */
const NO_CACHE = " (no cache)";
const QUERY_ALONE = " (the query alone)";
/** Issue 12's latency bound. */
const P99_BOUND_MS = 50;

interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /**
   * CPU per request, microseconds: this process's (the server and the load generator, user + system)
   * plus, on PostgreSQL, the database server's (its backends, in 10 ms ticks). It moves with the host's
   * speed as the requests per second do (the report gives the bare route's spread).
   */
  cpuUs: number;
}

interface Route {
  kind: "list" | "detail";
  label: string;
  path: string;
  /** What the route's handler reads and formats, alone: the driver's and the ORM's part of it. */
  query: (model: ReadModel) => Promise<unknown>;
}

/** One row of the report: medians over the rounds. */
export interface BenchRow {
  database: string;
  route: string;
  kind: "bare" | "list" | "detail";
  cached: boolean;
  /** The route's query alone (no gateway around it): a floor, with no goal. */
  queryAlone?: boolean;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Median over the rounds of (this route / the bare route measured just before it), percent. */
  share?: number;
  /** Median CPU per request, microseconds (see {@link Measurement.cpuUs}). */
  cpuUs: number;
  /** Median over the rounds of (the bare route's CPU per request / this route's), percent. */
  cpuShare?: number;
  /** The lowest and highest requests per second and CPU per request over the rounds. */
  spread: { rps: [number, number]; cpuUs: [number, number] };
}

export interface ProfileRow {
  database: string;
  route: string;
  requests: number;
  /** Microseconds of this process's CPU per request, by category. */
  categories: Array<{ name: string; usPerRequest: number }>;
  /** Microseconds of the PostgreSQL server's CPU (this database's backends) per request. */
  postgresUsPerRequest?: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** One autocannon run; `databaseUrl`: also count that PostgreSQL database's backends' CPU. */
async function measure(url: string, token?: string, databaseUrl?: string): Promise<Measurement> {
  const ticksBefore = databaseUrl === undefined ? 0 : await postgresTicks(databaseUrl);
  const cpuBefore = process.cpuUsage();
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  });
  const cpu = process.cpuUsage(cpuBefore);
  const ticks = databaseUrl === undefined ? 0 : (await postgresTicks(databaseUrl)) - ticksBefore;
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    cpuUs: (cpu.user + cpu.system + ticks * 10_000) / Math.max(1, result.requests.total),
  };
}

/** CPU ticks (user + system, 1/100 s) of the PostgreSQL backends serving `databaseUrl`'s database. */
async function postgresTicks(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    let ticks = 0;
    for (const { pid } of rows) {
      const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields.length > 13) ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks;
  } finally {
    await client.end();
  }
}

/** Starts a gateway (the benchmark of the code before a change passes that code's). */
export type StartGateway = (
  config: ReturnType<typeof testConfig>,
  options: { responseCache: boolean; logger?: ReturnType<typeof createLogger> },
) => Promise<Pick<Gateway, "url" | "keys" | "synced" | "close">>;

/** A gateway for the benchmark, with an enterprise key of a limit no run reaches. */
async function benchGateway(
  start: StartGateway,
  live: LiveDeployment,
  name: string,
  cached: boolean,
  fresh: boolean,
): Promise<{ gateway: Awaited<ReturnType<StartGateway>>; token: string }> {
  if (fresh) await resetDatabase();
  const gateway = await start(
    // the devnet's polling interval: the indexer's background work is what it is on the devnet
    testConfig(live, { dataDir: `${live.dir}/bench-${name}-${cached}`, pollIntervalMs: 200 }),
    // the request log as an operator runs it (info: a JSON line per request), written where it costs no disk
    {
      responseCache: cached,
      logger: createLogger({ level: "info", destination: pino.destination({ dest: "/dev/null", sync: false }) }),
    },
  );
  await gateway.synced();
  const { token } = await gateway.keys.create({
    tier: "enterprise",
    account: live.signers[6].address,
    rateLimit: 10_000_000,
  });
  return { gateway, token };
}

/** A bare Fastify app whose route `/<i>` runs `routes[i]`'s query alone on its own store's read model. */
async function queryAloneServer(
  databaseUrl: string,
  dataDir: string,
  chainId: number,
  routes: Route[],
): Promise<{ url: string; close(): Promise<void> }> {
  const store = await openStore({ databaseUrl, dataDir, migrate: false });
  const model = new ReadModel(store.db, chainId, store.reads);
  const app = Fastify();
  routes.forEach((route, i) => app.get(`/${i}`, async () => ({ success: true, data: await route.query(model) })));
  const url = await app.listen({ host: "127.0.0.1", port: 0 });
  return {
    url,
    close: async () => {
      await app.close();
      await store.close();
    },
  };
}

/** Runs the benchmark and writes its report under docs/ (see the header of this file). */
export async function runGatewayBench(
  start: StartGateway = startGateway,
  reportFile = "docs/gateway-bench.md",
): Promise<void> {
  const bare = Fastify();
  bare.get("/bare", async () => ({ success: true, data: { ok: true } }));
  const bareUrl = await bare.listen({ host: "127.0.0.1", port: 0 });

  const loadBefore = loadavg();
  const live = await startLiveDeployment("bench", { satellite: false });
  await populate(live);
  const page = { page: 1, limit: 20 };
  const providerId = live.signers[5].address;
  const routes: Route[] = [
    {
      kind: "list",
      label: "list: GET /api/v1/cu/list",
      path: "/api/v1/cu/list",
      query: async (model) => (await model.listComputeUnits({}, page)).rows.map(format.computeUnitItem),
    },
    {
      kind: "list",
      label: "list: GET /api/v1/providers/list?status=active",
      path: "/api/v1/providers/list?status=active",
      query: async (model) => (await model.listProviders({ status: "active" }, page)).rows.map(format.providerItem),
    },
    {
      kind: "detail",
      label: "detail: GET /api/v1/cu/1",
      path: "/api/v1/cu/1",
      query: async (model) => format.computeUnitDetail((await model.computeUnit(1))!),
    },
    {
      kind: "detail",
      label: "detail: GET /api/v1/providers/:id",
      path: `/api/v1/providers/${providerId}`,
      query: async (model) => format.providerDetail((await model.provider(providerId))!),
    },
  ];
  const chainId = Number((await live.rpc.getNetwork()).chainId);
  const rows: BenchRow[] = [];
  const profiles: ProfileRow[] = [];
  const databases = [{ name: "PGlite", url: undefined as string | undefined }];
  const pgUrl = process.env.DATABASE_URL;
  if (pgUrl) databases.push({ name: "PostgreSQL", url: pgUrl });
  delete process.env.DATABASE_URL;
  try {
    for (const db of databases) {
      if (db.url) process.env.DATABASE_URL = db.url;
      else delete process.env.DATABASE_URL;
      // two gateways side by side: as it runs (answers cached until the indexer commits) and with
      // every request querying; on PostgreSQL both share the database, as two instances do
      const withCache = await benchGateway(start, live, db.name, true, true);
      const noCache = await benchGateway(start, live, db.name, false, db.url === undefined);
      // on PostgreSQL, each route's query alone, through the read model as the gateway opens it, in a
      // bare Fastify route: what the driver and the ORM leave of the bare route (PGlite's folder is
      // the gateway's alone)
      const queryAlone =
        db.url === undefined
          ? undefined
          : await queryAloneServer(db.url, `${live.dir}/bench-query-alone`, chainId, routes);
      const samples = new Map<string, { m: Measurement[]; shares: number[]; cpuShares: number[] }>();
      const record = (label: string, m: Measurement, bare?: Measurement) => {
        const entry = samples.get(label) ?? { m: [], shares: [], cpuShares: [] };
        entry.m.push(m);
        if (bare !== undefined) {
          entry.shares.push((m.rps / bare.rps) * 100);
          entry.cpuShares.push((bare.cpuUs / m.cpuUs) * 100);
        }
        samples.set(label, entry);
      };
      try {
        for (let round = 1; round <= ROUNDS; round++) {
          for (const route of routes) {
            // the bare route right before each pair: the load of the machine changes by the minute
            const b = await measure(`${bareUrl}/bare`, undefined, db.url);
            record("bare Fastify route", b);
            if (queryAlone !== undefined) {
              const q = await measure(`${queryAlone.url}/${routes.indexOf(route)}`, undefined, db.url);
              record(route.label + QUERY_ALONE, q, b);
            }
            const c = await measure(withCache.gateway.url + route.path, withCache.token, db.url);
            record(route.label, c, b);
            const u = await measure(noCache.gateway.url + route.path, noCache.token, db.url);
            record(route.label + NO_CACHE, u, b);
            console.log(
              `${db.name.padEnd(10)} round ${round}  ${route.label.padEnd(50)} bare ${b.rps}  cached ${c.rps} ` +
                `(${((c.rps / b.rps) * 100).toFixed(1)}%)  uncached ${u.rps} (${((u.rps / b.rps) * 100).toFixed(1)}%)  ` +
                `CPU us/request: bare ${b.cpuUs.toFixed(0)} cached ${c.cpuUs.toFixed(0)} uncached ${u.cpuUs.toFixed(0)}`,
            );
          }
        }
        for (const [label, { m, shares, cpuShares }] of samples) {
          const route = routes.find((r) => label.startsWith(r.label));
          rows.push({
            database: db.name,
            route: label,
            kind: route?.kind ?? "bare",
            cached: !label.endsWith(NO_CACHE) && !label.endsWith(QUERY_ALONE),
            ...(label.endsWith(QUERY_ALONE) ? { queryAlone: true } : {}),
            rps: Math.round(median(m.map((x) => x.rps))),
            p50: median(m.map((x) => x.p50)),
            p99: median(m.map((x) => x.p99)),
            errors: m.reduce((sum, x) => sum + x.errors, 0),
            ...(shares.length === 0 ? {} : { share: median(shares) }),
            cpuUs: median(m.map((x) => x.cpuUs)),
            spread: {
              rps: [Math.min(...m.map((x) => x.rps)), Math.max(...m.map((x) => x.rps))],
              cpuUs: [Math.min(...m.map((x) => x.cpuUs)), Math.max(...m.map((x) => x.cpuUs))],
            },
            ...(cpuShares.length === 0 ? {} : { cpuShare: median(cpuShares) }),
          });
        }
        // where an uncached request's time goes: this process's CPU by category, and the server's
        for (const route of routes) {
          const ticksBefore = db.url === undefined ? 0 : await postgresTicks(db.url);
          const { result, profile } = await profiled(() => measure(noCache.gateway.url + route.path, noCache.token));
          const ticksAfter = db.url === undefined ? 0 : await postgresTicks(db.url);
          const requests = Math.max(1, Math.round(result.rps * DURATION));
          profiles.push({
            database: db.name,
            route: route.label,
            requests,
            categories: selfTimeByCategory(profile, GATEWAY_CATEGORIES).map((c) => ({
              name: c.name,
              usPerRequest: (c.ms * 1000) / requests,
            })),
            ...(db.url === undefined ? {} : { postgresUsPerRequest: ((ticksAfter - ticksBefore) * 10_000) / requests }),
          });
          console.log(`${db.name.padEnd(10)} profiled ${route.label} (no cache): ${result.rps} req/s`);
        }
      } finally {
        await withCache.gateway.close();
        await noCache.gateway.close();
        await queryAlone?.close();
      }
    }
  } finally {
    await live.stop();
    await bare.close();
  }
  const report = renderGatewayBench(rows, profiles, { before: loadBefore, after: loadavg() });
  await writeFile(reportFile, report);
  console.log(report);
  console.log(`Written ${reportFile}`);
}

/** The goal of a row (percent of the bare route), or undefined for the bare route itself. */
export function goalOf(row: Pick<BenchRow, "kind" | "cached" | "queryAlone">): number | undefined {
  if (row.kind === "bare" || row.queryAlone === true) return undefined;
  if (row.cached) return GOALS.cached;
  return row.kind === "detail" ? GOALS.uncachedDetail : GOALS.uncachedList;
}

/** The report: the table of medians, the goals met or missed, and the profile of the uncached routes. */
export function renderGatewayBench(
  rows: BenchRow[],
  profiles: ProfileRow[],
  load: { before: number[]; after: number[] },
): string {
  const fmt = (l: number[]) => l.map((x) => x.toFixed(1)).join(" / ");
  const lines = [
    "# Gateway benchmark",
    "",
    `\`npm run bench:gateway\` (autocannon, ${CONNECTIONS} connections, ${DURATION} s per measurement, ${ROUNDS} ` +
      `rounds, loopback, ${cpus().length} cores shared with the gateway, PostgreSQL, the node, autocannon and ` +
      `whatever else runs on the machine: load average ${fmt(load.before)} at the start, ${fmt(load.after)} at the ` +
      "end). Data: the devnet scenario plus the test fixture's providers, units, redemptions and listings, indexed " +
      "from a real `hardhat node`. Every gateway request carries an enterprise API key (JWT check, revocation " +
      "lookup cached for 2 s, rate-limit counter) and is served with schema validation, serialization, the " +
      "request log and the metrics. The bare route is a Fastify route returning a constant in the same process; " +
      "it is measured right before each pair of gateway measurements, and each share is that measurement over " +
      "the bare one just before it. Figures are medians over the rounds. Rows without a mark: the gateway as it " +
      "runs (each read route's serialized answer kept until the indexer commits new events, at most 1 s), as a " +
      "client polling a route sees it; rows marked (no cache): a second gateway with the cache off, so every " +
      "request authenticates, counts, validates, queries the database and serializes; rows marked (the query " +
      "alone), on PostgreSQL: the route's read-model call and formatting in a bare Fastify route of the same " +
      "process, on connections of its own opened as the gateway opens them (no key, log, metrics or validation), " +
      "measured right after the bare route: the floor the driver and the ORM leave to an uncached request.",
    "",
    "Two shares of the bare route. **vs bare** (the issue's measure) divides the requests per second. " +
      "**vs bare, CPU** divides the CPU each request costs (this process's user and system time, the load " +
      "generator's included, plus on PostgreSQL the database server's backends), the bare route's over the " +
      "route's. Neither is steady on this machine: the host's speed changes by the minute, so the same bare " +
      "route serves and costs very different amounts from one round to the next (its spread is under the " +
      'table), and no instruction counter is available here (`perf stat -e instructions` answers "not ' +
      'supported"). Goals are judged on the first, over the medians of the rounds.',
    "",
    "| database | route | req/s | p50 ms | p99 ms | errors | CPU µs/request | vs bare | vs bare, CPU | goal |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
  ];
  const goals: string[] = [];
  for (const row of rows) {
    const goal = goalOf(row);
    const share = row.share === undefined ? "" : `${row.share.toFixed(1)}%`;
    const cpuShare = row.cpuShare === undefined ? "" : `${row.cpuShare.toFixed(1)}%`;
    const met = goal === undefined || row.share === undefined ? "" : row.share >= goal ? "met" : "missed";
    const goalCell =
      goal === undefined ? "" : row.database === "PostgreSQL" ? `>= ${goal}%: ${met}` : `(>= ${goal}% on PostgreSQL)`;
    lines.push(
      `| ${row.database} | ${row.route} | ${row.rps} | ${row.p50} | ${row.p99} | ${row.errors} | ` +
        `${row.cpuUs.toFixed(0)} | ${share} | ${cpuShare} | ${goalCell} |`,
    );
    if (goal !== undefined && row.share !== undefined && row.database === "PostgreSQL") {
      goals.push(
        `- ${row.route}: ${row.share.toFixed(1)}% of the bare route (goal >= ${goal}%: ${met}; by CPU ` +
          `${cpuShare}), p99 ${row.p99} ms (bound <= ${P99_BOUND_MS} ms: ${row.p99 <= P99_BOUND_MS ? "met" : "missed"})`,
      );
    }
  }
  const spreads = rows
    .filter((row) => row.kind === "bare")
    .map(
      (row) =>
        `- ${row.database}: the bare route over the rounds served ${row.spread.rps[0]} to ${row.spread.rps[1]} ` +
        `requests/s at ${row.spread.cpuUs[0].toFixed(0)} to ${row.spread.cpuUs[1].toFixed(0)} µs of CPU each`,
    );
  if (spreads.length > 0) lines.push("", "The bare route's spread:", "", ...spreads);
  if (goals.length > 0) lines.push("", "Goals on PostgreSQL (issue 26):", "", ...goals);
  if (profiles.length > 0) {
    lines.push(
      "",
      "## Where an uncached request's time goes",
      "",
      "A CPU profile of the benchmark's process (the V8 sampling profiler, 200 µs interval) while each uncached " +
        "route runs: self time by where the code comes from, in microseconds per request. The load generator " +
        "runs in the same process (its share is listed); idle is time the process waited (for the database, " +
        "the sockets). On PostgreSQL the database server's own CPU for those requests is measured from its " +
        "backends' counters (10 ms ticks).",
      "",
    );
    const names = [...new Set(profiles.flatMap((p) => p.categories.map((c) => c.name)))];
    const order = GATEWAY_CATEGORIES_NAMES.filter((n) => names.includes(n));
    const header = profiles.map((p) => `${p.database}: ${p.route.replace(/^(list|detail): GET /, "")}`);
    lines.push(`| µs per request | ${header.join(" | ")} |`, `|---|${header.map(() => "---:").join("|")}|`);
    for (const name of order) {
      lines.push(
        `| ${name} | ${profiles.map((p) => (p.categories.find((c) => c.name === name)?.usPerRequest ?? 0).toFixed(0)).join(" | ")} |`,
      );
    }
    const busy = (p: ProfileRow) =>
      p.categories.filter((c) => !c.name.startsWith("idle")).reduce((sum, c) => sum + c.usPerRequest, 0);
    lines.push(`| **process CPU, total (idle excluded)** | ${profiles.map((p) => busy(p).toFixed(0)).join(" | ")} |`);
    if (profiles.some((p) => p.postgresUsPerRequest !== undefined)) {
      lines.push(
        `| PostgreSQL server CPU (its backends) | ${profiles.map((p) => (p.postgresUsPerRequest === undefined ? "" : p.postgresUsPerRequest.toFixed(0))).join(" | ")} |`,
      );
    }
  }
  lines.push("");
  return lines.join("\n");
}

const GATEWAY_CATEGORIES_NAMES = GATEWAY_CATEGORIES.map((c) => c.name);
