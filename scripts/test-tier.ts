// `npm run test:unit|test:integration|test:e2e` (and `test:ts`, every tier; `npm run test:contracts` is
// scripts/test-contracts.ts): runs the TypeScript tests of the named tiers, every file under test/<tier>/
// (tools/test-tiers.ts), in one `hardhat test mocha` run; the unit tier alone runs on mocha itself, without
// a Solidity build (its tests read no artifact and no TypeChain binding: decision 0189).
// Usage: tsx scripts/test-tier.ts <tier…> [hardhat test mocha options…]
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";

import { HARDHAT_CLI, TIERS, isTier, tierArguments, unitMochaArguments } from "../tools/test-tiers.js";

const args = process.argv.slice(2);
const count = args.findIndex((argument) => !isTier(argument));
const names = (count < 0 ? args : args.slice(0, count)).filter(isTier);
const options = count < 0 ? [] : args.slice(count);
// `TEST_NO_COMPILE=1`: as `--no-compile` (npm test sets it for the tiers it runs side by side after
// the contract tier's build, scripts/test-all.ts)
if (process.env.TEST_NO_COMPILE === "1" && !options.includes("--no-compile")) options.push("--no-compile");
if (names.length === 0) {
  console.error(`usage: tsx scripts/test-tier.ts <${TIERS.join("|")}>… [hardhat test mocha options]`);
  process.exit(2);
}
const require = createRequire(import.meta.url);
let command: string[];
if (names.every((name) => name === "unit")) {
  // the unit tier on mocha itself (tools/test-tiers.ts), with no build: it decodes with the SDK's ABIs, and
  // the tests of compiled output are the contract tier's (decision 0189); `--no-compile` means nothing here
  const mocha = path.join(path.dirname(require.resolve("mocha/package.json")), "bin", "mocha.js");
  const mochaOptions = options.filter((option) => option !== "--no-compile");
  command = ["--import", "tsx", mocha, ...unitMochaArguments(process.cwd(), mochaOptions)];
} else {
  // `TEST_DATABASE_ONLY=1`: only the files that read the database setting (npm test's PGlite side,
  // beside a run of the whole tier on PostgreSQL: tools/test-tiers.ts DATABASE_FREE_FOLDERS)
  const databaseOnly = process.env.TEST_DATABASE_ONLY === "1";
  command = [HARDHAT_CLI, ...tierArguments(process.cwd(), names, options, { databaseOnly })];
}
// worker processes (TEST_JOBS, hardhat.config.ts) only for the contract tier: the integration tier's files
// share one live deployment through root hooks that run once per process
const env = { ...process.env };
if (names.some((name) => name !== "contracts")) delete env.TEST_JOBS;
const child = spawn(process.execPath, command, { stdio: "inherit", env });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 1));
