// `npm test`: every tier. The unit tier first (it builds the contracts, and a failure there stops the
// run in about three minutes), then the contract tier, the integration tier and the end-to-end tier (with
// the portal's browser suite) side by side: the contract tier's workers keep the cores busy while the
// others wait on their chains, gateways and browser (decisions 0172, 0180, 0181). With `TEST_POSTGRES_URL`
// (CI sets it), the integration tier runs a second time on that PostgreSQL database as a fourth side.
// Each side's output is printed whole when all have ended (tools/concurrent.ts); the run fails when any
// tier fails.
import { spawnSync } from "node:child_process";

import { printResults, runConcurrently } from "../tools/concurrent.js";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const started = performance.now();
const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;

{
  const at = performance.now();
  const unit = spawnSync(npm, ["run", "test:unit"], { stdio: "inherit" });
  console.log(
    `\n=== npm run test:unit: ${unit.status === 0 ? "passed" : "failed"} in ${seconds(performance.now() - at)}\n`,
  );
  if (unit.status !== 0) process.exit(unit.status ?? 1);
}

// The unit tier has just built the contracts (and the Solidity tests): the tiers below skip Hardhat's
// build check, whose cache file runs starting at once would all write and rename (CI at dddbdec: ENOENT
// on cache/compile-cache.json.tmp, the end-to-end tier failed in 3 s)
const env: NodeJS.ProcessEnv = { ...process.env, TEST_NO_COMPILE: "1" };
const postgres = process.env.TEST_POSTGRES_URL;
// with the PostgreSQL side, the other integration run is the PGlite one (both on one database would
// reset each other's tables)
if (postgres !== undefined && postgres !== "") delete env.DATABASE_URL;
const sides = [
  { name: "npm run test:contracts", command: npm, args: ["run", "test:contracts", "--", "--no-compile"], env },
  { name: "npm run test:integration", command: npm, args: ["run", "test:integration"], env },
  { name: "npm run test:e2e", command: npm, args: ["run", "test:e2e"], env },
];
if (postgres !== undefined && postgres !== "") {
  sides.push({
    name: "npm run test:integration (PostgreSQL)",
    command: npm,
    args: ["run", "test:integration"],
    env: { ...env, DATABASE_URL: postgres },
  });
}
console.log(`=== ${sides.map((side) => side.name).join(", ")}: side by side (each one's output follows when all end)`);
const results = await runConcurrently(sides);
printResults(results, 0);
console.log("\n=== every tier: " + results.map((r) => `${r.name.replace("npm run ", "")} ${seconds(r.ms)}`).join(", "));
console.log(`=== npm test took ${seconds(performance.now() - started)}`);
process.exit(results.some((result) => result.code !== 0) ? 1 : 0);
