// `npm test`: every tier. The unit tier beside the contract tier (whose own workers keep both cores busy
// once solc's one-core build is done), then the integration tier and the end-to-end tier (with the
// portal's browser suite) side by side: each of those keeps about one core busy and waits on its chains
// the rest of the time, so on two cores the pair takes little more than the longer of the two (decision 0172). With `DATABASE_URL` (CI
// sets it), the integration tier runs a second time on that PostgreSQL database as a third side
// (decision 0180). Each side's output is printed whole when all have ended (tools/concurrent.ts); the
// run fails when any tier fails.
import { printResults, runConcurrently } from "../tools/concurrent.js";
import { sideBySide } from "../tools/test-tiers.js";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const started = performance.now();
const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;

// The unit tier needs no Solidity build (decision 0189): it runs beside the contract tier, whose first
// minutes are solc's build on one core, and both are printed whole when both have ended
const first = await runConcurrently([
  { name: "npm run test:unit", command: npm, args: ["run", "test:unit"] },
  { name: "npm run test:contracts", command: npm, args: ["run", "test:contracts"] },
]);
// each headed "=== <name>: passed in N s": `.ci/run` waits for "=== npm run test:contracts: passed" before it
// starts lint's build readers (decision 0188)
printResults(first, 0);
if (first.some((result) => result.code !== 0)) process.exit(1);

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
