// `npm run lint`: every check, in two lanes side by side (tools/lint-lanes.ts), each lane's output printed
// whole when both have ended (tools/concurrent.ts); fails when any check fails or a lint script is in no lane.
// `npm run lint -- --sources`: only the checks that need no build; `-- --built`: all the others, which are
// `-- --build-readers` (they read the build and write nothing a test reads) and `-- --build-writers`
// (`hardhat build`, the SDK package). CI runs the sources beside the tests from the start, the readers
// beside them once the contract tier has built, and the writers after them (tools/lint-lanes.ts).
import { readFileSync } from "node:fs";

import { printResults, runConcurrently } from "../tools/concurrent.js";
import { laneCommand, laneGaps, lanesOf, lintPartOf } from "../tools/lint-lanes.js";

const { scripts } = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
const { unrun, missing } = laneGaps(scripts);
if (unrun.length > 0 || missing.length > 0) {
  console.error(
    `tools/lint-lanes.ts: lint scripts in no lane: [${unrun.join(", ")}]; lanes' scripts missing from package.json: [${missing.join(", ")}]`,
  );
  process.exit(1);
}
const part = lintPartOf(process.argv.slice(2));
if (part === undefined) {
  console.error("usage: npm run lint [-- --sources | --built | --build-readers | --build-writers]");
  process.exit(2);
}
const results = await runConcurrently(lanesOf(part).map((lane) => ({ name: lane.join(", "), ...laneCommand(lane) })));
printResults(results);
process.exit(results.some((result) => result.code !== 0) ? 1 : 0);
