import { expect } from "chai";
import { network } from "hardhat";

import { Roles } from "@compute-capacity/sdk";
import { ERC1967Proxy__factory, EmergencyPausableHarness__factory } from "../../../typechain-types/index.js";
import { GUARDIAN_PAUSE, pauseAs } from "../../helpers/pause.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture, time } = networkHelpers;

/** The pause base behind a proxy, the deployer as governance and a guardian. */
async function fixture() {
  const [governance, guardian, caller] = await ethers.getSigners();
  const implementation = await new EmergencyPausableHarness__factory(governance).deploy();
  const data = implementation.interface.encodeFunctionData("initialize", [governance.address]);
  const proxy = await new ERC1967Proxy__factory(governance).deploy(await implementation.getAddress(), data);
  const harness = EmergencyPausableHarness__factory.connect(await proxy.getAddress(), governance);
  await harness.grantRole(Roles.GUARDIAN, guardian.address);
  return { harness, governance, guardian, caller };
}

describe("EmergencyPausable._requireNotPaused (through a harness)", function () {
  describe("guarded call", function () {
    it("passes while not paused", async function () {
      const { harness, caller } = await loadFixture(fixture);
      await harness.connect(caller).guarded();
      expect(await harness.guardedCalls()).to.equal(1n);
    });

    it("is refused during a guardian pause and passes again once it lapses", async function () {
      const { harness, guardian, caller } = await loadFixture(fixture);
      const until = await pauseAs(harness, guardian, "guardian", GUARDIAN_PAUSE);
      await expect(harness.connect(caller).guarded()).to.be.revertedWithCustomError(harness, "EnforcedPause");
      // the last second of the pause: the next block is mined at until - 1
      await time.increaseTo(until - 2n);
      await expect(harness.connect(caller).guarded()).to.be.revertedWithCustomError(harness, "EnforcedPause");
      await time.setNextBlockTimestamp(until);
      await harness.connect(caller).guarded();
      expect(await harness.guardedCalls()).to.equal(1n);
    });

    it("is refused during a governance pause until governance unpauses", async function () {
      const { harness, governance, caller } = await loadFixture(fixture);
      await pauseAs(harness, governance, "governance");
      await time.increase(365n * 24n * 3_600n);
      await expect(harness.connect(caller).guarded()).to.be.revertedWithCustomError(harness, "EnforcedPause");
      await harness.connect(governance).unpause();
      await harness.connect(caller).guarded();
      expect(await harness.guardedCalls()).to.equal(1n);
    });
  });
});
