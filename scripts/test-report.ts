// `npm run test:report -- <report.json> [<after.json>]`: passing and failing tests per file of a run
// written with `TEST_REPORT=<report.json> npm run test:<tier>`, or two runs compared file by file
// (tools/test-report.ts); exits 1 when the second run lost a test the first passed.
import { readFileSync } from "node:fs";

import { compareRuns, comparisonTable, countsByFile, countsTable } from "../tools/test-report.js";
import type { MochaJsonReport } from "../tools/test-report.js";

const files = process.argv.slice(2);
if (files.length < 1 || files.length > 2) {
  console.error("usage: npm run test:report -- <report.json> [<after.json>]");
  process.exit(2);
}
const runs = files.map((file) =>
  countsByFile(JSON.parse(readFileSync(file, "utf8")) as MochaJsonReport, process.cwd()),
);
if (runs.length === 1) {
  process.stdout.write(countsTable(runs[0]));
} else {
  const rows = compareRuns(runs[0], runs[1]);
  process.stdout.write(comparisonTable(rows));
  if (rows.some((row) => row.lost)) process.exit(1);
}
