import { expect } from "chai";

import { compareRuns, comparisonTable, countsByFile, countsTable } from "../../../tools/test-report.js";
import type { MochaJsonReport } from "../../../tools/test-report.js";

const root = "/repo";

function report(tests: { file?: string; title: string; state: "passed" | "failed" | "pending" }[]): MochaJsonReport {
  const pick = (state: string) =>
    tests.filter((test) => test.state === state).map((test) => ({ file: test.file, fullTitle: test.title }));
  return {
    stats: {
      passes: pick("passed").length,
      failures: pick("failed").length,
      pending: pick("pending").length,
    },
    tests: tests.map((test) => ({ file: test.file, fullTitle: test.title })),
    passes: pick("passed"),
    failures: pick("failed"),
    pending: pick("pending"),
  };
}

describe("test reports (tools/test-report.ts)", function () {
  describe("countsByFile", function () {
    it("counts passing, failing and pending tests per file, relative to the root, sorted by path", function () {
      const counts = countsByFile(
        report([
          { file: "/repo/test/integration/b/B.test.ts", title: "b1", state: "passed" },
          { file: "/repo/test/integration/a/A.test.ts", title: "a1", state: "passed" },
          { file: "/repo/test/integration/a/A.test.ts", title: "a2", state: "failed" },
          { file: "/repo/test/integration/a/A.test.ts", title: "a3", state: "pending" },
          { file: "/repo/test/integration/b/B.test.ts", title: "b2", state: "passed" },
        ]),
        root,
      );
      expect(counts).to.deep.equal([
        { file: "test/integration/a/A.test.ts", passing: 1, failing: 1, pending: 1 },
        { file: "test/integration/b/B.test.ts", passing: 2, failing: 0, pending: 0 },
      ]);
    });

    it("names a file from its repository's test/ folder, so that two clones' runs compare", function () {
      const counts = countsByFile(
        report([{ file: "/elsewhere/clone/test/integration/a/A.test.ts", title: "a1", state: "passed" }]),
        root,
      );
      expect(counts.map((row) => row.file)).to.deep.equal(["test/integration/a/A.test.ts"]);
    });

    it("puts a failure without a file (a root hook's) under its own row", function () {
      const counts = countsByFile(report([{ title: '"before all" hook', state: "failed" }]), root);
      expect(counts).to.deep.equal([{ file: "(no file)", passing: 0, failing: 1, pending: 0 }]);
    });
  });

  describe("compareRuns", function () {
    const before = [
      { file: "A.test.ts", passing: 5, failing: 0, pending: 0 },
      { file: "B.test.ts", passing: 3, failing: 0, pending: 0 },
    ];

    it("finds nothing lost when every file passes at least as many tests and none fails", function () {
      const after = [
        { file: "A.test.ts", passing: 5, failing: 0, pending: 0 },
        { file: "B.test.ts", passing: 4, failing: 0, pending: 0 },
      ];
      expect(compareRuns(before, after).map((row) => row.lost)).to.deep.equal([false, false]);
    });

    it("marks a file with fewer passing tests, a failing test, or that did not run as lost", function () {
      const after = [
        { file: "A.test.ts", passing: 4, failing: 0, pending: 0 },
        { file: "C.test.ts", passing: 1, failing: 1, pending: 0 },
      ];
      const rows = compareRuns(before, after);
      expect(rows.map((row) => [row.file, row.lost])).to.deep.equal([
        ["A.test.ts", true],
        ["B.test.ts", true],
        ["C.test.ts", true],
      ]);
      const table = comparisonTable(rows);
      expect(table).to.contain("| `B.test.ts` | 3 / 0 | not run (lost) |");
      expect(table).to.contain("| total | 8 / 0 | 5 / 1 |");
    });
  });

  describe("countsTable", function () {
    it("lists one run with its total", function () {
      const table = countsTable([
        { file: "A.test.ts", passing: 5, failing: 1, pending: 0 },
        { file: "B.test.ts", passing: 2, failing: 0, pending: 1 },
      ]);
      expect(table.split("\n")).to.include.members([
        "| `A.test.ts` | 5 / 1 |",
        "| `B.test.ts` | 2 / 0 (1 pending) |",
        "| total | 7 / 1 (1 pending) |",
      ]);
    });
  });
});
