// Mocha root hooks of every `hardhat test mocha` run (`test.mocha.rootHooks` in hardhat.config.ts): the
// integration tier's one live deployment per run (docs/testing.md).
import path from "node:path";

import type { Context } from "mocha";

import { startSharedDeployment, stopSharedDeployment } from "./fixtures.js";

/** Whether the run loaded a test file of `test/integration/` (the tier that uses the shared deployment). */
function runsIntegrationTests(context: Context): boolean {
  const root = context.test?.parent;
  const files = (root?.suites ?? []).map((suite) => suite.file ?? "");
  return files.some((file) => file.split(path.sep).join("/").includes("/test/integration/"));
}

/** Before the first test: the nodes and the deployment, when an integration file is in the run. */
export async function beforeAll(this: Context): Promise<void> {
  if (!runsIntegrationTests(this)) return;
  this.timeout(600_000);
  await startSharedDeployment();
}

/** After the last test: stops what `beforeAll` (or a file, through `sharedLiveDeployment`) started. */
export async function afterAll(this: Context): Promise<void> {
  this.timeout(120_000);
  await stopSharedDeployment();
}
