import { expect } from "chai";
import { network } from "hardhat";

import { Roles } from "../../../scripts/lib/roles.js";
import { deployProtocol } from "../../helpers/protocol.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture } = networkHelpers;

async function fixture() {
  return deployProtocol(connection);
}

describe("ProviderRegistry guards the minting agent never trips", function () {
  describe("recordRetire", function () {
    it("refuses a zero amount from a minting agent", async function () {
      const f = await loadFixture(fixture);
      // the agent refuses zero itself (MintingAgentZeroAmount); the registry does not rely on it
      await f.registry.grantRole(Roles.MINTING_AGENT, f.deployer.address);
      await expect(f.registry.recordRetire(f.provider.address, 0n)).to.be.revertedWithCustomError(
        f.registry,
        "ZeroAmount",
      );
    });
  });

  describe("setReputationDeltas", function () {
    it("refuses a zero penalty with a valid reward", async function () {
      const f = await loadFixture(fixture);
      await expect(f.registry.setReputationDeltas(100n, 0n))
        .to.be.revertedWithCustomError(f.registry, "ParameterOutOfBounds")
        .withArgs(ethers.encodeBytes32String("reputationPenalty"), 0n);
      expect(await f.registry.reputationDeltas()).to.deep.equal([100n, 500n]);
    });
  });
});
