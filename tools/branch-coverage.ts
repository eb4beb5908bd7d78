/**
 * Line and branch coverage of the project's contracts, on top of Hardhat 3's coverage run.
 *
 * Hardhat 3 (`hardhat test --coverage`) instruments statements only: before every statement EDR
 * inserts `__NomicFoundationCoverage.sendHit(tag)`, a static call to a fixed address, and the test
 * runners record the tags hit (`coverage/data/<runner>/*.json`, tag -> number of transactions that
 * hit it). Its lcov has no BRDA records ("EDR does not provide branch coverage information").
 *
 * Method.
 * 1. Branch points come from the solc AST (the `solc` package, `stopAfter: "parsing"`, so no
 *    import needs resolving). Inside function and modifier bodies, each of these is one point
 *    with two sides:
 *    - `if`: true / false (the false side is the `else`, or the implicit else of an `if` without
 *      one, so `if (x) revert E();` counts its "no revert" side too);
 *    - ternary `c ? a : b`: true / false;
 *    - `require(c, ...)` and `assert(c)`: pass / fail;
 *    - `a && b`, `a || b`: the left operand short-circuits / the right operand is evaluated.
 * 2. Each point's probed expression (the condition; for `&&`/`||` the left operand) is wrapped in
 *    `__BranchCoverage.probe(expr, tag)`, a pure library function that returns `expr` unchanged
 *    and sends `tag | 1` (true) or `tag` (false) to the same coverage address, so EDR records it
 *    like a statement tag. A side is covered if and only if its tag was recorded: it was taken at
 *    least once in some test. The per-transaction de-duplication of Hardhat's counts does not
 *    matter, since only presence is read. The insertions add no line break, so every line number
 *    of the instrumented copy is the line number of the original.
 * 3. Lines: EDR's statement instrumentation is deterministic (tags are derived from the source,
 *    its source name and the solc version), so this module recomputes it for the instrumented
 *    source exactly as Hardhat does (`addStatementCoverageInstrumentation`). A line is executable
 *    if a statement starts on it (blocks excluded; leading comments and whitespace skipped) and
 *    covered if any statement starting on it ran (istanbul's rule). Every tag the run recorded must
 *    be a statement or branch tag computed here, which checks that the reproduction is exact.
 *
 * Limits.
 * - Loop conditions (`for`, `while`, `do`), `try`/`catch` clauses and Yul `if`/`switch` are not
 *   counted as branches; `&&`/`||` inside a loop condition are.
 * - Conditions outside function and modifier bodies (state variable initializers, modifier
 *   arguments, base constructor arguments) are not probed.
 * - `require`/`assert` are recognised by name; a user function named so would be counted too.
 * - The probes change gas use and code size (Hardhat's coverage run already allows unlimited code
 *   size); a test that asserts exact gas may fail under coverage only.
 * - Only in-process tests count. Tests that drive separate `hardhat node` processes (the e2e
 *   and gateway tests) are not run, since their nodes do not report coverage.
 */
import { createHash } from "node:crypto";

import { addStatementCoverageInstrumentation, latestSupportedSolidityVersion } from "@nomicfoundation/edr";
import solc from "solc";

/** The library the probes call; written next to the instrumented sources. */
export const BRANCH_LIBRARY_NAME = "__BranchCoverage";
export const BRANCH_LIBRARY_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity >=0.8.0;

/// Branch probes for tools/branch-coverage.ts: returns the condition unchanged and reports
/// tag | 1 (true) or tag (false) to the address Hardhat's statement coverage reports to.
library ${BRANCH_LIBRARY_NAME} {
    function _hit(uint256 tag) private view {
        assembly {
            let ptr := mload(0x40)
            mstore(ptr, tag)
            pop(staticcall(gas(), 0xc0bEc0BEc0BeC0bEC0beC0bEC0bEC0beC0beC0BE, ptr, 32, 0, 0))
        }
    }

    function _asPure(function(uint256) internal view fn) private pure returns (function(uint256) internal pure out) {
        assembly {
            out := fn
        }
    }

    function probe(bool condition, uint256 tag) internal pure returns (bool) {
        _asPure(_hit)(condition ? tag | 1 : tag);
        return condition;
    }
}
`;

export type BranchKind = "if" | "ternary" | "require" | "assert" | "&&" | "||";

/** One side of a branch point and the tag recorded when it is taken. */
export interface BranchSide {
  label: string;
  tag: string;
}

/** A branch point: the probed expression (byte offsets in the UTF-8 source) and its two sides. */
export interface BranchPoint {
  kind: BranchKind;
  start: number;
  end: number;
  line: number;
  /** The probed expression's text, whitespace collapsed. */
  expression: string;
  /** [taken when the probed expression is true, taken when it is false] */
  sides: readonly [BranchSide, BranchSide];
}

/** A statement as EDR instruments it: its tag, the line it starts on, and whether it is a block. */
export interface StatementLine {
  tag: string;
  line: number;
  /** `{ ... }` as a statement (a branch's body): recorded, but not a line of its own */
  block: boolean;
}

/** The minimal shape of a solc AST node that this module reads. */
interface AstNode {
  nodeType: string;
  src: string;
  [key: string]: unknown;
}

const SIDE_LABELS: Record<BranchKind, readonly [string, string]> = {
  if: ["true", "false"],
  ternary: ["true", "false"],
  require: ["pass", "fail"],
  assert: ["pass", "fail"],
  "&&": ["right operand evaluated", "short-circuits"],
  "||": ["short-circuits", "right operand evaluated"],
};

/** Parses one Solidity source (syntax only: imports are not resolved) into its solc AST. */
export function parseSolidity(sourceName: string, content: string): AstNode {
  const input = {
    language: "Solidity",
    sources: { [sourceName]: { content } },
    settings: { stopAfter: "parsing", outputSelection: { "*": { "": ["ast"] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    sources?: Record<string, { ast: AstNode }>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) {
    throw new Error(`cannot parse ${sourceName}:\n${errors.map((e) => e.formattedMessage).join("\n")}`);
  }
  return output.sources![sourceName].ast;
}

function isNode(value: unknown): value is AstNode {
  return typeof value === "object" && value !== null && typeof (value as AstNode).nodeType === "string";
}

function childrenOf(node: AstNode): AstNode[] {
  const children: AstNode[] = [];
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) children.push(...value.filter(isNode));
    else if (isNode(value)) children.push(value);
  }
  return children;
}

function rangeOf(node: AstNode): { start: number; end: number } {
  const [start, length] = node.src.split(":").map(Number);
  return { start, end: start + length };
}

/** The probe tag of a point: a hash of where it is, with the low bit clear (the side bit). */
export function branchTag(sourceName: string, kind: BranchKind, start: number, end: number): string {
  const digest = createHash("sha256").update(`branch-coverage:${sourceName}:${kind}:${start}:${end}`).digest();
  digest[31] &= 0xfe;
  return digest.toString("hex");
}

/** Sets the low (side) bit of a tag: the tag recorded when the probed expression is true. */
function trueTag(tag: string): string {
  return tag.slice(0, 62) + (parseInt(tag.slice(62), 16) | 1).toString(16).padStart(2, "0");
}

function lineAt(source: Buffer, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (source[i] === 0x0a) line++;
  return line;
}

/**
 * The branch points of a source, in source order (an enclosing point before the points inside
 * its expression).
 */
export function findBranchPoints(sourceName: string, content: string): BranchPoint[] {
  const bytes = Buffer.from(content, "utf8");
  const points: BranchPoint[] = [];
  const add = (kind: BranchKind, probed: AstNode) => {
    const { start, end } = rangeOf(probed);
    const tag = branchTag(sourceName, kind, start, end);
    const [whenTrue, whenFalse] = SIDE_LABELS[kind];
    points.push({
      kind,
      start,
      end,
      line: lineAt(bytes, start),
      expression: bytes.subarray(start, end).toString("utf8").replace(/\s+/g, " "),
      sides: [
        { label: whenTrue, tag: trueTag(tag) },
        { label: whenFalse, tag },
      ],
    });
  };

  const visitBody = (node: AstNode) => {
    switch (node.nodeType) {
      case "IfStatement":
        add("if", node.condition as AstNode);
        break;
      case "Conditional":
        add("ternary", node.condition as AstNode);
        break;
      case "FunctionCall": {
        const callee = node.expression as AstNode;
        const args = node.arguments as AstNode[];
        if (callee.nodeType === "Identifier" && args.length > 0) {
          if (callee.name === "require") add("require", args[0]);
          if (callee.name === "assert") add("assert", args[0]);
        }
        break;
      }
      case "BinaryOperation":
        if (node.operator === "&&" || node.operator === "||") add(node.operator, node.leftExpression as AstNode);
        break;
    }
    // Yul (inline assembly) nodes are never one of the kinds above
    for (const child of childrenOf(node)) visitBody(child);
  };

  const visit = (node: AstNode) => {
    if (node.nodeType === "FunctionDefinition" || node.nodeType === "ModifierDefinition") {
      if (isNode(node.body)) visitBody(node.body);
      return;
    }
    for (const child of childrenOf(node)) visit(child);
  };
  visit(parseSolidity(sourceName, content));

  return points.sort((a, b) => a.start - b.start || b.end - a.end);
}

/** The names of the contracts and libraries (not interfaces) a source defines. */
export function contractNames(sourceName: string, content: string): string[] {
  const ast = parseSolidity(sourceName, content);
  return childrenOf(ast)
    .filter((n) => n.nodeType === "ContractDefinition" && n.contractKind !== "interface")
    .map((n) => n.name as string);
}

/**
 * Wraps each point's probed expression in `__BranchCoverage.probe(expr, tag)` and imports the
 * library from `libraryImportPath`. Adds no line break before the last line of the original, so
 * line numbers do not move.
 */
export function instrumentSource(content: string, points: readonly BranchPoint[], libraryImportPath: string): string {
  if (points.length === 0) return content;
  const bytes = Buffer.from(content, "utf8");
  interface Insertion {
    at: number;
    text: string;
    /** closes before opens at one offset; then the outer opening first, the inner closing first */
    order: [number, number];
  }
  const insertions: Insertion[] = [];
  for (const p of points) {
    insertions.push({ at: p.start, text: `${BRANCH_LIBRARY_NAME}.probe(`, order: [1, -(p.end - p.start)] });
    insertions.push({ at: p.end, text: `, 0x${p.sides[1].tag})`, order: [0, -p.start] });
  }
  insertions.sort((a, b) => a.at - b.at || a.order[0] - b.order[0] || a.order[1] - b.order[1]);

  const parts: Buffer[] = [];
  let cursor = 0;
  for (const { at, text } of insertions) {
    parts.push(bytes.subarray(cursor, at), Buffer.from(text, "utf8"));
    cursor = at;
  }
  parts.push(bytes.subarray(cursor));
  const separator = content.endsWith("\n") ? "" : "\n";
  parts.push(Buffer.from(`${separator}import {${BRANCH_LIBRARY_NAME}} from "${libraryImportPath}";\n`, "utf8"));
  return Buffer.concat(parts).toString("utf8");
}

function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

/** Skips whitespace and comments from `i`; returns the index of the first code character. */
function skipTrivia(source: string, i: number, end: number): number {
  while (i < end) {
    if (/\s/.test(source[i])) i++;
    else if (source.startsWith("//", i)) {
      const eol = source.indexOf("\n", i);
      i = eol === -1 ? end : eol + 1;
    } else if (source.startsWith("/*", i)) {
      const close = source.indexOf("*/", i + 2);
      i = close === -1 ? end : close + 2;
    } else break;
  }
  return i;
}

/**
 * The statements EDR instruments in `source` (as Hardhat's coverage build does for `sourceName`
 * compiled with `solcVersion`), each with its tag and the line it starts on.
 */
export function statementLines(source: string, sourceName: string, solcVersion: string): StatementLine[] {
  const latest = latestSupportedSolidityVersion();
  const version = compareVersions(solcVersion, latest) <= 0 ? solcVersion : latest;
  const { metadata } = addStatementCoverageInstrumentation(source, sourceName, version);
  const lineStarts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === "\n") lineStarts.push(i + 1);
  const lineOf = (index: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  const statements: StatementLine[] = [];
  for (const m of metadata) {
    if (m.kind !== "statement") continue;
    const first = skipTrivia(source, m.startUtf16, m.endUtf16);
    statements.push({ tag: Buffer.from(m.tag).toString("hex"), line: lineOf(first), block: source[first] === "{" });
  }
  return statements;
}

/** One source's figures. */
export interface FileCoverage {
  sourceName: string;
  contracts: string[];
  linesFound: number;
  linesHit: number;
  uncoveredLines: number[];
  branchesFound: number;
  branchesHit: number;
  missedBranches: { line: number; kind: BranchKind; expression: string; side: string }[];
}

/** Combines a source's statements and branch points with the tags recorded by the run. */
export function fileCoverage(
  sourceName: string,
  contracts: string[],
  statements: readonly StatementLine[],
  points: readonly BranchPoint[],
  hits: ReadonlySet<string>,
): FileCoverage {
  const lines = new Map<number, boolean>();
  for (const s of statements) {
    if (!s.block) lines.set(s.line, (lines.get(s.line) ?? false) || hits.has(s.tag));
  }
  const uncoveredLines = [...lines].filter(([, hit]) => !hit).map(([line]) => line);
  const missedBranches: FileCoverage["missedBranches"] = [];
  for (const p of points) {
    for (const side of p.sides) {
      if (!hits.has(side.tag)) {
        missedBranches.push({ line: p.line, kind: p.kind, expression: p.expression, side: side.label });
      }
    }
  }
  return {
    sourceName,
    contracts,
    linesFound: lines.size,
    linesHit: lines.size - uncoveredLines.length,
    uncoveredLines: uncoveredLines.sort((a, b) => a - b),
    branchesFound: points.length * 2,
    branchesHit: points.length * 2 - missedBranches.length,
    missedBranches,
  };
}

function percent(hit: number, found: number): string {
  return found === 0 ? "-" : `${((hit * 100) / found).toFixed(2)}`;
}

/** Compresses sorted line numbers into ranges: 3, 5-7. */
export function lineRanges(lines: readonly number[]): string {
  const ranges: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    let j = i;
    while (j + 1 < lines.length && lines[j + 1] === lines[j] + 1) j++;
    ranges.push(i === j ? `${lines[i]}` : `${lines[i]}-${lines[j]}`);
    i = j;
  }
  return ranges.join(", ");
}

/** The Markdown table of per-contract figures, a total row, and the list of what is missed. */
export function renderCoverageTable(files: readonly FileCoverage[]): string {
  const measured = files.filter((f) => f.linesFound + f.branchesFound > 0);
  const rows = measured.map((f) => [
    `\`${f.sourceName}\``,
    f.contracts.join(", "),
    `${f.linesHit}/${f.linesFound}`,
    percent(f.linesHit, f.linesFound),
    `${f.branchesHit}/${f.branchesFound}`,
    percent(f.branchesHit, f.branchesFound),
  ]);
  const sum = (key: keyof FileCoverage) => measured.reduce((s, f) => s + (f[key] as number), 0);
  const [lh, lf, bh, bf] = [sum("linesHit"), sum("linesFound"), sum("branchesHit"), sum("branchesFound")];
  rows.push(["**Total**", "", `${lh}/${lf}`, percent(lh, lf), `${bh}/${bf}`, percent(bh, bf)]);

  const header = ["File", "Contract", "Lines", "Line %", "Branches", "Branch %"];
  const out = [`| ${header.join(" | ")} |`, `| ${header.map((h, i) => (i < 2 ? "---" : "---:")).join(" | ")} |`];
  for (const row of rows) out.push(`| ${row.join(" | ")} |`);

  const missed = measured.filter((f) => f.uncoveredLines.length > 0 || f.missedBranches.length > 0);
  if (missed.length > 0) {
    out.push("", "Not covered:", "");
    for (const f of missed) {
      const items: string[] = [];
      if (f.uncoveredLines.length > 0) items.push(`lines ${lineRanges(f.uncoveredLines)}`);
      for (const b of f.missedBranches) items.push(`line ${b.line} ${b.kind} \`${b.expression}\` ${b.side}`);
      out.push(`- \`${f.sourceName}\`: ${items.join("; ")}`);
    }
  }
  const empty = files.filter((f) => f.linesFound + f.branchesFound === 0);
  if (empty.length > 0) {
    out.push("", `No executable code: ${empty.map((f) => `\`${f.sourceName}\``).join(", ")}.`);
  }
  return out.join("\n") + "\n";
}
