// A CPU profile of this process while a piece of work runs (the V8 sampling profiler through
// node:inspector), and its self time summed by where the code comes from: the benchmarks use it to
// say where an uncached request's time goes (JWT verification, the key lookup, the rate-limit
// counter, the pool, the database client, the query builder, serialization, Fastify, Node's HTTP).
import { Session } from "node:inspector/promises";
import { readFile } from "node:fs/promises";

/** The parts of a `.cpuprofile` this module reads (the V8 format, as `node --cpu-prof` writes it). */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; scriptId?: string | number };
    children?: number[];
  }>;
  /** Node id of each sample, in time order. */
  samples: number[];
  /** Microseconds since the previous sample, per sample. */
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** A category of code: the first whose test matches a frame gets its self time. */
export interface Category {
  name: string;
  matches(frame: Frame): boolean;
}

/** A frame as the categories see it: `scriptId` 0 is V8's or Node's native code (no script). */
export interface Frame {
  functionName: string;
  url: string;
  scriptId?: string | number;
}

const native = (f: Frame) => f.url === "" && (f.scriptId === undefined || String(f.scriptId) === "0");

const inUrl =
  (...parts: string[]) =>
  (frame: { url: string }) =>
    parts.some((part) => frame.url.includes(part));

/** Packages by their folder under node_modules (a trailing slash keeps `pg/` from matching `pg-pool/`). */
const packages = (...names: string[]) => inUrl(...names.map((n) => `/node_modules/${n}/`));

/**
 * Where a gateway request's CPU time can go, most specific first. Generated code (Ajv's validators,
 * fast-json-stringify's serializers) has no URL: it is "generated validators and serializers".
 */
export const GATEWAY_CATEGORIES: Category[] = [
  { name: "idle (waiting: database, network)", matches: (f) => f.functionName === "(idle)" },
  { name: "garbage collection", matches: (f) => f.functionName === "(garbage collector)" },
  { name: "load generator (autocannon)", matches: packages("autocannon", "hdr-histogram-js", "reinterval", "retimer") },
  { name: "JWT verification (fast-jwt)", matches: packages("fast-jwt", "asn1.js", "mnemonist") },
  {
    name: "API key lookup (gateway/auth)",
    matches: inUrl("/gateway/auth/", "/gateway/session/", "/gateway/http/plugins/session-cookie."),
  },
  { name: "rate-limit counter (@fastify/rate-limit)", matches: packages("@fastify/rate-limit", "toad-cache") },
  { name: "connection pool (pg-pool)", matches: packages("pg-pool") },
  {
    name: "PostgreSQL clients (pg, postgres.js: protocol, parsing)",
    matches: packages(
      "pg",
      "pg-protocol",
      "pg-types",
      "pg-connection-string",
      "postgres-array",
      "postgres-date",
      "postgres",
    ),
  },
  { name: "embedded database (PGlite)", matches: packages("@electric-sql/pglite") },
  { name: "query building and row mapping (drizzle-orm)", matches: packages("drizzle-orm") },
  {
    name: "generated validators and serializers (Ajv, fast-json-stringify)",
    matches: (f) =>
      (f.url === "" && !native(f)) || packages("fast-json-stringify", "ajv", "fast-uri", "json-schema-ref-resolver")(f),
  },
  { name: "logging (pino)", matches: packages("pino", "sonic-boom", "pino-std-serializers", "thread-stream") },
  { name: "metrics (prom-client)", matches: packages("prom-client", "tdigest", "bintrees") },
  { name: "gateway hooks and handlers (gateway/http)", matches: inUrl("/gateway/http/", "/gateway/observability/") },
  { name: "read model (gateway/store)", matches: inUrl("/gateway/store/") },
  { name: "gateway, other (indexer polling, workers)", matches: inUrl("/gateway/") },
  { name: "hashing (@noble/hashes: webhook HMAC, keccak)", matches: packages("@noble/hashes") },
  { name: "chain RPC client (ethers)", matches: packages("ethers", "@adraffy/ens-normalize") },
  {
    name: "Fastify (routing, hooks, reply)",
    matches: packages(
      "fastify",
      "find-my-way",
      "avvio",
      "light-my-request",
      "@fastify/error",
      "@fastify/ajv-compiler",
      "@fastify/fast-json-stringify-compiler",
      "@fastify/proxy-addr",
      "@fastify/forwarded",
      "fastify-plugin",
      "abstract-logging",
      "process-warning",
      "safe-regex2",
      "ret",
      "toad-cache",
    ),
  },
  { name: "Node HTTP, sockets and timers", matches: (f) => f.url.startsWith("node:") },
  { name: "V8 and native code (JSON, buffers, promises, unattributed)", matches: (f) => native(f) },
  { name: "other", matches: () => true },
];

/** Runs `work` while the sampling profiler records this thread; returns its result and the profile. */
export async function profiled<T>(
  work: () => Promise<T>,
  intervalUs = 200,
): Promise<{ result: T; profile: CpuProfile }> {
  const session = new Session();
  session.connect();
  try {
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: intervalUs });
    await session.post("Profiler.start");
    const stop = async () => ((await session.post("Profiler.stop")) as unknown as { profile: CpuProfile }).profile;
    let result: T;
    try {
      result = await work();
    } catch (error) {
      await stop();
      throw error;
    }
    return { result, profile: await stop() };
  } finally {
    session.disconnect();
  }
}

/** A `.cpuprofile` file (as `node --cpu-prof` writes it). */
export async function readProfile(file: string): Promise<CpuProfile> {
  return JSON.parse(await readFile(file, "utf8")) as CpuProfile;
}

/** Self time (ms) per category, in the categories' order; categories with no time are left out. */
export function selfTimeByCategory(profile: CpuProfile, categories: Category[]): Array<{ name: string; ms: number }> {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const categoryOf = new Map<number, number>();
  const totals = new Array<number>(categories.length).fill(0);
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    let index = categoryOf.get(id);
    if (index === undefined) {
      const frame = byNode.get(id)?.callFrame ?? { functionName: "(unknown)", url: "" };
      index = categories.findIndex((c) => c.matches(frame));
      if (index === -1) index = categories.length - 1;
      categoryOf.set(id, index);
    }
    // a sample's time is the delta to the next sample (the last one's to the profile's end)
    const next = i + 1 < profile.timeDeltas.length ? profile.timeDeltas[i + 1] : 0;
    totals[index] += next / 1000;
  }
  return categories.map((c, i) => ({ name: c.name, ms: totals[i] })).filter((c) => c.ms > 0);
}
