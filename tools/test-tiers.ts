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
 * PGlite whatever the setting. A second run of the tier on another database (`npm test`'s PostgreSQL
 * side, `TEST_DATABASE_ONLY=1`) leaves them out: it would run the same tests on the same parts again,
 * about 110 s of a CI run (decision 0185). A unit test holds each of their files to that.
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
