import { expect } from "chai";
import { network } from "hardhat";
import { parseEther } from "ethers";

import { renderBreakdown, traceGas } from "../../../tools/gas-trace.js";
import { deployRedemptionScenario } from "../../helpers/redemption.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;

/** The user holds 50 sSTB (a UUPS proxy: the token's code runs one call deeper). */
async function scenario() {
  return deployRedemptionScenario(connection);
}

describe("traceGas (npm run trace:gas)", function () {
  it("accounts for every step of a transfer to a fresh holder: no refund left over, the fresh balance at 20,000 after its cold read", async function () {
    const f = await networkHelpers.loadFixture(scenario);
    const fresh = ethers.Wallet.createRandom().address;
    const receipt = (await (await f.sstb.connect(f.user).transfer(fresh, parseEther("1"))).wait())!;
    const b = await traceGas(ethers, receipt.hash);

    expect(b.gasUsed).to.equal(receipt.gasUsed);
    // the refund is what the split leaves over: none here, so every step's cost was counted once
    expect(b.refund).to.equal(0);
    expect(Object.keys(b.byDepth)).to.deep.equal(["1", "2"]);
    const execution = Object.values(b.byCategory).reduce((a, c) => a + c, 0);
    expect(Object.values(b.byDepth).reduce((a, c) => a + c, 0)).to.equal(execution);
    // the proxy reads its implementation and delegates; the token writes both balances and logs
    const at = (depth: number, op: string) => b.events.filter((e) => e.depth === depth && e.op === op);
    expect(at(1, "SLOAD").map((e) => e.gas)).to.deep.equal([2_100]);
    expect(at(1, "DELEGATECALL")).to.have.length(1);
    expect(
      at(2, "SSTORE")
        .map((e) => e.gas)
        .sort(),
    ).to.deep.equal([20_000, 2_900].sort());
    expect(at(2, "SLOAD").filter((e) => e.gas === 2_100).length).to.be.greaterThanOrEqual(2);
    expect(at(2, "LOG3")).to.have.length(1);
    expect(at(2, "SSTORE").every((e) => e.context === at(1, "SLOAD")[0].context)).to.equal(true);
    expect(renderBreakdown(b)).to.match(/^gas used \d+ = intrinsic 2\d{4} \+ execution \d+ - refund 0\n/);
  });

  it("shows a cleared slot as the refund", async function () {
    const f = await networkHelpers.loadFixture(scenario);
    const all = await f.sstb.balanceOf(f.user.address);
    const receipt = (await (await f.sstb.connect(f.user).transfer(f.provider.address, all)).wait())!;
    const b = await traceGas(ethers, receipt.hash);
    // the sender's balance goes to zero: EIP-3529's refund for clearing a slot
    expect(b.refund).to.equal(4_800);
  });
});
