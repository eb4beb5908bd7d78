import path from "node:path";

import { expect } from "chai";

import nodeConfig from "../../../devnet/node.config.js";
import { NODE_CONFIG } from "../../../devnet/local-node.js";

const ROOT = path.resolve(import.meta.dirname, "..", "..", "..");

describe("The config a local node loads (devnet/node.config.ts)", function () {
  it("is the one startLocalNode passes to hardhat node", function () {
    expect(NODE_CONFIG).to.equal(path.join(ROOT, "devnet", "node.config.ts"));
  });

  it("loads no plugin and names no network: the node runs Hardhat's built-in node network", function () {
    expect(nodeConfig.plugins ?? []).to.deep.equal([]);
    expect(nodeConfig.networks ?? {}).to.deep.equal({});
  });

  it("watches an artifacts folder of its own, which no build writes, not the project's", function () {
    const artifacts = nodeConfig.paths?.artifacts;
    expect(artifacts).to.equal(path.join(ROOT, "cache", "local-node", "artifacts"));
    expect(artifacts).to.not.equal(path.join(ROOT, "artifacts"));
    expect(nodeConfig.paths?.cache).to.equal(path.join(ROOT, "cache", "local-node", "cache"));
  });
});
