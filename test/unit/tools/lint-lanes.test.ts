import { readFileSync } from "node:fs";

import { expect } from "chai";

import {
  BUILD_READERS,
  LINT_LANES,
  SOURCE_CHECKS,
  laneCommand,
  laneGaps,
  lanesOf,
  lintPartOf,
} from "../../../tools/lint-lanes.js";

/** Each of `checks` is a lint script of a lane, and its command in package.json matches nothing of `forbidden`. */
function expectLanedScriptsWithout(checks: readonly string[], forbidden: RegExp): void {
  const { scripts } = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
  expect(checks).to.not.be.empty;
  for (const script of checks) {
    expect(LINT_LANES.flat()).to.include(script);
    expect(scripts[script], script).to.not.match(forbidden);
  }
}

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
      expect(lane.indexOf("build")).to.equal(0);
      expect(lane.indexOf("lint:ts")).to.be.below(lane.indexOf("lint:package"));
    });
  });

  describe("SOURCE_CHECKS", function () {
    it("are laned lint scripts that build nothing and read no build (no Hardhat or SDK build, no TypeChain)", function () {
      expectLanedScriptsWithout(SOURCE_CHECKS, /hardhat|npm run|build|tsx |depcruise|openapi/);
    });
  });

  describe("BUILD_READERS", function () {
    it("are laned lint scripts, not source checks, that run no build and write neither the SDK package nor Hardhat's files", function () {
      expectLanedScriptsWithout(BUILD_READERS, /(^|&&\s*)(npx\s+)?hardhat\s|npm run|build|pack|-w\s/);
      for (const script of BUILD_READERS) expect(SOURCE_CHECKS).to.not.include(script);
    });
  });

  describe("lanesOf", function () {
    const lanes = [
      ["lint:ts", "lint:format", "lint:links"],
      ["lint:sol", "lint:ts:portal"],
    ];

    it("runs every check for a whole lint, in the lanes as they are", function () {
      expect(lanesOf("all", lanes)).to.deep.equal(lanes);
    });

    it("splits the checks into the source checks and the others, each lane in its order, no empty lane", function () {
      expect(lanesOf("sources", lanes)).to.deep.equal([["lint:format"], ["lint:sol", "lint:ts:portal"]]);
      expect(lanesOf("built", lanes)).to.deep.equal([["lint:ts", "lint:links"]]);
    });

    it("splits the others into the build's readers and the rest, each lane in its order", function () {
      expect(lanesOf("readers", lanes)).to.deep.equal([["lint:ts", "lint:links"]]);
      const writing = [["build", "lint:ts", "lint:package"], ["lint:format"]];
      expect(lanesOf("writers", writing)).to.deep.equal([["build", "lint:package"]]);
    });

    it("runs each check of the real lanes exactly once over the two parts, and over the three", function () {
      for (const split of [
        ["sources", "built"],
        ["sources", "readers", "writers"],
      ] as const) {
        const parts = split.flatMap((part) => lanesOf(part)).flat();
        expect(parts).to.have.members(LINT_LANES.flat());
        expect(parts).to.have.length(LINT_LANES.flat().length);
      }
    });
  });

  describe("lintPartOf", function () {
    it("reads nothing as all, --sources, --built, --build-readers and --build-writers, and refuses anything else", function () {
      expect(lintPartOf([])).to.equal("all");
      expect(lintPartOf(["--sources"])).to.equal("sources");
      expect(lintPartOf(["--built"])).to.equal("built");
      expect(lintPartOf(["--build-readers"])).to.equal("readers");
      expect(lintPartOf(["--build-writers"])).to.equal("writers");
      // not a key of any object: a flag names a part only if it is one of the four
      expect(lintPartOf(["constructor"])).to.equal(undefined);
      expect(lintPartOf(["toString"])).to.equal(undefined);
      expect(lintPartOf(["--source"])).to.equal(undefined);
      expect(lintPartOf(["--sources", "--built"])).to.equal(undefined);
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
