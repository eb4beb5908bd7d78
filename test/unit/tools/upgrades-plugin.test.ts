import { expect } from "chai";
import hardhatUpgrades from "@openzeppelin/hardhat-upgrades";

import upgrades, { upgradesSolidityHandlers } from "../../../tools/hardhat/upgrades.js";

describe("the upgrades plugin as the config loads it (tools/hardhat/upgrades.ts)", function () {
  describe("upgradesSolidityHandlers", function () {
    it("keeps every Solidity hook handler of @openzeppelin/hardhat-upgrades but its artifact pass for Foundry", async function () {
      const { default: factory } = await hardhatUpgrades.hookHandlers!.solidity!();
      const theirs = await factory();
      const ours = await upgradesSolidityHandlers();

      expect(theirs).to.have.property("processArtifactsAfterSuccessfulBuild");
      expect(ours).to.not.have.property("processArtifactsAfterSuccessfulBuild");
      const kept = Object.keys(theirs).filter((hook) => hook !== "processArtifactsAfterSuccessfulBuild");
      // the validations the plugin runs on each compilation job are among what is kept
      expect(kept).to.not.be.empty;
      expect(Object.keys(ours)).to.have.members(kept);
      for (const hook of kept) {
        expect(String((ours as Record<string, unknown>)[hook])).to.equal(
          String((theirs as Record<string, unknown>)[hook]),
        );
      }
    });
  });

  describe("the plugin", function () {
    it("is the upgrades plugin under its own id, with its tasks, dependencies and other hook categories", async function () {
      expect(upgrades.id).to.equal(hardhatUpgrades.id);
      for (const field of ["tasks", "dependencies", "conditionalDependencies", "npmPackage"] as const) {
        expect(upgrades[field]).to.equal(hardhatUpgrades[field]);
      }
      const categories = Object.keys(hardhatUpgrades.hookHandlers ?? {});
      expect(Object.keys(upgrades.hookHandlers ?? {})).to.have.members(categories);
      for (const category of categories.filter((c) => c !== "solidity")) {
        expect(upgrades.hookHandlers![category as "config"]).to.equal(
          hardhatUpgrades.hookHandlers![category as "config"],
        );
      }
      const { default: factory } = await upgrades.hookHandlers!.solidity!();
      expect(await factory()).to.not.have.property("processArtifactsAfterSuccessfulBuild");
    });
  });
});
