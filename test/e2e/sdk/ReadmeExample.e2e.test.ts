import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { expect } from "chai";

import { runLiveScenario, startLiveDeployment } from "../../../testing/fixtures.js";
import type { LiveDeployment } from "../../../testing/fixtures.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");

/** The first TypeScript block of the SDK guide (docs/sdk.md, linked from the README's quickstart), as written there. */
async function readmeExample(): Promise<string> {
  const guide = await readFile(path.join(ROOT, "docs", "sdk.md"), "utf8");
  const match = /```ts\n([\s\S]*?)```/.exec(guide);
  if (match === null) throw new Error("docs/sdk.md has no example");
  return match[1];
}

describe("the SDK guide's example (docs/sdk.md)", function () {
  this.timeout(240_000);
  let live: LiveDeployment;

  before(async function () {
    // a devnet-like arbitrum node after the demo scenario: provider #5 active, user #6 holding sSTB
    live = await startLiveDeployment("readme", { satellite: false });
    await runLiveScenario(live);
  });

  after(async function () {
    await live?.stop();
  });

  it("runs as written against the devnet's deployments file and prints what the guide says", async function () {
    // inside the project (cache/ is git-ignored), so "@compute-capacity/sdk" resolves through the workspace
    const file = path.join(ROOT, "cache", `readme-sdk-example-${process.pid}.ts`);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, await readmeExample());
    const printed: string[] = [];
    const log = console.log;
    process.env.DEPLOYMENT_FILE = live.deploymentFile;
    console.log = (...args: unknown[]) => printed.push(args.join(" "));
    try {
      await import(pathToFileURL(file).href);
    } finally {
      console.log = log;
      delete process.env.DEPLOYMENT_FILE;
      await rm(file, { force: true });
    }
    expect(printed).to.have.length(3);
    expect(printed[0]).to.match(/^access key 0x[0-9a-f]{64}$/);
    expect(printed.slice(1)).to.deep.equal(["redemption #3 pending", "confirm refused: Not fulfilled yet"]);
    expect(await live.d.redemptionViews.redemptionStatus(3n)).to.equal(1n); // pending on the chain
  });
});
