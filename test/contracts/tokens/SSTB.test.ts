import { expect } from "chai";
import { network } from "hardhat";
import { parseEther } from "ethers";

import { Roles, signPermit } from "@compute-capacity/sdk";
import { deployProtocol } from "../../helpers/protocol.js";
import type { ProtocolFixture } from "../../helpers/protocol.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture } = networkHelpers;

/** The deployer plays minter and burner so the token can be exercised directly. */
async function fixture(): Promise<ProtocolFixture> {
  const f = await deployProtocol(connection);
  await f.sstb.grantRole(Roles.MINTER, f.deployer.address);
  await f.sstb.grantRole(Roles.BURNER, f.deployer.address);
  await f.sstb.mint(f.user.address, parseEther("10"));
  return f;
}

describe("SSTB", function () {
  it("is named sSTB with 18 decimals", async function () {
    const f = await loadFixture(fixture);
    expect(await f.sstb.symbol()).to.equal("sSTB");
    expect(await f.sstb.decimals()).to.equal(18n);
  });

  describe("mint", function () {
    it("mints to an account", async function () {
      const f = await loadFixture(fixture);
      await expect(f.sstb.mint(f.provider.address, 5n)).to.changeTokenBalance(ethers, f.sstb, f.provider, 5n);
    });

    it("refuses a stranger", async function () {
      const f = await loadFixture(fixture);
      await expect(f.sstb.connect(f.stranger).mint(f.stranger.address, 1n))
        .to.be.revertedWithCustomError(f.sstb, "AccessControlUnauthorizedAccount")
        .withArgs(f.stranger.address, Roles.MINTER);
    });
  });

  describe("burnFrom", function () {
    it("burns approved tokens and spends the allowance", async function () {
      const f = await loadFixture(fixture);
      await f.sstb.connect(f.user).approve(f.deployer.address, parseEther("4"));
      await expect(f.sstb.burnFrom(f.user.address, parseEther("3"))).to.changeTokenBalance(
        ethers,
        f.sstb,
        f.user,
        -parseEther("3"),
      );
      expect(await f.sstb.allowance(f.user.address, f.deployer.address)).to.equal(parseEther("1"));
      expect(await f.sstb.totalSupply()).to.equal(parseEther("7"));
    });

    it("does not let a burner burn tokens it was not approved for", async function () {
      const f = await loadFixture(fixture);
      await expect(f.sstb.burnFrom(f.user.address, 1n))
        .to.be.revertedWithCustomError(f.sstb, "ERC20InsufficientAllowance")
        .withArgs(f.deployer.address, 0n, 1n);
      expect(await f.sstb.balanceOf(f.user.address)).to.equal(parseEther("10"));
    });

    it("refuses a stranger even with an allowance", async function () {
      const f = await loadFixture(fixture);
      await f.sstb.connect(f.user).approve(f.stranger.address, parseEther("1"));
      await expect(f.sstb.connect(f.stranger).burnFrom(f.user.address, 1n))
        .to.be.revertedWithCustomError(f.sstb, "AccessControlUnauthorizedAccount")
        .withArgs(f.stranger.address, Roles.BURNER);
    });
  });

  describe("burnFromWithFee", function () {
    it("burns the amount and moves the fee to the recipient, spending the allowance once for both", async function () {
      const f = await loadFixture(fixture);
      await f.sstb.connect(f.user).approve(f.deployer.address, parseEther("5"));
      const tx = f.sstb.burnFromWithFee(f.user.address, parseEther("3"), f.stranger.address, parseEther("0.5"));
      await expect(tx).to.changeTokenBalances(
        ethers,
        f.sstb,
        [f.user, f.stranger],
        [-parseEther("3.5"), parseEther("0.5")],
      );
      await expect(tx)
        .to.emit(f.sstb, "Transfer")
        .withArgs(f.user.address, f.stranger.address, parseEther("0.5"))
        .and.to.emit(f.sstb, "Transfer")
        .withArgs(f.user.address, ethers.ZeroAddress, parseEther("3"));
      expect(await f.sstb.allowance(f.user.address, f.deployer.address)).to.equal(parseEther("1.5"));
      expect(await f.sstb.totalSupply()).to.equal(parseEther("7"));
    });

    it("moves no fee when the fee is 0", async function () {
      const f = await loadFixture(fixture);
      await f.sstb.connect(f.user).approve(f.deployer.address, parseEther("3"));
      const tx = f.sstb.burnFromWithFee(f.user.address, parseEther("3"), f.stranger.address, 0n);
      await expect(tx).to.changeTokenBalances(ethers, f.sstb, [f.user, f.stranger], [-parseEther("3"), 0n]);
      await expect(tx).to.emit(f.sstb, "Transfer").withArgs(f.user.address, ethers.ZeroAddress, parseEther("3"));
      expect(await f.sstb.allowance(f.user.address, f.deployer.address)).to.equal(0n);
    });

    it("needs an allowance for amount plus fee, and changes nothing without it", async function () {
      const f = await loadFixture(fixture);
      await f.sstb.connect(f.user).approve(f.deployer.address, parseEther("3"));
      await expect(f.sstb.burnFromWithFee(f.user.address, parseEther("3"), f.stranger.address, 1n))
        .to.be.revertedWithCustomError(f.sstb, "ERC20InsufficientAllowance")
        .withArgs(f.deployer.address, parseEther("3"), parseEther("3") + 1n);
      expect(await f.sstb.balanceOf(f.user.address)).to.equal(parseEther("10"));
      expect(await f.sstb.totalSupply()).to.equal(parseEther("10"));
      expect(await f.sstb.allowance(f.user.address, f.deployer.address)).to.equal(parseEther("3"));
    });

    it("refuses a stranger even with an allowance", async function () {
      const f = await loadFixture(fixture);
      await f.sstb.connect(f.user).approve(f.stranger.address, parseEther("2"));
      await expect(f.sstb.connect(f.stranger).burnFromWithFee(f.user.address, 1n, f.stranger.address, 1n))
        .to.be.revertedWithCustomError(f.sstb, "AccessControlUnauthorizedAccount")
        .withArgs(f.stranger.address, Roles.BURNER);
    });
  });

  describe("permit", function () {
    it("sets an allowance from an EIP-2612 signature", async function () {
      const f = await loadFixture(fixture);
      const deadline = BigInt((await ethers.provider.getBlock("latest"))!.timestamp) + 3600n;
      const value = parseEther("2");
      const signature = await signPermit(f.sstb, f.user, f.stranger.address, value, deadline, f.chainId);
      await f.sstb.permit(f.user.address, f.stranger.address, value, deadline, signature.v, signature.r, signature.s);
      expect(await f.sstb.allowance(f.user.address, f.stranger.address)).to.equal(value);
      await expect(
        f.sstb.permit(f.user.address, f.stranger.address, value, deadline, signature.v, signature.r, signature.s),
      ).to.be.revertedWithCustomError(f.sstb, "ERC2612InvalidSigner");
    });
  });

  describe("upgrades", function () {
    it("refuses an upgrade by a stranger", async function () {
      const f = await loadFixture(fixture);
      await expect(f.sstb.connect(f.stranger).upgradeToAndCall(f.stranger.address, "0x"))
        .to.be.revertedWithCustomError(f.sstb, "AccessControlUnauthorizedAccount")
        .withArgs(f.stranger.address, Roles.UPGRADER);
    });
  });
});
