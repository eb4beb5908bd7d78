// `npm test`: every tier. The unit tier, then the contract tier (its own workers keep both cores busy),
// then the integration tier and the end-to-end tier (with the portal's browser suite) side by side:
// each of those keeps about one core busy and waits on its chains the rest of the time, so on two cores
// the pair takes little more than the longer of the two (decision 0172). With `DATABASE_URL` (CI
// sets it), the integration tier runs a second time on that PostgreSQL database as a third side
// (decision 0180). Each side's output is printed whole when all have ended (tools/concurrent.ts); the
// run fails when any tier fails.
import { spawnSync } from "node:child_process";

import { printResults, runConcurrently } from "../tools/concurrent.js";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const started = performance.now();
const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;

for (const tier of ["test:unit", "test:contracts"]) {
  const at = performance.now();
  const run = spawnSync(npm, ["run", tier], { stdio: "inherit" });
  console.log(
    `\n=== npm run ${tier}: ${run.status === 0 ? "passed" : "failed"} in ${seconds(performance.now() - at)}\n`,
  );
  if (run.status !== 0) process.exit(run.status ?? 1);
}

// The PostgreSQL server, if any, is the third side's alone: the other integration run is the PGlite one
// (two runs on one database would reset each other's tables)
const postgres = process.env.DATABASE_URL;
// The contract tier has just built the contracts: the tiers below skip Hardhat's build check, whose
// cache file runs starting at once would all write and rename (CI at dddbdec: ENOENT on
// cache/compile-cache.json.tmp, the end-to-end tier failed in 3 s)
const env: NodeJS.ProcessEnv = { ...process.env, TEST_NO_COMPILE: "1" };
delete env.DATABASE_URL;
const sides = [
  { name: "npm run test:integration", command: npm, args: ["run", "test:integration"], env },
  { name: "npm run test:e2e", command: npm, args: ["run", "test:e2e"], env },
];
if (postgres !== undefined && postgres !== "") {
  sides.push({
    name: "npm run test:integration (PostgreSQL)",
    command: npm,
    args: ["run", "test:integration"],
    // the files that read the database setting: the PGlite side runs the others (decision 0185)
    env: { ...env, DATABASE_URL: postgres, TEST_DATABASE_ONLY: "1" },
  });
}
console.log(`=== ${sides.map((side) => side.name).join(", ")}: side by side (each one's output follows when all end)`);
const results = await runConcurrently(sides);
printResults(results, 0);
console.log("\n=== every tier: " + results.map((r) => `${r.name.replace("npm run ", "")} ${seconds(r.ms)}`).join(", "));
console.log(`=== npm test took ${seconds(performance.now() - started)}`);
process.exit(results.some((result) => result.code !== 0) ? 1 : 0);
