import { expect } from "chai";
import { network } from "hardhat";
import { parseEther } from "ethers";

import { MockStablecoin__factory, SatelliteExecutor__factory } from "../../../typechain-types/index.js";
import { ARB, ETH } from "../../helpers/bridge.js";

/**
 * The satellite executor on its own: an account plays its governance channel, so every path the
 * channel's delivery can take is reached directly (the channel's side of governance messages is in
 * test/contracts/bridge/GovernanceChannel.test.ts).
 */

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture } = networkHelpers;

async function executorFixture() {
  const [deployer, channel, timelock, bob, stranger] = await ethers.getSigners();
  const executor = await new SatelliteExecutor__factory(deployer).deploy(channel.address, ARB, timelock.address);
  const token = await new MockStablecoin__factory(deployer).deploy();
  return { executor, token, deployer, channel, timelock, bob, stranger };
}

describe("SatelliteExecutor", function () {
  describe("constructor", function () {
    it("fixes its governance channel, the primary chain and the primary timelock", async function () {
      const { executor, channel, timelock } = await loadFixture(executorFixture);
      expect(await executor.channel()).to.equal(channel.address);
      expect(await executor.primaryChainSelector()).to.equal(ARB);
      expect(await executor.primaryTimelock()).to.equal(timelock.address);
    });

    it("refuses a zero channel, primary chain or timelock", async function () {
      const { executor, deployer, channel, timelock } = await loadFixture(executorFixture);
      const factory = new SatelliteExecutor__factory(deployer);
      const zeroArguments: Array<[string, bigint, string]> = [
        [ethers.ZeroAddress, ARB, timelock.address],
        [channel.address, 0n, timelock.address],
        [channel.address, ARB, ethers.ZeroAddress],
      ];
      for (const [b, selector, t] of zeroArguments) {
        await expect(factory.deploy(b, selector, t)).to.be.revertedWithCustomError(executor, "ExecutorZeroArgument");
      }
    });
  });

  describe("executeFromPrimary", function () {
    it("runs the calls in order, with their value, and emits CallsExecuted", async function () {
      const { executor, token, channel, timelock, bob } = await loadFixture(executorFixture);
      await channel.sendTransaction({ to: await executor.getAddress(), value: parseEther("1") }); // receive()
      const target = await token.getAddress();
      const calls = [
        { target, value: 0n, data: token.interface.encodeFunctionData("mint", [await executor.getAddress(), 10n]) },
        // needs the first call's mint
        { target, value: 0n, data: token.interface.encodeFunctionData("transfer", [bob.address, 10n]) },
        { target: bob.address, value: parseEther("0.25"), data: "0x" },
      ];
      const tx = executor.connect(channel).executeFromPrimary(ARB, timelock.address, calls);
      await expect(tx).to.emit(executor, "CallsExecuted").withArgs(timelock.address, 3n);
      await expect(tx).to.changeEtherBalances(ethers, [executor, bob], [-parseEther("0.25"), parseEther("0.25")]);
      expect(await token.balanceOf(bob.address)).to.equal(10n);
    });

    it("refuses a caller other than its channel", async function () {
      const { executor, timelock, stranger } = await loadFixture(executorFixture);
      await expect(executor.connect(stranger).executeFromPrimary(ARB, timelock.address, []))
        .to.be.revertedWithCustomError(executor, "ExecutorOnlyChannel")
        .withArgs(stranger.address);
    });

    it("refuses a source chain other than the primary, and an origin other than the primary timelock", async function () {
      const { executor, channel, timelock, stranger } = await loadFixture(executorFixture);
      await expect(executor.connect(channel).executeFromPrimary(ETH, timelock.address, []))
        .to.be.revertedWithCustomError(executor, "ExecutorUnauthorizedOrigin")
        .withArgs(ETH, timelock.address);
      await expect(executor.connect(channel).executeFromPrimary(ARB, stranger.address, []))
        .to.be.revertedWithCustomError(executor, "ExecutorUnauthorizedOrigin")
        .withArgs(ARB, stranger.address);
    });

    it("undoes every call when one reverts, with that call's revert data", async function () {
      const { executor, token, channel, timelock, bob } = await loadFixture(executorFixture);
      const target = await token.getAddress();
      const holder = await executor.getAddress();
      const calls = [
        { target, value: 0n, data: token.interface.encodeFunctionData("mint", [holder, 10n]) },
        { target, value: 0n, data: token.interface.encodeFunctionData("transfer", [bob.address, 11n]) },
      ];
      await expect(executor.connect(channel).executeFromPrimary(ARB, timelock.address, calls))
        .to.be.revertedWithCustomError(token, "ERC20InsufficientBalance")
        .withArgs(holder, 10n, 11n);
      expect(await token.totalSupply()).to.equal(0n);
    });

    it("names the index of a call that reverts without data", async function () {
      const { executor, token, channel, timelock } = await loadFixture(executorFixture);
      const target = await token.getAddress();
      const calls = [
        { target, value: 0n, data: token.interface.encodeFunctionData("mint", [timelock.address, 1n]) },
        { target, value: 0n, data: "0x12345678" }, // no such function and no fallback: an empty revert
      ];
      await expect(executor.connect(channel).executeFromPrimary(ARB, timelock.address, calls))
        .to.be.revertedWithCustomError(executor, "ExecutorCallFailed")
        .withArgs(1n);
      expect(await token.totalSupply()).to.equal(0n);
    });
  });
});
