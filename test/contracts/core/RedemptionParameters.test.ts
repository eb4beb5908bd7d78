import { expect } from "chai";
import { network } from "hardhat";
import { parseEther } from "ethers";

import { Roles } from "@compute-capacity/sdk";
import { DAY } from "../../helpers/protocol.js";
import { deployRedemptionScenario } from "../../helpers/redemption.js";
import type { RedemptionFixture } from "../../helpers/redemption.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture } = networkHelpers;

async function scenario(): Promise<RedemptionFixture> {
  return deployRedemptionScenario(connection);
}

type Manager = RedemptionFixture["redemptionManager"];
type Views = RedemptionFixture["redemptionViews"];

/** The governed parameters issue 9 added: default, bounds, setter and view. */
const PARAMETERS: {
  name: string;
  initial: bigint;
  min: bigint;
  max: bigint;
  set: (m: Manager, value: bigint) => ReturnType<Manager["setReputationUnit"]>;
  get: (v: Views) => Promise<bigint>;
  /** Makes both bounds reachable where another parameter constrains this one. */
  widen?: (m: Manager) => ReturnType<Manager["setReputationUnit"]>;
}[] = [
  {
    name: "disputeResolutionPeriod",
    initial: 14n * DAY,
    min: DAY,
    max: 90n * DAY,
    set: (m, v) => m.setDisputeResolutionPeriod(v),
    get: (v) => v.disputeResolutionPeriod(),
  },
  {
    name: "minRedemptionAmount",
    initial: parseEther("1"),
    min: parseEther("0.001"),
    max: parseEther("1000000"),
    set: (m, v) => m.setMinRedemptionAmount(v),
    get: (v) => v.minRedemptionAmount(),
    // the minimum never exceeds the reputation unit
    widen: (m) => m.setReputationUnit(parseEther("1000000")),
  },
  {
    name: "reputationUnit",
    initial: parseEther("10"),
    min: parseEther("0.001"),
    max: parseEther("1000000"),
    set: (m, v) => m.setReputationUnit(v),
    get: (v) => v.reputationUnit(),
    // the reputation unit is never below the minimum redemption
    widen: (m) => m.setMinRedemptionAmount(parseEther("0.001")),
  },
];

describe("RedemptionManager governed parameters of issue 9", function () {
  for (const p of PARAMETERS) {
    describe(p.name, function () {
      it("starts at its default and takes both bounds, emitting ParameterUpdated", async function () {
        const f = await loadFixture(scenario);
        const m = f.redemptionManager;
        expect(await p.get(f.redemptionViews)).to.equal(p.initial);
        if (p.widen) await p.widen(m);
        await expect(p.set(m, p.min))
          .to.emit(m, "ParameterUpdated")
          .withArgs(ethers.encodeBytes32String(p.name), p.initial, p.min);
        expect(await p.get(f.redemptionViews)).to.equal(p.min);
        await expect(p.set(m, p.max))
          .to.emit(m, "ParameterUpdated")
          .withArgs(ethers.encodeBytes32String(p.name), p.min, p.max);
        expect(await p.get(f.redemptionViews)).to.equal(p.max);
      });

      it("refuses values out of bounds and keeps the old one", async function () {
        const f = await loadFixture(scenario);
        const m = f.redemptionManager;
        for (const value of [0n, p.min - 1n, p.max + 1n]) {
          await expect(p.set(m, value))
            .to.be.revertedWithCustomError(m, "ParameterOutOfBounds")
            .withArgs(ethers.encodeBytes32String(p.name), value);
        }
        expect(await p.get(f.redemptionViews)).to.equal(p.initial);
      });

      it("refuses a caller without the governance role", async function () {
        const f = await loadFixture(scenario);
        for (const caller of [f.stranger, f.guardian, f.arbitrator]) {
          await expect(p.set(f.redemptionManager.connect(caller), p.min))
            .to.be.revertedWithCustomError(f.redemptionManager, "AccessControlUnauthorizedAccount")
            .withArgs(caller.address, Roles.GOVERNANCE);
        }
      });
    });
  }

  describe("disputeResolutionDeadline", function () {
    it("is 0 for a redemption never disputed and refuses an unknown id", async function () {
      const f = await loadFixture(scenario);
      const m = f.redemptionManager;
      await m.connect(f.user).initiateRedemption(parseEther("10"), f.provider.address);
      expect(await f.redemptionViews.disputeResolutionDeadline(1n)).to.equal(0n);
      await expect(f.redemptionViews.disputeResolutionDeadline(2n))
        .to.be.revertedWithCustomError(m, "RedemptionNotFound")
        .withArgs(2n);
    });
  });
});
