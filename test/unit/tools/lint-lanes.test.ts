import { readFileSync } from "node:fs";

import { expect } from "chai";

import { LINT_LANES, laneCommand, laneGaps } from "../../../tools/lint-lanes.js";

describe("npm run lint's lanes (tools/lint-lanes.ts)", function () {
  describe("LINT_LANES", function () {
    it("runs every lint script of package.json, each in one lane only", function () {
      const { scripts } = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
      expect(laneGaps(scripts)).to.deep.equal({ unrun: [], missing: [] });
      const laned = LINT_LANES.flat();
      expect(new Set(laned).size).to.equal(laned.length);
    });

    it("builds the TypeChain types before tsc reads them and the SDK package after, in one lane", function () {
      const lane = LINT_LANES.find((l) => l.includes("lint:ts"))!;
      expect(lane.indexOf("lint:ts")).to.be.below(lane.indexOf("lint:package"));
    });
  });

  describe("laneGaps", function () {
    it("names a lint script no lane runs and a laned script package.json lacks", function () {
      const scripts = Object.fromEntries(LINT_LANES.flat().map((name) => [name, "true"]));
      delete scripts["lint:sol"];
      scripts["lint:spelling"] = "cspell .";
      scripts["test:unit"] = "not a lint script";
      expect(laneGaps(scripts)).to.deep.equal({ unrun: ["lint:spelling"], missing: ["lint:sol"] });
    });
  });

  describe("laneCommand", function () {
    it("chains a lane's scripts through npm, which names each, so that the first failure stops it", function () {
      expect(laneCommand(["lint:a", "lint:b"], "linux")).to.deep.equal({
        command: "sh",
        args: ["-c", "npm run lint:a && npm run lint:b"],
      });
      expect(laneCommand(["lint:a"], "win32")).to.deep.equal({
        command: "cmd",
        args: ["/c", "npm.cmd run lint:a"],
      });
    });
  });
});
