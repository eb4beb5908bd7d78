// Runs after `npm ci` (and `npm install`). Hardhat 3 needs Node >= 22.13 and its native EDR binary; npm
// silently skips that binary when npm itself runs on an older Node (the optional
// dependency's `engines` do not match). Fail loudly here instead of at the first test.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const problems = [];

try {
  require("@nomicfoundation/edr");
} catch (error) {
  problems.push(`Hardhat's native EDR binary is missing (${error.code ?? error.message}).`);
}

try {
  require.resolve("node/package.json");
} catch {
  problems.push("The pinned Node 22 runtime (npm package `node`) is missing.");
}

// The bridge compiles against Chainlink's CCIP client files. Their package depends (through
// @chainlink/contracts) on @zksync/contracts from a git host that is not reachable here; the
// package.json override points it at stubs/zksync-contracts, which nothing we compile imports.
try {
  require.resolve("@chainlink/contracts-ccip/contracts/libraries/Client.sol");
} catch {
  problems.push("@chainlink/contracts-ccip is missing (the @zksync/contracts override in package.json must stay).");
}

if (problems.length > 0) {
  console.error(
    [
      "Toolchain check failed:",
      ...problems.map((p) => `  - ${p}`),
      "Install with npm running on Node 22, as the README says:",
      "  npx -y -p node@22.23.3 -- npm ci",
    ].join("\n"),
  );
  process.exit(1);
}
