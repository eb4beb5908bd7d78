import { readFileSync } from "node:fs";

import { ProviderAgent } from "./agent.js";
import { ProviderConfigError, parseProviderArgs, providerConfig } from "./config.js";
import { DecisionError, applyDecision, describeState } from "./decisions.js";
import { StateFile } from "./state.js";

/**
 * `npm run provider -- serve | status | retry ID | abandon ID`: the provider agent's command.
 * `serve` runs until SIGINT or SIGTERM (a pass in progress finishes its current step; the state
 * file is always whole); `retry` and `abandon` decide about a redemption the agent could not
 * provision, while it runs or not. Returns the exit status.
 */
export async function providerMain(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const log = (line: string) => console.log(`${new Date().toISOString()} ${line}`);
  try {
    const { command, id, values } = parseProviderArgs(argv);
    const file = typeof values.state === "string" ? values.state : "provider-state.json";
    if (command === "status") {
      const state = StateFile.read(file);
      if (state === undefined) {
        console.log(`no state file at ${file}: the agent has done nothing yet`);
        return 0;
      }
      for (const line of describeState(state)) console.log(line);
      return 0;
    }
    if (command === "retry" || command === "abandon") {
      console.log(applyDecision(file, command, id!));
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
    if (error instanceof DecisionError) {
      console.error(`provider: ${error.message}`);
      return 1;
    }
    console.error(`provider: ${(error as Error).message}`);
    return 1;
  }
}
