import { expect } from "chai";
import { network } from "hardhat";

import { MintingAgentV2__factory } from "../../../typechain-types/index.js";
import { deployProtocol } from "../../helpers/protocol.js";

const connection = await network.create();
const { networkHelpers } = connection;
const { loadFixture } = networkHelpers;

async function fixture() {
  return deployProtocol(connection);
}

describe("MintingAgent collaborator views", function () {
  describe("registry, cuToken, sstb, verifier", function () {
    it("return the contracts the deployment wired", async function () {
      const f = await loadFixture(fixture);
      expect(await f.mintingAgent.registry()).to.equal(await f.registry.getAddress());
      expect(await f.mintingAgent.cuToken()).to.equal(await f.cuToken.getAddress());
      expect(await f.mintingAgent.sstb()).to.equal(await f.sstb.getAddress());
      expect(await f.mintingAgent.verifier()).to.equal(await f.verifier.getAddress());
    });

    it("verifier reads storage (setVerifier); the others are the implementation's immutables (an upgrade)", async function () {
      const f = await loadFixture(fixture);
      await f.mintingAgent.setVerifier(f.stranger.address);
      expect(await f.mintingAgent.verifier()).to.equal(f.stranger.address);

      // an implementation bound to another CU token
      const registry = await f.registry.getAddress();
      const sstb = await f.sstb.getAddress();
      const rebound = await new MintingAgentV2__factory(f.deployer).deploy(registry, f.user.address, sstb);
      await f.mintingAgent.upgradeToAndCall(await rebound.getAddress(), "0x");
      expect(await f.mintingAgent.cuToken()).to.equal(f.user.address);
      expect(await f.mintingAgent.registry()).to.equal(registry);
      expect(await f.mintingAgent.sstb()).to.equal(sstb);
      expect(await f.mintingAgent.verifier()).to.equal(f.stranger.address);
    });
  });
});
