// The lint checks of `npm run lint` (scripts/lint.ts), in two lanes run side by side (decision 0180). Each
// check is mostly one process on one core; one after the other they took about two minutes on this 2-core
// machine. The lanes share no output: the first builds (`hardhat build` for the TypeChain types `tsc` reads,
// then the SDK package that publint and attw inspect, in that order, then the portal's tsc); the second only
// reads sources, dependency-cruiser first (before the first lane rebuilds `sdk/dist/`).

/** The `lint:*` scripts of package.json, each in one lane; a lane runs its scripts one after the other. */
export const LINT_LANES: readonly (readonly string[])[] = [
  ["lint:ts", "lint:package", "lint:links", "lint:ts:portal"],
  ["lint:deps", "lint:openapi", "lint:format", "lint:sol"],
];

/**
 * The checks that read only files under version control: no Hardhat build (TypeChain types, artifacts),
 * no SDK build, no file a test writes. They may run before or while the contracts compile: CI runs them
 * at the lowest priority beside `npm test`, whose first minutes are solc's one-core build
 * (`npm run lint -- --sources`, then `npm run lint -- --built` after the tests; decision 0184).
 */
export const SOURCE_CHECKS: readonly string[] = ["lint:format", "lint:sol", "lint:ts:portal"];

/** Which checks a run of `npm run lint` makes: all, the source checks alone, or all the others. */
export type LintPart = "all" | "sources" | "built";

/** The lanes of `part`: each lane keeps its order, without the checks of the other part; empty lanes dropped. */
export function lanesOf(part: LintPart, lanes: readonly (readonly string[])[] = LINT_LANES): string[][] {
  const keep = (script: string) => part === "all" || (part === "sources") === SOURCE_CHECKS.includes(script);
  return lanes.map((lane) => lane.filter(keep)).filter((lane) => lane.length > 0);
}

/** `--sources` or `--built` from `npm run lint -- <flag>` (none: all); undefined for anything else. */
export function lintPartOf(args: readonly string[]): LintPart | undefined {
  if (args.length === 0) return "all";
  if (args.length === 1 && args[0] === "--sources") return "sources";
  if (args.length === 1 && args[0] === "--built") return "built";
  return undefined;
}

/** The lint scripts of a package.json's `scripts` that no lane runs, and those a lane runs that it lacks. */
export function laneGaps(scripts: Record<string, string>): { unrun: string[]; missing: string[] } {
  const laned = LINT_LANES.flat();
  return {
    unrun: Object.keys(scripts).filter((name) => name.startsWith("lint:") && !laned.includes(name)),
    missing: laned.filter((name) => scripts[name] === undefined),
  };
}

/**
 * A lane as one shell command: its scripts through npm, stopping at the first that fails (npm's own
 * lines name each script as it starts, and the one that failed).
 */
export function laneCommand(lane: readonly string[], platform: NodeJS.Platform = process.platform) {
  const npm = platform === "win32" ? "npm.cmd" : "npm";
  const line = lane.map((script) => `${npm} run ${script}`).join(" && ");
  return platform === "win32" ? { command: "cmd", args: ["/c", line] } : { command: "sh", args: ["-c", line] };
}
