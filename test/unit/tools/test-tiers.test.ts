import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import { TIERS, isTier, tierArguments, tierFiles } from "../../../tools/test-tiers.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");

describe("the test tiers (scripts/test-tier.ts)", function () {
  let root: string;

  before(async function () {
    root = await mkdtemp(path.join(tmpdir(), "tiers-"));
    for (const file of [
      "test/unit/sdk/b.test.ts",
      "test/unit/sdk/a.test.ts",
      "test/unit/deep/er/c.test.ts",
      "test/unit/sdk/helper.ts",
      "test/unit/sdk/notes.md",
      "test/integration/gateway/d.test.ts",
    ]) {
      await mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await writeFile(path.join(root, file), "");
    }
  });

  after(async function () {
    await rm(root, { recursive: true, force: true });
  });

  describe("tierFiles", function () {
    it("lists every *.test.ts file under test/<tier>/ at any depth, sorted, and nothing else", function () {
      expect(tierFiles(root, "unit")).to.deep.equal([
        "test/unit/deep/er/c.test.ts",
        "test/unit/sdk/a.test.ts",
        "test/unit/sdk/b.test.ts",
      ]);
      expect(tierFiles(root, "integration")).to.deep.equal(["test/integration/gateway/d.test.ts"]);
    });
  });

  describe("tierArguments", function () {
    it("runs the tiers' files in one hardhat mocha run, options before the files", function () {
      expect(tierArguments(root, ["integration", "unit"], ["--bail"])).to.deep.equal([
        "test",
        "mocha",
        "--bail",
        "test/integration/gateway/d.test.ts",
        "test/unit/deep/er/c.test.ts",
        "test/unit/sdk/a.test.ts",
        "test/unit/sdk/b.test.ts",
      ]);
    });

    it("refuses a tier without test files rather than passing with none", async function () {
      await mkdir(path.join(root, "test", "e2e"), { recursive: true });
      expect(() => tierArguments(root, ["e2e"])).to.throw("no test file under test/e2e/");
      expect(() => tierArguments(root, ["contracts"])).to.throw(/ENOENT/);
    });
  });

  it("knows the four tiers and nothing else", function () {
    expect(TIERS).to.deep.equal(["unit", "contracts", "integration", "e2e"]);
    expect(["unit", "e2e", "ts", "sol"].map(isTier)).to.deep.equal([true, true, false, false]);
  });

  it("leaves no TypeScript test file of this repository outside a tier's folder", async function () {
    const everywhere: string[] = [];
    const walk = async (dir: string) => {
      for (const entry of await readdir(path.join(ROOT, dir), { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) await walk(file);
        else if (entry.name.endsWith(".test.ts")) everywhere.push(file);
      }
    };
    await walk("test");
    const inTiers = TIERS.flatMap((tier) => tierFiles(ROOT, tier));
    expect(inTiers.length).to.be.greaterThan(60);
    expect(everywhere.sort()).to.deep.equal([...inTiers].sort());
  });
});
