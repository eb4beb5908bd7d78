// Commands run side by side with their output kept apart: `npm run test:unit` runs the unit tier and the
// portal's unit tier at once, and `npm test` the integration and end-to-end tiers (two cores, runs that each
// keep about one busy); each prints every run's output whole, in the order given, when all have ended.
import { spawn } from "node:child_process";

export interface Job {
  /** What the output is headed with. */
  name: string;
  command: string;
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
}

export interface JobResult {
  name: string;
  /** The exit code (1 when killed by a signal or not started). */
  code: number;
  /** Standard output and error, interleaved as they came. */
  output: string;
  ms: number;
}

/** Starts every job at once and resolves when all have ended. */
export function runConcurrently(jobs: readonly Job[]): Promise<JobResult[]> {
  return Promise.all(
    jobs.map(
      (job) =>
        new Promise<JobResult>((resolve) => {
          const started = performance.now();
          let output = "";
          const child = spawn(job.command, job.args, {
            env: job.env ?? process.env,
            stdio: ["ignore", "pipe", "pipe"],
          });
          const keep = (chunk: Buffer) => (output += chunk.toString());
          child.stdout.on("data", keep);
          child.stderr.on("data", keep);
          let ran = true;
          child.on("error", (error) => {
            ran = false;
            output += `${error.message}\n`;
          });
          child.on("close", (code) =>
            resolve({
              name: job.name,
              code: ran && code !== null && code >= 0 ? code : 1,
              output,
              ms: performance.now() - started,
            }),
          );
        }),
    ),
  );
}

/** Prints each run's output whole, headed with its name, whether it passed and how long it took. */
export function printResults(results: readonly JobResult[], digits = 1): void {
  for (const result of results) {
    const outcome = result.code === 0 ? "passed" : `failed (exit ${result.code})`;
    console.log(`\n=== ${result.name}: ${outcome} in ${(result.ms / 1000).toFixed(digits)} s\n`);
    process.stdout.write(result.output);
  }
}
