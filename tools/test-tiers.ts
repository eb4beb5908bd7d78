// The test tiers (docs/testing.md): a tier is a folder of test/, and running one runs every test file
// in it, so a new file is in its tier's run without being listed anywhere.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** Hardhat's command-line entry, run with the Node.js that runs the caller (the project's Node 22). */
export const HARDHAT_CLI = path.join(
  path.dirname(createRequire(import.meta.url).resolve("hardhat/package.json")),
  "dist/src/cli.js",
);

/**
 * `hardhat build --quiet` (the check alone when nothing changed), its output on this process's; the
 * exit status. The test scripts build once before the runs that read the artifacts start.
 */
export function buildContracts(): number {
  return spawnSync(process.execPath, [HARDHAT_CLI, "build", "--quiet"], { stdio: "inherit" }).status ?? 1;
}

/** The TypeScript tiers, fastest first: what each may start is in docs/testing.md. */
export const TIERS = ["unit", "contracts", "integration", "e2e"] as const;
export type Tier = (typeof TIERS)[number];

export function isTier(name: string): name is Tier {
  return (TIERS as readonly string[]).includes(name);
}

/** Every `*.test.ts` file under `test/<tier>/` (at any depth), relative to `root`, sorted. */
export function tierFiles(root: string, tier: Tier): string[] {
  const folder = path.join(root, "test", tier);
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && entry.name.endsWith(".test.ts")) found.push(path.relative(root, full));
    }
  };
  walk(folder);
  return found.sort();
}

/**
 * Folders of `test/integration/` whose tests never read the run's database setting (`DATABASE_URL`):
 * the deployment and the local nodes have no database, and the embedded database's own tests open
 * PGlite whatever the setting. When `npm test` runs the tier on two databases side by side, one of
 * the runs (`TEST_DATABASE_ONLY=1`: the PGlite side, whose run is the longer) leaves them out: it
 * would run the same tests on the same parts again, about 110 s of a CI run (decisions 0185, 0188).
 * A unit test holds each of their files to that.
 */
export const DATABASE_FREE_FOLDERS = ["deploy", "devnet", "pglite"] as const;

/** Whether an integration file (relative to the root) is under one of `DATABASE_FREE_FOLDERS`. */
export function isDatabaseFree(file: string): boolean {
  const [, tier, folder] = file.split(path.sep).join("/").split("/");
  return tier === "integration" && (DATABASE_FREE_FOLDERS as readonly string[]).includes(folder);
}

/**
 * The `hardhat` arguments that run the given tiers' TypeScript tests in one mocha run:
 * `test mocha [options…] <files…>`. Options (`--grep x`, `--no-compile`, `--bail`) pass through.
 * `databaseOnly`: without the integration files of `DATABASE_FREE_FOLDERS`.
 */
export function tierArguments(
  root: string,
  tiers: readonly Tier[],
  options: readonly string[] = [],
  select: { databaseOnly?: boolean } = {},
): string[] {
  const files = tiers
    .flatMap((tier) => tierFiles(root, tier))
    .filter((file) => select.databaseOnly !== true || !isDatabaseFree(file));
  if (files.length === 0) throw new Error(`no test file under ${tiers.map((tier) => `test/${tier}/`).join(", ")}`);
  return ["test", "mocha", ...options, ...files];
}

/**
 * The unit tier's own run: mocha itself, not `hardhat test mocha`, since no unit test uses the Hardhat
 * runtime and loading it is a large part of a short run (docs/testing.md). The arguments after
 * `node --import tsx <mocha>`: Hardhat's mocha time-out, options (`--grep x`, `--bail`), the files.
 */
export function unitMochaArguments(root: string, options: readonly string[] = []): string[] {
  return ["--timeout", "40000", ...options, ...tierFiles(root, "unit")];
}

/** One of the runs `npm test` starts side by side after the contract tier (scripts/test-all.ts). */
export interface TestSide {
  name: string;
  /** `npm run <script>` */
  script: string;
  env: NodeJS.ProcessEnv;
}

/**
 * The runs `npm test` starts side by side once the contract tier has built the contracts: the
 * integration tier on PGlite and the end-to-end tier, and, when `DATABASE_URL` names a PostgreSQL
 * database, the integration tier once more on it (decision 0180). None of them checks the build again
 * (`TEST_NO_COMPILE=1`), and the build checks of the commands they start (`hardhat devnet`,
 * `deploy-protocol`, `check-deployment`, `rehearse`) leave the TypeChain types as the contract tier's
 * build wrote them (`HARDHAT_NO_TYPECHAIN`, Hardhat's global flag: TypeChain rewrites every file on each
 * build, even one that compiles nothing, while CI's lint reads them; decision 0188). Only the PostgreSQL
 * side sees `DATABASE_URL` (two runs on one database would reset each other's tables). The files that
 * never read the database setting (`DATABASE_FREE_FOLDERS`) run once: on the PostgreSQL side, whose run
 * ends first, and the PGlite side (`TEST_DATABASE_ONLY=1`) leaves them out (decision 0188).
 */
export function sideBySide(env: NodeJS.ProcessEnv): TestSide[] {
  const postgres = env.DATABASE_URL;
  const base: NodeJS.ProcessEnv = { ...env, TEST_NO_COMPILE: "1", HARDHAT_NO_TYPECHAIN: "true" };
  delete base.DATABASE_URL;
  delete base.TEST_DATABASE_ONLY;
  if (postgres === undefined || postgres === "") {
    return [
      { name: "npm run test:integration", script: "test:integration", env: base },
      { name: "npm run test:e2e", script: "test:e2e", env: base },
    ];
  }
  return [
    { name: "npm run test:integration", script: "test:integration", env: { ...base, TEST_DATABASE_ONLY: "1" } },
    { name: "npm run test:e2e", script: "test:e2e", env: base },
    {
      name: "npm run test:integration (PostgreSQL)",
      script: "test:integration",
      env: { ...base, DATABASE_URL: postgres },
    },
  ];
}
