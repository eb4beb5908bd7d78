import { spawn } from "node:child_process";

/** How a provider's command ended. */
export type CommandResult = { ok: true; stdout: string } | { ok: false; error: string };

/**
 * Runs `command` through `sh -c` with `input` on stdin; success is exit status 0. Standard error
 * is kept (its last lines go into the failure's message); a command running longer than
 * `timeoutSeconds` is killed and fails.
 */
export function runCommand(
  command: string,
  input: string,
  env: Record<string, string>,
  timeoutSeconds: number,
): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn("sh", ["-c", command], { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutSeconds * 1000);
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.stdin.on("error", () => {}); // a command that does not read its input
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ ok: false, error: error.message });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve({ ok: true, stdout });
      const tail = stderr.trim().split("\n").slice(-3).join(" | ");
      const how = timedOut
        ? `killed after ${timeoutSeconds} s`
        : signal !== null
          ? `killed by ${signal}`
          : `exit status ${code}`;
      resolve({ ok: false, error: tail === "" ? how : `${how}: ${tail}` });
    });
    child.stdin.end(input);
  });
}
