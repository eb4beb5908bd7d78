import path from "node:path";
import { gzipSync } from "node:zlib";

import { expect } from "chai";
import { build } from "esbuild";

const ROOT = path.resolve(import.meta.dirname, "../../..");

/**
 * What a browser app pays for a part of the SDK: the part imported by its package name, bundled by
 * esbuild for the browser, minified, gzip -9. `ethers` is the SDK's peer dependency: an app that
 * uses the SDK has it already, so the SDK's own budget leaves it out, and the whole figure (ethers
 * in) is budgeted beside it so that neither can grow unseen.
 */
async function gzippedSize(source: string, options: { withoutEthers?: boolean } = {}): Promise<number> {
  const result = await build({
    stdin: { contents: source, resolveDir: ROOT, sourcefile: "app.ts", loader: "ts" },
    absWorkingDir: ROOT,
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    logLevel: "silent",
    ...(options.withoutEthers ? { external: ["ethers"] } : {}),
  });
  return gzipSync(result.outputFiles[0]!.contents, { level: 9 }).length;
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

const REDEMPTION_ACTIONS =
  'export { approveRedemptionSync, permitRedemptionSync, initiateRedemptionSync, fulfilRedemptionSync, confirmRedemptionSync, openDisputeSync, getRedemption, getAccessDetails, quoteRedemption } from "@compute-capacity/sdk/actions";';

describe("the SDK's weight in a browser bundle (budgets)", function () {
  this.timeout(120_000);

  it("verifyWebhook alone: at most 10 kB gzipped, everything included", async function () {
    const size = await gzippedSize('export { verifyWebhook } from "@compute-capacity/sdk/webhooks";');
    console.log(`      verifyWebhook: ${kB(size)} gzipped`);
    expect(size).to.be.at.most(10_000);
    // through the root entry, the same within a few bytes (module names): nothing else runs at import
    const fromRoot = await gzippedSize('export { verifyWebhook } from "@compute-capacity/sdk";');
    expect(Math.abs(fromRoot - size)).to.be.below(100);
  });

  it("the redemption actions: at most 40 kB gzipped of the SDK and its dependencies, 55 kB with ethers", async function () {
    const own = await gzippedSize(REDEMPTION_ACTIONS, { withoutEthers: true });
    const whole = await gzippedSize(REDEMPTION_ACTIONS);
    console.log(`      redemption actions: ${kB(own)} gzipped without ethers, ${kB(whole)} with it`);
    expect(own).to.be.at.most(40_000);
    expect(whole).to.be.at.most(55_000);
  });

  it("an action carries only the ABIs it names (a market action brings no redemption manager)", async function () {
    const spot = await build({
      stdin: {
        contents: 'export { buySpotListingSync } from "@compute-capacity/sdk/actions";',
        resolveDir: ROOT,
        loader: "ts",
      },
      absWorkingDir: ROOT,
      bundle: true,
      write: false,
      format: "esm",
      platform: "browser",
      logLevel: "silent",
      metafile: true,
      external: ["ethers"],
    });
    const [output] = Object.values(spot.metafile.outputs);
    const inputs = Object.entries(output!.inputs)
      .filter(([input, { bytesInOutput }]) => input.startsWith("sdk/abis/") && bytesInOutput > 0)
      .map(([input]) => input);
    expect(inputs.sort()).to.deep.equal([
      "sdk/abis/errors.ts",
      "sdk/abis/futuresMarket.ts",
      "sdk/abis/optionsMarket.ts",
      "sdk/abis/spotMarket.ts",
    ]);
  });
});
