/**
 * Runs the test suite under coverage on an instrumented copy of the project and measures line and
 * branch coverage per contract (method and limits: `branch-coverage.ts`).
 *
 * The copy lives in `coverage/branch-work/` (ignored by git, removed by `hardhat clean`): the
 * project's files with `contracts/` (mocks excepted) branch-instrumented, `node_modules` linked,
 * and a config that extends the project's with `coverage.skipFiles`. The working tree is never
 * modified. The tests run as `hardhat test --coverage <files>` there: every Solidity test and
 * the unit and contract tiers' TypeScript tests (the integration and end-to-end tiers' separate
 * `hardhat node` processes report no coverage), except the gas-target tests, which the instrumentation's extra gas
 * makes fail.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

import {
  BRANCH_LIBRARY_SOURCE,
  contractNames,
  fileCoverage,
  findBranchPoints,
  instrumentSource,
  statementLines,
} from "./branch-coverage.js";
import type { FileCoverage } from "./branch-coverage.js";
import { tierFiles } from "./test-tiers.js";

export interface CoverageRunOptions {
  /** The project root (where hardhat.config.ts is). */
  root: string;
  /** The solc version of the project's build profile. */
  solcVersion: string;
  /** Where output goes; defaults to the console. */
  log?: (line: string) => void;
}

export interface CoverageRunResult {
  files: FileCoverage[];
  /** Whether every test passed under coverage. */
  testsPassed: boolean;
}

/** Directories (relative to the root) that hold build output, state or the copy itself. */
const NOT_COPIED = new Set([
  ".git",
  "node_modules",
  "artifacts",
  "cache",
  "coverage",
  "typechain-types",
  "types",
  "ignition/deployments",
  ".openzeppelin",
]);
const LIBRARY_PATH = "contracts/__branch_coverage__/BranchCoverage.sol";
/**
 * The gas-target tests (`runGasBenchmark (npm run bench:gas)`'s "keeps ... within N" tests): the
 * probes and statement hits add gas, so they cannot pass under coverage and are left out of the
 * run. A pattern over mocha's full title (describe + test) and the Solidity test names.
 */
const GAS_TARGET_TESTS = "bench:gas\\) keeps ";
/** Project files that are not measured (test doubles). */
const UNMEASURED = ["contracts/mocks/"];

function filesUnder(root: string, dir: string, accept: (relative: string) => boolean): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = path.posix.join(relative, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (accept(child)) found.push(child);
    }
  };
  if (existsSync(path.join(root, dir))) walk(dir);
  return found.sort();
}

/**
 * The tests the coverage run executes, relative to the root: the Solidity tests and the unit and contract
 * tiers. The integration and end-to-end tiers run their chains in separate `hardhat node` processes,
 * which report no coverage (docs/testing.md).
 */
export function coverageTestFiles(root: string): string[] {
  return [
    ...filesUnder(root, "test/sol", (f) => f.endsWith(".t.sol")),
    ...tierFiles(root, "unit"),
    ...tierFiles(root, "contracts"),
  ];
}

/** Every tag the coverage run recorded, from `coverage/data/<runner>/*.json`. */
export function readRecordedTags(coverageDir: string): Set<string> {
  const tags = new Set<string>();
  for (const file of filesUnder(coverageDir, "data", (f) => f.endsWith(".json"))) {
    const counts = JSON.parse(readFileSync(path.join(coverageDir, file), "utf8")) as Record<string, number>;
    for (const [tag, count] of Object.entries(counts)) if (count > 0) tags.add(tag);
  }
  return tags;
}

interface MeasuredSource {
  sourceName: string;
  contracts: string[];
  statements: ReturnType<typeof statementLines>;
  points: ReturnType<typeof findBranchPoints>;
}

/** Copies the project into `work`, instrumenting the measured contracts; returns what it measures. */
function prepareWorkspace(root: string, work: string, solcVersion: string): MeasuredSource[] {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  for (const entry of readdirSync(root)) {
    if (NOT_COPIED.has(entry)) continue;
    cpSync(path.join(root, entry), path.join(work, entry), {
      recursive: true,
      filter: (src) => !NOT_COPIED.has(path.relative(root, src).split(path.sep).join("/")),
    });
  }
  symlinkSync(path.join(root, "node_modules"), path.join(work, "node_modules"), "dir");
  mkdirSync(path.dirname(path.join(work, LIBRARY_PATH)), { recursive: true });
  writeFileSync(path.join(work, LIBRARY_PATH), BRANCH_LIBRARY_SOURCE);
  writeFileSync(
    path.join(work, "hardhat.coverage.config.ts"),
    [
      'import config from "./hardhat.config.js";',
      "",
      "export default {",
      "  ...config,",
      `  coverage: { skipFiles: ${JSON.stringify([...UNMEASURED.map((d) => `${d}**`), LIBRARY_PATH])} },`,
      "};",
      "",
    ].join("\n"),
  );

  const measured: MeasuredSource[] = [];
  const sources = filesUnder(root, "contracts", (f) => f.endsWith(".sol") && !UNMEASURED.some((d) => f.startsWith(d)));
  for (const sourceName of sources) {
    const content = readFileSync(path.join(root, sourceName), "utf8");
    const points = findBranchPoints(sourceName, content);
    let importPath = path.posix.relative(path.posix.dirname(sourceName), LIBRARY_PATH);
    if (!importPath.startsWith(".")) importPath = `./${importPath}`;
    const instrumented = instrumentSource(content, points, importPath);
    writeFileSync(path.join(work, sourceName), instrumented);
    measured.push({
      sourceName,
      contracts: contractNames(sourceName, content),
      // Hardhat names project sources `project/<path>` in its compilation jobs
      statements: statementLines(instrumented, `project/${sourceName}`, solcVersion),
      points,
    });
  }
  return measured;
}

/** Checks that Hardhat's EDR is the one this module instruments with (tags must match). */
function assertSameEdr(root: string): void {
  const manifest = (name: string) =>
    JSON.parse(readFileSync(path.join(root, "node_modules", name, "package.json"), "utf8")) as {
      version: string;
      dependencies: Record<string, string>;
    };
  const hardhatEdr = manifest("hardhat").dependencies["@nomicfoundation/edr"];
  const edr = manifest("@nomicfoundation/edr").version;
  if (hardhatEdr !== edr) {
    throw new Error(`hardhat uses @nomicfoundation/edr ${hardhatEdr}, the project pins ${edr}: pin the same version`);
  }
}

/** Instruments a copy of the project, runs the tests under coverage, and measures each contract. */
export function runCoverage({ root, solcVersion, log = console.log }: CoverageRunOptions): CoverageRunResult {
  assertSameEdr(root);
  const work = path.join(root, "coverage", "branch-work");
  log(`instrumenting a copy of the project in ${path.relative(process.cwd(), work) || "."}`);
  const measured = prepareWorkspace(root, work, solcVersion);

  const cli = path.join(
    path.dirname(createRequire(import.meta.url).resolve("hardhat/package.json")),
    "dist/src/cli.js",
  );
  const tests = coverageTestFiles(work);
  log(`running ${tests.length} test files under coverage`);
  const run = spawnSync(
    process.execPath,
    [cli, "--config", "hardhat.coverage.config.ts", "test", "--coverage", "--grep-exclude", GAS_TARGET_TESTS, ...tests],
    { cwd: work, stdio: "inherit" },
  );
  if (run.error !== undefined) throw run.error;

  const recorded = readRecordedTags(path.join(work, "coverage"));
  const known = new Set<string>();
  for (const m of measured) {
    for (const s of m.statements) known.add(s.tag);
    for (const p of m.points) for (const side of p.sides) known.add(side.tag);
  }
  const unknown = [...recorded].filter((t) => !known.has(t));
  if (recorded.size === 0 || unknown.length > 0) {
    throw new Error(
      `the run recorded ${recorded.size} tags, ${unknown.length} of them unknown here: the statement ` +
        "instrumentation was not reproduced exactly (EDR version, source name or solc version differ)",
    );
  }

  return {
    files: measured.map((m) => fileCoverage(m.sourceName, m.contracts, m.statements, m.points, recorded)),
    testsPassed: run.status === 0,
  };
}
