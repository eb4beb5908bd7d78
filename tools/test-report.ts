// Passing and failing tests per file, from mocha's JSON reporter (`TEST_REPORT=<file>` on any
// `hardhat test mocha` run, hardhat.config.ts), and two such runs compared file by file: how a change to
// the tiers shows that no test was lost (docs/testing.md).
import path from "node:path";

/** The part of mocha's JSON report this reads: each test with the file it was declared in. */
export interface MochaJsonReport {
  stats: { passes: number; failures: number; pending: number; duration?: number };
  tests: { file?: string; fullTitle: string; err?: { message?: string } }[];
  passes: { file?: string; fullTitle: string }[];
  failures: { file?: string; fullTitle: string; err?: { message?: string } }[];
  pending: { file?: string; fullTitle: string }[];
}

export interface FileCounts {
  file: string;
  passing: number;
  failing: number;
  pending: number;
}

/**
 * `file` from the repository's `test/` folder, with forward slashes, so that runs of two clones compare
 * (a file outside any `test/` folder: relative to `root`); a hook failure outside any file counts under
 * "(no file)".
 */
function fileOf(root: string, file: string | undefined): string {
  if (file === undefined || file === "") return "(no file)";
  const relative = path.relative(root, file).split(path.sep).join("/");
  if (relative.startsWith("test/")) return relative;
  const absolute = file.split(path.sep).join("/");
  const at = absolute.lastIndexOf("/test/");
  return at < 0 ? relative : absolute.slice(at + 1);
}

/** Per file (sorted by path): how many tests passed, failed (a failed hook counts once) and were pending. */
export function countsByFile(report: MochaJsonReport, root: string): FileCounts[] {
  const counts = new Map<string, FileCounts>();
  const row = (file: string | undefined) => {
    const name = fileOf(root, file);
    let found = counts.get(name);
    if (found === undefined) {
      found = { file: name, passing: 0, failing: 0, pending: 0 };
      counts.set(name, found);
    }
    return found;
  };
  for (const test of report.passes) row(test.file).passing++;
  for (const test of report.failures) row(test.file).failing++;
  for (const test of report.pending) row(test.file).pending++;
  return [...counts.values()].sort((a, b) => a.file.localeCompare(b.file));
}

export interface FileComparison {
  file: string;
  before: FileCounts | undefined;
  after: FileCounts | undefined;
  /** Fewer passing tests after than before, or any failing after. */
  lost: boolean;
}

/** Two runs side by side, every file either ran in. */
export function compareRuns(before: FileCounts[], after: FileCounts[]): FileComparison[] {
  const files = [...new Set([...before, ...after].map((row) => row.file))].sort((a, b) => a.localeCompare(b));
  return files.map((file) => {
    const was = before.find((row) => row.file === file);
    const now = after.find((row) => row.file === file);
    const lost = (now?.passing ?? 0) < (was?.passing ?? 0) || (now?.failing ?? 0) > 0;
    return { file, before: was, after: now, lost };
  });
}

const cell = (counts: FileCounts | undefined) =>
  counts === undefined
    ? "not run"
    : `${counts.passing} / ${counts.failing}${counts.pending ? ` (${counts.pending} pending)` : ""}`;

/** The sum of `rows`, as a row named "total". */
function totalOf(rows: FileCounts[]): FileCounts {
  return rows.reduce(
    (sum, row) => ({
      file: "total",
      passing: sum.passing + row.passing,
      failing: sum.failing + row.failing,
      pending: sum.pending + row.pending,
    }),
    { file: "total", passing: 0, failing: 0, pending: 0 },
  );
}

/** A Markdown table of one run: passing / failing per file, with a total row. */
export function countsTable(counts: FileCounts[]): string {
  const total = totalOf(counts);
  const lines = [
    "| file | passing / failing |",
    "| --- | ---: |",
    ...counts.map((row) => `| \`${row.file}\` | ${cell(row)} |`),
    `| total | ${cell(total)} |`,
  ];
  return lines.join("\n") + "\n";
}

/** A Markdown table of a comparison, with a total row: passing / failing per file, before and after. */
export function comparisonTable(rows: FileComparison[]): string {
  const total = (pick: (row: FileComparison) => FileCounts | undefined) =>
    totalOf(rows.map(pick).filter((counts) => counts !== undefined));
  const lines = [
    "| file | before: passing / failing | after: passing / failing |",
    "| --- | ---: | ---: |",
    ...rows.map((row) => `| \`${row.file}\` | ${cell(row.before)} | ${cell(row.after)}${row.lost ? " (lost)" : ""} |`),
    `| total | ${cell(total((row) => row.before))} | ${cell(total((row) => row.after))} |`,
  ];
  return lines.join("\n") + "\n";
}
