import { expect } from "chai";
import { network } from "hardhat";

import { parseEther } from "ethers";

import { Roles } from "@compute-capacity/sdk";
import { deployProtocol, mintFor, registerActive } from "../../helpers/protocol.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture } = networkHelpers;

async function fixture() {
  return deployProtocol(connection);
}

/** A provider with 100 sSTB of capacity in its stake, and the deployer as a redemption manager. */
async function staked() {
  const f = await deployProtocol(connection);
  await registerActive(f, f.provider);
  await mintFor(f, f.provider, parseEther("100"));
  await f.registry.grantRole(Roles.REDEMPTION_MANAGER, f.deployer.address);
  return f;
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

  describe("payOutLock", function () {
    it("never pays more than the lock, whatever ratio the caller reports", async function () {
      const f = await loadFixture(staked);
      const [lock] = await f.registry.reserveCapacity.staticCall(f.provider.address, parseEther("10"));
      await f.registry.reserveCapacity(f.provider.address, parseEther("10"));
      // within the stake with a penalty recipient: compensation = lock x 1e4 / ratio, here above
      // the lock because the reported ratio (50%) is below any ratio the registry allows
      const tx = f.registry.payOutLock(f.provider.address, lock, f.user.address, f.treasury.address, 5_000n, 1n);
      await expect(tx).to.changeTokenBalances(ethers, f.collateral, [f.user, f.treasury], [lock, 0n]);
      await expect(tx)
        .to.emit(f.registry, "CollateralPaidOut")
        .withArgs(f.provider.address, f.user.address, lock, 0n, 1n);
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
