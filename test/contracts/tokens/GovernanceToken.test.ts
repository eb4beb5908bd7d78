import { expect } from "chai";
import { network } from "hardhat";
import { parseEther } from "ethers";

import { GOVERNANCE_SUPPLY, deployProtocol } from "../../helpers/protocol.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture, time } = networkHelpers;

async function fixture() {
  return deployProtocol(connection);
}

describe("GovernanceToken", function () {
  it("mints the fixed supply to the treasury at deployment", async function () {
    const f = await loadFixture(fixture);
    expect(await f.governanceToken.totalSupply()).to.equal(GOVERNANCE_SUPPLY);
    expect(await f.governanceToken.balanceOf(f.treasury.address)).to.equal(GOVERNANCE_SUPPLY);
  });

  it("rejects a zero treasury", async function () {
    const factory = await ethers.getContractFactory("GovernanceToken");
    await expect(factory.deploy(ethers.ZeroAddress, 1n)).to.be.revertedWithCustomError(
      factory,
      "GovernanceTokenZeroTreasury",
    );
  });

  it("keeps a timestamp clock (ERC-6372)", async function () {
    const f = await loadFixture(fixture);
    expect(await f.governanceToken.CLOCK_MODE()).to.equal("mode=timestamp");
    expect(await f.governanceToken.clock()).to.equal(BigInt((await ethers.provider.getBlock("latest"))!.timestamp));
  });

  it("checkpoints delegated votes across transfers", async function () {
    const f = await loadFixture(fixture);
    const gov = f.governanceToken;
    await gov.connect(f.treasury).delegate(f.treasury.address);
    await gov.connect(f.user).delegate(f.user.address);
    const before = await gov.clock();
    await time.increase(10);
    await gov.connect(f.treasury).transfer(f.user.address, parseEther("1000"));
    expect(await gov.getVotes(f.user.address)).to.equal(parseEther("1000"));
    expect(await gov.getVotes(f.treasury.address)).to.equal(GOVERNANCE_SUPPLY - parseEther("1000"));
    expect(await gov.getPastVotes(f.user.address, before)).to.equal(0n);
  });
});
