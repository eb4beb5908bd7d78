// Mocha root hooks of every `hardhat test mocha` run (`test.mocha.rootHooks` in hardhat.config.ts): the
// integration tier's one live deployment per run (docs/testing.md, decision 0120).
import path from "node:path";

import type { Context } from "mocha";

/** Whether the run loaded a test file of `test/integration/` (the tier that uses the shared deployment). */
export function runsIntegrationTests(files: readonly string[]): boolean {
  return files.some((file) => file.split(path.sep).join("/").includes("/test/integration/"));
}

/** The files of the run's top-level suites (each test file's own). */
function filesOf(context: Context): string[] {
  const root = context.test?.parent;
  return (root?.suites ?? []).map((suite) => suite.file ?? "");
}

/** Before the first test: the nodes and the deployment, when an integration file is in the run. */
export async function beforeAll(this: Context): Promise<void> {
  if (!runsIntegrationTests(filesOf(this))) return;
  this.timeout(600_000);
  // loaded here: the fixtures load Hardhat's runtime, which a run of other tiers does not need
  const { startSharedDeployment } = await import("./fixtures.js");
  await startSharedDeployment();
}

/** After the last test: stops what `beforeAll` (or a file, through `sharedLiveDeployment`) started. */
export async function afterAll(this: Context): Promise<void> {
  this.timeout(120_000);
  if (!runsIntegrationTests(filesOf(this))) return;
  const { stopSharedDeployment } = await import("./fixtures.js");
  await stopSharedDeployment();
}
