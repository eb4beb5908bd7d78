import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import { runsIntegrationTests } from "../../../testing/root-hooks.js";
import { runConcurrently } from "../../../tools/concurrent.js";
import {
  DATABASE_FREE_FOLDERS,
  TIERS,
  isDatabaseFree,
  isTier,
  sideBySide,
  tierArguments,
  tierFiles,
  unitMochaArguments,
} from "../../../tools/test-tiers.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");

/** Writes each file (relative to `root`) empty, with its folders. */
async function writeEmpty(root: string, files: readonly string[]): Promise<void> {
  for (const file of files) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), "");
  }
}

describe("the test tiers (scripts/test-tier.ts)", function () {
  let root: string;

  before(async function () {
    root = await mkdtemp(path.join(tmpdir(), "tiers-"));
    await writeEmpty(root, [
      "test/unit/sdk/b.test.ts",
      "test/unit/sdk/a.test.ts",
      "test/unit/deep/er/c.test.ts",
      "test/unit/sdk/helper.ts",
      "test/unit/sdk/notes.md",
      "test/integration/gateway/d.test.ts",
    ]);
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

  describe("tierArguments for one of two databases (databaseOnly: npm test's PGlite side beside a PostgreSQL side)", function () {
    it("leaves out the integration files under the folders that never read the database setting, and only those", async function () {
      await writeEmpty(root, [
        "test/integration/pglite/e.test.ts",
        "test/integration/deploy/f.test.ts",
        "test/integration/devnet/g.test.ts",
        "test/integration/provider/h.test.ts",
        "test/unit/pglite/i.test.ts",
      ]);
      try {
        expect(tierArguments(root, ["integration"], ["--bail"], { databaseOnly: true })).to.deep.equal([
          "test",
          "mocha",
          "--bail",
          "test/integration/gateway/d.test.ts",
          "test/integration/provider/h.test.ts",
        ]);
        // the whole tier otherwise, and a unit folder of the same name is no integration folder
        expect(tierArguments(root, ["integration"]).slice(2)).to.have.length(5);
        expect(isDatabaseFree("test/unit/pglite/i.test.ts")).to.equal(false);
        expect(isDatabaseFree(path.join("test", "integration", "pglite", "e.test.ts"))).to.equal(true);
      } finally {
        for (const folder of ["pglite", "deploy", "devnet", "provider"]) {
          await rm(path.join(root, "test", "integration", folder), { recursive: true, force: true });
        }
        await rm(path.join(root, "test", "unit", "pglite"), { recursive: true, force: true });
      }
    });

    it("each file of those folders in this repository reads no database setting: not DATABASE_URL, nor a helper that does", function () {
      const free = tierFiles(ROOT, "integration").filter(isDatabaseFree);
      // each folder holds tests, so that a renamed folder does not leave the rule pointing at nothing
      for (const folder of DATABASE_FREE_FOLDERS) {
        expect(
          free.some((file) => file.startsWith(`test/integration/${folder}/`)),
          folder,
        ).to.equal(true);
      }
      for (const file of free) {
        const source = readFileSync(path.join(ROOT, file), "utf8");
        for (const reader of [
          "DATABASE_URL",
          "databaseUrl",
          "testConfig",
          "startTestGateway",
          "spawnGatewayProcess",
          "resetDatabase",
        ]) {
          expect(source, `${file} names ${reader}`).to.not.contain(reader);
        }
      }
    });
  });

  describe("unitMochaArguments", function () {
    it("runs the unit tier's files on mocha with Hardhat's time-out, options before the files", function () {
      expect(unitMochaArguments(root, ["--grep", "x"])).to.deep.equal([
        "--timeout",
        "40000",
        "--grep",
        "x",
        "test/unit/deep/er/c.test.ts",
        "test/unit/sdk/a.test.ts",
        "test/unit/sdk/b.test.ts",
      ]);
    });
  });

  describe("runConcurrently (npm run test:unit's two runs; npm test's integration and end-to-end tiers)", function () {
    it("runs the jobs at the same time and keeps each one's output and exit code apart", async function () {
      // each job waits for the other's file: they only finish if they run at the same time
      const dir = await mkdtemp(path.join(tmpdir(), "concurrent-"));
      const job = (name: string, mine: string, theirs: string, code: number) => ({
        name,
        command: process.execPath,
        args: [
          "-e",
          `const fs = require("node:fs"); fs.writeFileSync(${JSON.stringify(path.join(dir, mine))}, "");
           console.log("${name} out"); console.error("${name} err");
           const wait = () => fs.existsSync(${JSON.stringify(path.join(dir, theirs))}) ? process.exit(${code}) : setTimeout(wait, 20);
           wait();`,
        ],
      });
      try {
        const results = await runConcurrently([job("a", "a", "b", 0), job("b", "b", "a", 3)]);
        expect(results.map((r) => [r.name, r.code, r.output])).to.deep.equal([
          ["a", 0, "a out\na err\n"],
          ["b", 3, "b out\nb err\n"],
        ]);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    it("reports a command that cannot start as failed, with the reason", async function () {
      const [result] = await runConcurrently([{ name: "none", command: path.join(root, "no-such-command"), args: [] }]);
      expect(result.code).to.equal(1);
      expect(result.output).to.include("ENOENT");
    });
  });

  describe("runsIntegrationTests (the root hook that starts the shared live deployment)", function () {
    it("starts it for a run holding a file of test/integration/, in any folder below it", function () {
      const files = [
        path.join(ROOT, "test", "contracts", "core", "A.test.ts"),
        path.join(ROOT, "test", "integration", "gateway", "B.test.ts"),
      ];
      expect(runsIntegrationTests(files)).to.equal(true);
    });

    it("does not start it for the other tiers' runs", function () {
      const files = ["contracts", "e2e", "unit"].map((tier) => path.join(ROOT, "test", tier, "x", "C.test.ts"));
      expect(runsIntegrationTests(files)).to.equal(false);
      expect(runsIntegrationTests([])).to.equal(false);
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

  describe("sideBySide (the runs npm test starts after the contract tier)", function () {
    const URL = "postgres://ci:ci@127.0.0.1:5432/ci";

    it("without DATABASE_URL: the integration tier on PGlite (every file) beside the end-to-end tier, neither checking the build nor rewriting the TypeChain types", function () {
      const sides = sideBySide({ PATH: "/bin", TEST_DATABASE_ONLY: "1" });
      expect(sides.map((side) => [side.name, side.script])).to.deep.equal([
        ["npm run test:integration", "test:integration"],
        ["npm run test:e2e", "test:e2e"],
      ]);
      for (const side of sides) {
        expect(side.env).to.include({ PATH: "/bin", TEST_NO_COMPILE: "1", HARDHAT_NO_TYPECHAIN: "true" });
        expect(side.env).to.not.have.property("DATABASE_URL");
        // a setting left in the caller's environment does not drop files from the only run of the tier
        expect(side.env).to.not.have.property("TEST_DATABASE_ONLY");
      }
    });

    it("with DATABASE_URL: a third side on PostgreSQL runs the whole tier, the PGlite side only the files that read the database", function () {
      const [pglite, e2e, postgres] = sideBySide({ PATH: "/bin", DATABASE_URL: URL });
      expect([pglite.script, e2e.script, postgres.script]).to.deep.equal([
        "test:integration",
        "test:e2e",
        "test:integration",
      ]);
      expect(postgres.name).to.equal("npm run test:integration (PostgreSQL)");
      expect(postgres.env).to.include({ DATABASE_URL: URL, TEST_NO_COMPILE: "1" });
      expect(postgres.env).to.not.have.property("TEST_DATABASE_ONLY");
      expect(pglite.env).to.include({ TEST_DATABASE_ONLY: "1", TEST_NO_COMPILE: "1" });
      expect(pglite.env).to.not.have.property("DATABASE_URL");
      expect(e2e.env).to.not.have.property("DATABASE_URL");
      expect(e2e.env).to.not.have.property("TEST_DATABASE_ONLY");
    });

    it("treats an empty DATABASE_URL as none", function () {
      expect(sideBySide({ DATABASE_URL: "" }).map((side) => side.name)).to.deep.equal([
        "npm run test:integration",
        "npm run test:e2e",
      ]);
    });
  });
});
