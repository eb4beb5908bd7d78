import { expect } from "chai";
import solc from "solc";

import {
  BRANCH_LIBRARY_SOURCE,
  contractNames,
  fileCoverage,
  findBranchPoints,
  instrumentSource,
  lineRanges,
  renderCoverageTable,
  statementLines,
} from "../../../tools/branch-coverage.js";
import type { BranchPoint } from "../../../tools/branch-coverage.js";

/** Every kind of branch point, and what is not one (initializer, loop, Yul), after a non-ASCII comment. */
const SNIPPET = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Offsets are bytes: this comment's dash — is three of them.
contract Snippet {
    error Zero();
    uint256 public x;
    bool public flag = 1 > 0 ? true : false;

    modifier nonZero(uint256 a) {
        if (a == 0) revert Zero();
        _;
    }

    function f(uint256 a, uint256 b) external nonZero(a) returns (uint256) {
        if (a > 5) {
            x = 1;
        } else {
            x = 2;
        }
        require(b < 100, "big");
        assert(a != 7);
        for (uint256 i = 0; i < b; ++i) x += i;
        if (a == 1 || (a == 2 && b == 2)) x = 3;
        // the larger
        return a > b ? a : b;
    }

    function g(uint256 a) external pure returns (uint256 r) {
        assembly {
            if gt(a, 1) {
                r := 1
            }
        }
    }
}

interface ISnippet {
    function f(uint256 a, uint256 b) external returns (uint256);
}
`;

const summary = (p: BranchPoint) => [p.kind, p.line, p.expression, p.sides[0].label, p.sides[1].label];

describe("branch coverage (tools/branch-coverage.ts)", function () {
  describe("findBranchPoints", function () {
    it("finds if (with an implicit else), require, assert, && and || and ternaries, in source order", function () {
      expect(findBranchPoints("Snippet.sol", SNIPPET).map(summary)).to.deep.equal([
        ["if", 11, "a == 0", "true", "false"],
        ["if", 16, "a > 5", "true", "false"],
        ["require", 21, "b < 100", "pass", "fail"],
        ["assert", 22, "a != 7", "pass", "fail"],
        ["if", 24, "a == 1 || (a == 2 && b == 2)", "true", "false"],
        ["||", 24, "a == 1", "short-circuits", "right operand evaluated"],
        ["&&", 24, "a == 2", "right operand evaluated", "short-circuits"],
        ["ternary", 26, "a > b", "true", "false"],
      ]);
    });

    it("gives each side its own tag, the true side's with the low bit set", function () {
      const points = findBranchPoints("Snippet.sol", SNIPPET);
      const tags = points.flatMap((p) => p.sides.map((s) => s.tag));
      expect(new Set(tags).size).to.equal(tags.length);
      for (const p of points) {
        expect(p.sides[0].tag).to.match(/^[0-9a-f]{64}$/);
        expect(BigInt("0x" + p.sides[0].tag)).to.equal(BigInt("0x" + p.sides[1].tag) | 1n);
        expect(BigInt("0x" + p.sides[1].tag) & 1n).to.equal(0n);
      }
      // a tag depends on the source name
      expect(findBranchPoints("Other.sol", SNIPPET)[0].sides[1].tag).to.not.equal(points[0].sides[1].tag);
    });

    it("names the contracts, not the interfaces", function () {
      expect(contractNames("Snippet.sol", SNIPPET)).to.deep.equal(["Snippet"]);
    });
  });

  describe("instrumentSource", function () {
    const points = findBranchPoints("Snippet.sol", SNIPPET);
    const instrumented = instrumentSource(SNIPPET, points, "./BranchCoverage.sol");

    it("wraps each probed expression, outer before inner, and keeps every line where it was", function () {
      const original = SNIPPET.split("\n");
      const lines = instrumented.split("\n");
      expect(lines.length).to.equal(original.length + 1);
      expect(lines[24 - 1]).to.equal(
        `        if (__BranchCoverage.probe(__BranchCoverage.probe(a == 1, 0x${points[5].sides[1].tag}) || ` +
          `(__BranchCoverage.probe(a == 2, 0x${points[6].sides[1].tag}) && b == 2), 0x${points[4].sides[1].tag})) x = 3;`,
      );
      // the original ends with a line break: its last element is empty, where the import now is
      for (let i = 0; i < original.length - 1; i++) {
        const unprobed = lines[i].replace(/__BranchCoverage\.probe\(/g, "").replace(/, 0x[0-9a-f]{64}\)/g, "");
        expect(unprobed, `line ${i + 1}`).to.equal(original[i]);
      }
      expect(lines.at(-2)).to.equal('import {__BranchCoverage} from "./BranchCoverage.sol";');
    });

    it("compiles with the probe library", function () {
      const output = JSON.parse(
        solc.compile(
          JSON.stringify({
            language: "Solidity",
            sources: {
              "Snippet.sol": { content: instrumented },
              "BranchCoverage.sol": { content: BRANCH_LIBRARY_SOURCE },
            },
            settings: { outputSelection: { "*": { "*": ["evm.bytecode.object"] } } },
          }),
        ),
      ) as { errors?: { severity: string; formattedMessage: string }[]; contracts: Record<string, object> };
      const errors = (output.errors ?? []).filter((e) => e.severity === "error").map((e) => e.formattedMessage);
      expect(errors).to.deep.equal([]);
      expect(Object.keys(output.contracts["Snippet.sol"])).to.include("Snippet");
    });

    it("leaves a source without branch points unchanged", function () {
      const plain = "contract A {\n    function f() external {}\n}\n";
      expect(instrumentSource(plain, findBranchPoints("A.sol", plain), "./B.sol")).to.equal(plain);
    });
  });

  describe("statementLines", function () {
    it("places each statement on the line of its first code character, blocks left out", function () {
      const statements = statementLines(SNIPPET, "project/Snippet.sol", "0.8.30");
      const lines = [...new Set(statements.filter((s) => !s.block).map((s) => s.line))];
      // 11 if + revert, 12 _, 16 if, 17, 19, 21, 22, 23 for + body, 24 if + body, 26 return (not
      // the comment on 25), 30 assembly
      expect(lines).to.deep.equal([11, 12, 16, 17, 19, 21, 22, 23, 24, 26, 30]);
      expect(statements.filter((s) => s.line === 11)).to.have.length(2);
      // the bodies of the if/else on 16-20 are blocks: recorded, but not lines
      expect(statements.filter((s) => s.block).map((s) => s.line)).to.deep.equal([16, 18]);
    });
  });

  describe("fileCoverage", function () {
    const points = findBranchPoints("Snippet.sol", SNIPPET);
    const statements = statementLines(SNIPPET, "project/Snippet.sol", "0.8.30");

    it("counts a line covered when one of its statements ran, and each side by its own tag", function () {
      const [modifierIf, elseIf] = points;
      const hits = new Set([
        statements[0].tag, // line 11, the if (its revert did not run)
        modifierIf.sides[1].tag, // no revert
        elseIf.sides[0].tag, // a > 5
      ]);
      const result = fileCoverage("Snippet.sol", ["Snippet"], statements, points, hits);
      expect(result).to.include({ linesFound: 11, linesHit: 1, branchesFound: 16, branchesHit: 2 });
      expect(result.uncoveredLines).to.deep.equal([12, 16, 17, 19, 21, 22, 23, 24, 26, 30]);
      expect(result.missedBranches[0]).to.deep.equal({ line: 11, kind: "if", expression: "a == 0", side: "true" });
      expect(result.missedBranches[1]).to.deep.equal({ line: 16, kind: "if", expression: "a > 5", side: "false" });
    });

    it("is complete when every tag was recorded", function () {
      const hits = new Set([...statements.map((s) => s.tag), ...points.flatMap((p) => p.sides.map((s) => s.tag))]);
      const result = fileCoverage("Snippet.sol", ["Snippet"], statements, points, hits);
      expect(result).to.include({ linesHit: 11, branchesHit: 16 });
      expect(result.missedBranches).to.deep.equal([]);
    });
  });

  describe("renderCoverageTable", function () {
    it("prints one row per measured source, a total, what is missed and what has no code", function () {
      const table = renderCoverageTable([
        {
          sourceName: "contracts/A.sol",
          contracts: ["A"],
          linesFound: 4,
          linesHit: 3,
          uncoveredLines: [9],
          branchesFound: 2,
          branchesHit: 1,
          missedBranches: [{ line: 9, kind: "if", expression: "x == 0", side: "true" }],
        },
        {
          sourceName: "contracts/B.sol",
          contracts: ["B"],
          linesFound: 6,
          linesHit: 6,
          uncoveredLines: [],
          branchesFound: 0,
          branchesHit: 0,
          missedBranches: [],
        },
        {
          sourceName: "contracts/IA.sol",
          contracts: [],
          linesFound: 0,
          linesHit: 0,
          uncoveredLines: [],
          branchesFound: 0,
          branchesHit: 0,
          missedBranches: [],
        },
      ]);
      expect(table.split("\n")).to.deep.equal([
        "| File | Contract | Lines | Line % | Branches | Branch % |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
        "| `contracts/A.sol` | A | 3/4 | 75.00 | 1/2 | 50.00 |",
        "| `contracts/B.sol` | B | 6/6 | 100.00 | 0/0 | - |",
        "| **Total** |  | 9/10 | 90.00 | 1/2 | 50.00 |",
        "",
        "Not covered:",
        "",
        "- `contracts/A.sol`: lines 9; line 9 if `x == 0` true",
        "",
        "No executable code: `contracts/IA.sol`.",
        "",
      ]);
    });

    it("compresses line numbers into ranges", function () {
      expect(lineRanges([3, 5, 6, 7, 9])).to.equal("3, 5-7, 9");
      expect(lineRanges([])).to.equal("");
    });
  });
});
