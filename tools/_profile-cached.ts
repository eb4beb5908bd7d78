// temporary: where a cached request's time goes
import autocannon from "autocannon";
import pg from "pg";
let queries = 0; const texts = new Map<string, number>();
const q0 = pg.Client.prototype.query;
(pg.Client.prototype as any).query = function (this: any, ...a: any[]) { queries++; const t = String(typeof a[0] === "string" ? a[0] : a[0]?.text ?? a[0]?.name).slice(0, 90); texts.set(t, (texts.get(t) ?? 0) + 1); return (q0 as any).apply(this, a); };
import { pino } from "pino";
import { startGateway } from "../gateway/server.js";
import { createLogger } from "../gateway/observability/log.js";
import { populate, resetDatabase, startLiveDeployment, testConfig } from "../testing/fixtures.js";
import { GATEWAY_CATEGORIES, profiled, selfTimeByCategory } from "./cpu-profile.js";
import type { CpuProfile } from "./cpu-profile.js";

const level = process.env.PROF_LEVEL ?? "info";
const live = await startLiveDeployment("prof", { satellite: false });
await populate(live);
if (process.env.DATABASE_URL) await resetDatabase();
const gateway = await startGateway(testConfig(live, { dataDir: `${live.dir}/prof`, pollIntervalMs: 200 }), {
  responseCache: process.env.PROF_CACHE !== "0",
  logger: createLogger({ level: level as "info", destination: pino.destination({ dest: "/dev/null", sync: process.env.PROF_SYNC === "1", minLength: Number(process.env.PROF_MIN ?? 0) }) }),
});
await gateway.synced();
const { token } = await gateway.keys.create({ tier: "enterprise", account: live.signers[6].address, rateLimit: 10_000_000 });
const url = gateway.url + (process.env.PROF_PATH ?? "/api/v1/cu/1");
const run = () =>
  autocannon({ url, connections: 10, duration: 5, headers: { authorization: `Bearer ${token}` } }) as Promise<autocannon.Result>;
const warm = await run();
console.log("warm status", warm.non2xx, warm["2xx"]);
queries = 0; texts.clear();
const { result, profile } = await profiled(run);
const requests = result.requests.total;
console.log("rps", result.requests.average, "requests", requests, "pg queries", queries);
for (const [t, n] of [...texts].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log(n, t);
for (const c of selfTimeByCategory(profile, GATEWAY_CATEGORIES)) console.log(`${((c.ms * 1000) / requests).toFixed(1).padStart(8)} us  ${c.name}`);
// top functions by self time
const p = profile as CpuProfile;
const self = new Map<number, number>();
for (let i = 0; i < p.samples.length; i++) self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + p.timeDeltas[i]);
const byFn = new Map<string, number>();
for (const n of p.nodes) {
  const k = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.replace(/.*node_modules\//, "").replace(/.*\/wt\/i26\//, "")}`;
  byFn.set(k, (byFn.get(k) ?? 0) + (self.get(n.id) ?? 0));
}
for (const [k, us] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${(us / requests).toFixed(1).padStart(8)} us  ${k}`);
// native self time by nearest JS caller
const parent = new Map<number, number>();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const nat = new Map<string, number>();
for (const n of p.nodes) {
  if (n.callFrame.url !== "" || ["(idle)", "(program)", "(garbage collector)", "(root)"].includes(n.callFrame.functionName)) continue;
  let id: number | undefined = n.id; let k = "(none)";
  while (id !== undefined) { const m = byId.get(id)!; if (m.callFrame.url !== "") { k = `${m.callFrame.functionName || "(anon)"} ${m.callFrame.url.replace(/.*node_modules\//, "").replace(/.*\/wt\/i26\//, "")} <- ${n.callFrame.functionName}`; break; } id = parent.get(id); }
  nat.set(k, (nat.get(k) ?? 0) + (self.get(n.id) ?? 0));
}
console.log("--- native by caller");
for (const [k, us] of [...nat].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${(us / requests).toFixed(1).padStart(8)} us  ${k}`);
await gateway.close();
await live.stop();
