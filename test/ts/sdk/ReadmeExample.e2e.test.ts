import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { expect } from "chai";

import { runLiveScenario, startLiveDeployment } from "../../../devnet/fixtures.js";
import type { LiveDeployment } from "../../../devnet/fixtures.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");

/** The first TypeScript block of README.md's "SDK" section, as written there. */
async function readmeExample(): Promise<string> {
  const readme = await readFile(path.join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("\n## SDK\n"));
  const match = /```ts\n([\s\S]*?)```/.exec(section);
  if (readme.indexOf("\n## SDK\n") < 0 || match === null) throw new Error("README.md has no SDK example");
  return match[1];
}

describe("README.md's SDK example", function () {
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

  it("runs as written against the devnet's deployments file and prints what the README says", async function () {
    // inside the project (cache/ is git-ignored), so "#sdk" resolves through package.json
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
