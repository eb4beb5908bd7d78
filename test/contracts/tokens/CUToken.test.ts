import { expect } from "chai";
import { network } from "hardhat";

import { Roles } from "@compute-capacity/sdk";
import { SAMPLE_SPECS, deployProtocol } from "../../helpers/protocol.js";
import type { ProtocolFixture } from "../../helpers/protocol.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture } = networkHelpers;

/** The deployer plays the minting agent so that mint and burn can be called directly. */
async function fixture(): Promise<ProtocolFixture> {
  const f = await deployProtocol(connection);
  await f.cuToken.grantRole(Roles.MINTER, f.deployer.address);
  return f;
}

const unit = (cuValue = 100n) => ({ cuHash: ethers.id("report-1"), cuValue, specs: SAMPLE_SPECS });

describe("CUToken", function () {
  describe("mint", function () {
    it("records the unit with sequential ids from 1 and mints cuValue tokens", async function () {
      const f = await loadFixture(fixture);
      await expect(f.cuToken.mint(f.provider.address, unit(100n)))
        .to.emit(f.cuToken, "TransferSingle")
        .withArgs(f.deployer.address, ethers.ZeroAddress, f.provider.address, 1n, 100n);
      await f.cuToken.mint(f.provider2.address, { ...unit(5n), cuHash: ethers.id("report-2") });
      expect(await f.cuToken.totalComputeUnits()).to.equal(2n);
      expect(await f.cuToken.balanceOf(f.provider.address, 1n)).to.equal(100n);
      const second = await f.cuToken.computeUnit(2n);
      expect(second.provider).to.equal(f.provider2.address);
      expect(second.cuHash).to.equal(ethers.id("report-2"));
      expect(second.cuValue).to.equal(5n);
    });

    it("emits ComputeUnitVerified with the record", async function () {
      const f = await loadFixture(fixture);
      await expect(f.cuToken.mint(f.provider.address, unit()))
        .to.emit(f.cuToken, "ComputeUnitVerified")
        .withArgs(
          1n,
          f.provider.address,
          ethers.id("report-1"),
          100n,
          (s: unknown) => s !== undefined,
          (t: bigint) => t > 0n,
        );
    });

    it("does not call a receiver hook on a contract provider", async function () {
      const f = await loadFixture(fixture);
      // the registry is a contract without onERC1155Received; a _mint would revert here
      await expect(f.cuToken.mint(await f.registry.getAddress(), unit())).to.not.be.revert(ethers);
    });

    it("rejects a zero value", async function () {
      const f = await loadFixture(fixture);
      await expect(f.cuToken.mint(f.provider.address, unit(0n))).to.be.revertedWithCustomError(
        f.cuToken,
        "CUTokenZeroValue",
      );
      expect(await f.cuToken.totalComputeUnits()).to.equal(0n);
    });

    it("refuses a stranger", async function () {
      const f = await loadFixture(fixture);
      await expect(f.cuToken.connect(f.stranger).mint(f.stranger.address, unit()))
        .to.be.revertedWithCustomError(f.cuToken, "AccessControlUnauthorizedAccount")
        .withArgs(f.stranger.address, Roles.MINTER);
    });
  });

  describe("burn", function () {
    it("burns the provider's tokens and keeps the record", async function () {
      const f = await loadFixture(fixture);
      await f.cuToken.mint(f.provider.address, unit(100n));
      await expect(f.cuToken.burn(f.provider.address, 1n, 100n))
        .to.emit(f.cuToken, "TransferSingle")
        .withArgs(f.deployer.address, f.provider.address, ethers.ZeroAddress, 1n, 100n);
      expect(await f.cuToken.balanceOf(f.provider.address, 1n)).to.equal(0n);
      expect((await f.cuToken.computeUnit(1n)).cuValue).to.equal(100n);
    });

    it("refuses a stranger, even the holder", async function () {
      const f = await loadFixture(fixture);
      await f.cuToken.mint(f.provider.address, unit());
      await expect(f.cuToken.connect(f.provider).burn(f.provider.address, 1n, 1n))
        .to.be.revertedWithCustomError(f.cuToken, "AccessControlUnauthorizedAccount")
        .withArgs(f.provider.address, Roles.MINTER);
      expect(await f.cuToken.balanceOf(f.provider.address, 1n)).to.equal(100n);
    });
  });

  describe("transfers and approvals", function () {
    it("reverts on every transfer and approval path", async function () {
      const f = await loadFixture(fixture);
      await f.cuToken.mint(f.provider.address, unit());
      const holder = f.cuToken.connect(f.provider);
      await expect(
        holder.safeTransferFrom(f.provider.address, f.user.address, 1n, 1n, "0x"),
      ).to.be.revertedWithCustomError(f.cuToken, "CUTokenNonTransferable");
      await expect(
        holder.safeBatchTransferFrom(f.provider.address, f.user.address, [1n], [1n], "0x"),
      ).to.be.revertedWithCustomError(f.cuToken, "CUTokenNonTransferable");
      await expect(holder.setApprovalForAll(f.user.address, true)).to.be.revertedWithCustomError(
        f.cuToken,
        "CUTokenApprovalsDisabled",
      );
      expect(await f.cuToken.balanceOf(f.provider.address, 1n)).to.equal(100n);
      expect(await f.cuToken.isApprovedForAll(f.provider.address, f.user.address)).to.equal(false);
    });
  });

  describe("computeUnit", function () {
    it("reverts for id 0 and ids not yet minted", async function () {
      const f = await loadFixture(fixture);
      await f.cuToken.mint(f.provider.address, unit());
      for (const id of [0n, 2n]) {
        await expect(f.cuToken.computeUnit(id))
          .to.be.revertedWithCustomError(f.cuToken, "CUTokenUnknownUnit")
          .withArgs(id);
      }
    });
  });

  it("supports the ERC-1155 and AccessControl interfaces", async function () {
    const f = await loadFixture(fixture);
    expect(await f.cuToken.supportsInterface("0xd9b67a26")).to.equal(true);
    expect(await f.cuToken.supportsInterface("0x7965db0b")).to.equal(true);
    expect(await f.cuToken.supportsInterface("0xffffffff")).to.equal(false);
  });
});
