import { expect } from "chai";
import { network } from "hardhat";

import { Roles } from "@compute-capacity/sdk";
import { SAMPLE_SPECS, deployProtocol } from "../../helpers/protocol.js";
import type { ProtocolFixture } from "../../helpers/protocol.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture } = networkHelpers;

const MAX_UINT96 = 2n ** 96n - 1n;

/** The deployer holds MINTER_ROLE so that mint can be called directly. */
async function minter(): Promise<ProtocolFixture> {
  const f = await deployProtocol(connection);
  await f.cuToken.grantRole(Roles.MINTER, f.deployer.address);
  return f;
}

const unit = (cuValue: bigint) => ({ cuHash: ethers.id(`report-${cuValue}`), cuValue, specs: SAMPLE_SPECS });

describe("CUToken value bound", function () {
  describe("mint", function () {
    it("accepts the largest value that fits 96 bits and records it exactly", async function () {
      const f = await loadFixture(minter);
      await expect(f.cuToken.mint(f.provider.address, unit(MAX_UINT96)))
        .to.emit(f.cuToken, "TransferSingle")
        .withArgs(f.deployer.address, ethers.ZeroAddress, f.provider.address, 1n, MAX_UINT96);
      expect((await f.cuToken.computeUnit(1n)).cuValue).to.equal(MAX_UINT96);
      expect(await f.cuToken.balanceOf(f.provider.address, 1n)).to.equal(MAX_UINT96);
    });

    it("refuses a value above type(uint96).max with CUTokenValueTooLarge", async function () {
      const f = await loadFixture(minter);
      for (const cuValue of [MAX_UINT96 + 1n, 2n ** 128n, ethers.MaxUint256]) {
        await expect(f.cuToken.mint(f.provider.address, unit(cuValue)))
          .to.be.revertedWithCustomError(f.cuToken, "CUTokenValueTooLarge")
          .withArgs(cuValue);
      }
      expect(await f.cuToken.totalComputeUnits()).to.equal(0n);
    });

    it("refuses a zero value with CUTokenZeroValue", async function () {
      const f = await loadFixture(minter);
      await expect(f.cuToken.mint(f.provider.address, unit(0n))).to.be.revertedWithCustomError(
        f.cuToken,
        "CUTokenZeroValue",
      );
      await f.cuToken.mint(f.provider.address, unit(1n));
      expect(await f.cuToken.totalComputeUnits()).to.equal(1n);
      expect((await f.cuToken.computeUnit(1n)).cuValue).to.equal(1n);
    });
  });
});
