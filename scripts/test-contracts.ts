// `npm run test:contracts`: the contract tier. After one `hardhat build` (the check only, when the unit
// tier has built), the Solidity tests (`hardhat test solidity`, test/sol) and the TypeScript tests on the
// in-process chain (`hardhat test mocha`, test/contracts, in worker processes: TEST_JOBS=auto) run side by
// side (tools/concurrent.ts), each one's output printed whole when both are done; fails when either fails.
// `hardhat test` ran them one after the other: the Solidity tests keep about one core busy for a minute
// while the other waits (decision 0185).
import { printResults, runConcurrently } from "../tools/concurrent.js";
import { HARDHAT_CLI, buildContracts } from "../tools/test-tiers.js";

// one build for both runs: two builds starting at once would both write and rename the compile cache
// (`TEST_NO_COMPILE=1` skips it, as the tiers' runs do)
if (process.env.TEST_NO_COMPILE !== "1") {
  const status = buildContracts();
  if (status !== 0) process.exit(status);
}
const results = await runConcurrently([
  {
    name: "Solidity tests (hardhat test solidity, test/sol/)",
    command: process.execPath,
    args: [HARDHAT_CLI, "test", "solidity", "--no-compile"],
  },
  {
    name: "contract tier (hardhat test mocha, test/contracts/)",
    command: process.execPath,
    args: [HARDHAT_CLI, "test", "mocha", "--no-compile"],
    env: { ...process.env, TEST_JOBS: process.env.TEST_JOBS ?? "auto" },
  },
]);
printResults(results);
process.exit(results.some((result) => result.code !== 0) ? 1 : 0);
