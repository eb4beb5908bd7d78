// npm run coverage — line and branch coverage per contract of contracts/ (mocks excepted), written
// to docs/coverage.md. Runs the tests under coverage on an instrumented copy of the project
// (coverage/branch-work/); the method and its limits are in tools/branch-coverage.ts.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

import hre from "hardhat";

import { renderCoverageTable } from "../tools/branch-coverage.js";
import { runCoverage } from "../tools/coverage-run.js";

const root = hre.config.paths.root;
const solcVersion = hre.config.solidity.profiles.default.compilers[0].version;
const { files, testsPassed } = runCoverage({ root, solcVersion });

const report = [
  "# Coverage",
  "",
  "Written by `npm run coverage` (method and limits: `tools/branch-coverage.ts` and",
  "`docs/decisions/0050-branch-coverage-tool.md`). Lines: lines where a statement starts, covered if one of them ran.",
  "Branches: both sides of every `if` (an implicit else included), ternary, `require`/`assert`, and",
  "`&&`/`||` (short-circuit or not), each covered if some test took it.",
  "",
  renderCoverageTable(files),
].join("\n");
const out = path.join(root, "docs", "coverage.md");
await mkdir(path.dirname(out), { recursive: true });
await writeFile(out, report);
console.log(report);
console.log(`written to ${path.relative(process.cwd(), out)}`);
if (!testsPassed) {
  console.error("some tests failed under coverage: the figures count what ran");
  process.exitCode = 1;
}
