// `npm test`: every tier. The unit tier, then the contract tier (its own workers keep both cores busy),
// then the integration tier and the end-to-end tier (with the portal's browser suite) side by side:
// each of those keeps about one core busy and waits on its chains the rest of the time, so on two cores
// the pair takes little more than the longer of the two (decision 0172). With `DATABASE_URL` (CI
// sets it), the integration tier runs a second time on that PostgreSQL database as a third side
// (decision 0180). Each side's output is printed whole when all have ended (tools/concurrent.ts); the
// run fails when any tier fails.
import { spawnSync } from "node:child_process";

import { printResults, runConcurrently } from "../tools/concurrent.js";
import { sideBySide } from "../tools/test-tiers.js";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const started = performance.now();
const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;

for (const tier of ["test:unit", "test:contracts"]) {
  const at = performance.now();
  const run = spawnSync(npm, ["run", tier], { stdio: "inherit" });
  // `.ci/run` waits for "=== npm run test:contracts: passed" before it starts lint's build readers (decision 0188)
  console.log(
    `\n=== npm run ${tier}: ${run.status === 0 ? "passed" : "failed"} in ${seconds(performance.now() - at)}\n`,
  );
  if (run.status !== 0) process.exit(run.status ?? 1);
}

// The contract tier has just built the contracts: the tiers below skip Hardhat's build check, whose
// cache file runs starting at once would all write and rename (CI at dddbdec: ENOENT on
// cache/compile-cache.json.tmp, the end-to-end tier failed in 3 s). Which runs, on which database:
// tools/test-tiers.ts sideBySide.
const sides = sideBySide(process.env).map((side) => ({
  name: side.name,
  command: npm,
  args: ["run", side.script],
  env: side.env,
}));
console.log(`=== ${sides.map((side) => side.name).join(", ")}: side by side (each one's output follows when all end)`);
const results = await runConcurrently(sides);
printResults(results, 0);
console.log("\n=== every tier: " + results.map((r) => `${r.name.replace("npm run ", "")} ${seconds(r.ms)}`).join(", "));
console.log(`=== npm test took ${seconds(performance.now() - started)}`);
process.exit(results.some((result) => result.code !== 0) ? 1 : 0);
