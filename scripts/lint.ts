// `npm run lint`: every check, in two lanes side by side (tools/lint-lanes.ts), each lane's output printed
// whole when both have ended (tools/concurrent.ts); fails when any check fails or a lint script is in no lane.
import { readFileSync } from "node:fs";

import { printResults, runConcurrently } from "../tools/concurrent.js";
import { LINT_LANES, laneCommand, laneGaps } from "../tools/lint-lanes.js";

const { scripts } = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
const { unrun, missing } = laneGaps(scripts);
if (unrun.length > 0 || missing.length > 0) {
  console.error(
    `tools/lint-lanes.ts: lint scripts in no lane: [${unrun.join(", ")}]; lanes' scripts missing from package.json: [${missing.join(", ")}]`,
  );
  process.exit(1);
}
const results = await runConcurrently(LINT_LANES.map((lane) => ({ name: lane.join(", "), ...laneCommand(lane) })));
printResults(results);
process.exit(results.some((result) => result.code !== 0) ? 1 : 0);
