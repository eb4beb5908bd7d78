// The lint checks of `npm run lint` (scripts/lint.ts), in two lanes run side by side (decision 0180). Each
// check is mostly one process on one core; one after the other they took about two minutes on this 2-core
// machine. The lanes share no output: the first builds (`hardhat build`, the package's `build` script, for the
// TypeChain types `tsc` reads, then the SDK package that publint and attw inspect, in that order, then the
// portal's tsc); the second only reads sources, dependency-cruiser first (before the first lane rebuilds
// `sdk/dist/`).

/** The `lint:*` scripts of package.json, each in one lane; a lane runs its scripts one after the other. */
export const LINT_LANES: readonly (readonly string[])[] = [
  ["build", "lint:ts", "lint:package", "lint:links", "lint:ts:portal"],
  ["lint:deps", "lint:openapi", "lint:format", "lint:sol"],
];

/**
 * The checks that read only files under version control: no Hardhat build (TypeChain types, artifacts),
 * no SDK build, no file a test writes. They may run before or while the contracts compile: CI runs them
 * at the lowest priority beside `npm test`, whose first minutes are solc's one-core build
 * (`npm run lint -- --sources`, then `npm run lint -- --built` after the tests; decision 0184).
 */
export const SOURCE_CHECKS: readonly string[] = ["lint:format", "lint:sol", "lint:ts:portal"];

/**
 * The checks that read the build (the TypeChain types, the artifacts) but run no build and write nothing a
 * test reads (not `sdk/dist/`, not Hardhat's compile cache). They may run while tests run, once the contracts
 * are built: CI starts them at the lowest priority beside `npm test`'s last phase, after its contract tier
 * (`npm run lint -- --build-readers`; decision 0188). The rest of the built part (`hardhat build`, which
 * rewrites Hardhat's compile cache as the devnet's own build check does, and the SDK package, which rebuilds
 * the `sdk/dist/` the end-to-end tier builds and reads) runs after the tests (`--build-writers`).
 */
export const BUILD_READERS: readonly string[] = ["lint:ts", "lint:links", "lint:deps", "lint:openapi"];

/**
 * Which checks a run of `npm run lint` makes: all; the source checks alone; all the others (`built`); or of
 * those, the ones that only read the build (`readers`) or the others (`writers`).
 */
export type LintPart = "all" | "sources" | "built" | "readers" | "writers";

/** Whether `script` belongs to `part`. */
function inPart(part: LintPart, script: string): boolean {
  const source = SOURCE_CHECKS.includes(script);
  const reader = BUILD_READERS.includes(script);
  switch (part) {
    case "all":
      return true;
    case "sources":
      return source;
    case "built":
      return !source;
    case "readers":
      return reader;
    case "writers":
      return !source && !reader;
  }
}

/** The lanes of `part`: each lane keeps its order, without the checks of other parts; empty lanes dropped. */
export function lanesOf(part: LintPart, lanes: readonly (readonly string[])[] = LINT_LANES): string[][] {
  return lanes.map((lane) => lane.filter((script) => inPart(part, script))).filter((lane) => lane.length > 0);
}

const FLAGS: Record<string, LintPart> = {
  "--sources": "sources",
  "--built": "built",
  "--build-readers": "readers",
  "--build-writers": "writers",
};

/** The part a flag of `npm run lint -- <flag>` names (none: all); undefined for anything else. */
export function lintPartOf(args: readonly string[]): LintPart | undefined {
  if (args.length === 0) return "all";
  if (args.length === 1 && Object.hasOwn(FLAGS, args[0])) return FLAGS[args[0]];
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
