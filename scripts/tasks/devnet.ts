// `npm start` (= `hardhat devnet`; `npm start -- --once` exits after the demo): thin; the logic is
// devnet/devnet.ts, which the tests exercise. Compiles first, then loads the modules that
// need the compiled artifacts and their types.
import path from "node:path";

import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

interface DevnetArguments {
  once: boolean;
  basePort: number;
  gatewayPort: number;
}

export default async function devnet(args: DevnetArguments, hre: HardhatRuntimeEnvironment) {
  console.log("... compile contracts");
  // the contracts only: the devnet runs no Solidity test, so their compiler warnings stay out of npm start
  await hre.tasks.getTask("build").run({ quiet: true, noTests: true });
  // the portal the gateway serves at /portal/ (Vite's programmatic build: about 3 s)
  console.log("... build the portal");
  const { build } = await import("vite");
  await build({ configFile: path.join(hre.config.paths.root, "portal", "vite.config.ts"), logLevel: "warn" });
  const { runDevnet } = await import("../../devnet/devnet.js");
  try {
    await runDevnet(hre, {
      once: args.once,
      basePort: args.basePort,
      gatewayPort: args.gatewayPort,
      log: (line) => console.log(line),
    });
  } catch (error) {
    console.error(`npm start failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
