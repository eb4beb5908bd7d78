import { expect } from "chai";
import { network } from "hardhat";

import { Roles } from "@compute-capacity/sdk";
import { CUTokenTransferHarness__factory } from "../../../typechain-types/index.js";
import { SAMPLE_SPECS } from "../../helpers/protocol.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture } = networkHelpers;

/** A CU token with ERC-1155's internal transfers opened, and one unit minted to the holder. */
async function fixture() {
  const [admin, holder, other] = await ethers.getSigners();
  const token = await new CUTokenTransferHarness__factory(admin).deploy(admin.address);
  await token.grantRole(Roles.MINTER, admin.address);
  await token.mint(holder.address, { cuHash: ethers.id("unit-1"), cuValue: 100n, specs: SAMPLE_SPECS });
  return { token, admin, holder, other };
}

describe("CUToken._update (the second line of defence)", function () {
  describe("internal transfer paths", function () {
    it("refuse a transfer between two accounts, single or batch", async function () {
      const { token, holder, other } = await loadFixture(fixture);
      await expect(token.internalTransfer(holder.address, other.address, 1n, 1n)).to.be.revertedWithCustomError(
        token,
        "CUTokenNonTransferable",
      );
      await expect(
        token.internalBatchTransfer(holder.address, other.address, [1n], [1n]),
      ).to.be.revertedWithCustomError(token, "CUTokenNonTransferable");
      expect(await token.balanceOf(holder.address, 1n)).to.equal(100n);
      expect(await token.balanceOf(other.address, 1n)).to.equal(0n);
    });

    it("still let mints and burns through", async function () {
      const { token, holder } = await loadFixture(fixture);
      await token.burn(holder.address, 1n, 100n);
      expect(await token.balanceOf(holder.address, 1n)).to.equal(0n);
    });
  });
});
