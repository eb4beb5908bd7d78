// `npm run test:unit|test:contracts|test:integration|test:e2e` (and `test:ts`, every tier): runs the
// TypeScript tests of the named tiers, every file under test/<tier>/ (tools/test-tiers.ts), in one
// `hardhat test mocha` run. Usage: tsx scripts/test-tier.ts <tier…> [hardhat test mocha options…]
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";

import { TIERS, isTier, tierArguments } from "../tools/test-tiers.js";

const args = process.argv.slice(2);
const count = args.findIndex((argument) => !isTier(argument));
const names = (count < 0 ? args : args.slice(0, count)).filter(isTier);
const options = count < 0 ? [] : args.slice(count);
if (names.length === 0) {
  console.error(`usage: tsx scripts/test-tier.ts <${TIERS.join("|")}>… [hardhat test mocha options]`);
  process.exit(2);
}
const cli = path.join(path.dirname(createRequire(import.meta.url).resolve("hardhat/package.json")), "dist/src/cli.js");
const child = spawn(process.execPath, [cli, ...tierArguments(process.cwd(), names, options)], {
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 1));
