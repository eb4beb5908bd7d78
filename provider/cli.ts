import { readFileSync } from "node:fs";

import { ProviderAgent } from "./agent.js";
import { ProviderConfigError, parseProviderArgs, providerConfig } from "./config.js";
import { StateFile } from "./state.js";

/**
 * `npm run provider -- serve | status`: the provider agent's command. `serve` runs until SIGINT or
 * SIGTERM (a pass in progress finishes its current step; the state file is always whole).
 * Returns the exit status.
 */
export async function providerMain(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`);
  try {
    const { command, values } = parseProviderArgs(argv);
    if (command === "status") {
      const file = typeof values.state === "string" ? values.state : "provider-state.json";
      const state = StateFile.read(file);
      if (state === undefined) {
        console.log(`no state file at ${file}: the agent has done nothing yet`);
        return 0;
      }
      console.log(`provider ${state.provider}`);
      for (const [id, r] of Object.entries(state.redemptions)) {
        const extra = [
          r.leaseEnd === undefined ? "" : `lease until ${new Date(r.leaseEnd * 1000).toISOString()}`,
          r.deprovisioned === undefined ? "" : `deprovisioned (${r.deprovisioned})`,
          r.error === undefined ? "" : `error: ${r.error}`,
        ].filter((x) => x !== "");
        console.log(`  redemption ${id}: ${r.status}${extra.length > 0 ? `, ${extra.join(", ")}` : ""}`);
      }
      return 0;
    }
    const config = providerConfig(values, env, (path) => readFileSync(path, "utf8"));
    const agent = new ProviderAgent(config, log);
    await agent.start();
    await new Promise<void>((resolve) => {
      for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => resolve());
    });
    log("provider: stopping");
    await agent.stop();
    return 0;
  } catch (error) {
    if (error instanceof ProviderConfigError) {
      console.error(error.message);
      return 2;
    }
    console.error(`provider: ${(error as Error).message}`);
    return 1;
  }
}
