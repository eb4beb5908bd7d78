// `npm run test:unit`: the unit tier (scripts/test-tier.ts unit) and the portal's unit tier (Vitest) side by
// side (tools/concurrent.ts), each one's output printed whole when both are done; fails when either fails.
// Options (`--grep x`, `--bail`) go to the unit tier's mocha.
import { printResults, runConcurrently } from "../tools/concurrent.js";

const options = process.argv.slice(2);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const results = await runConcurrently([
  {
    name: "unit tier (test/unit/)",
    command: process.execPath,
    args: ["--import", "tsx", "scripts/test-tier.ts", "unit", ...options],
  },
  { name: "portal unit tier (npm run test:portal:unit)", command: npm, args: ["run", "--silent", "test:portal:unit"] },
]);
printResults(results);
process.exit(results.some((result) => result.code !== 0) ? 1 : 0);
