// `npx hardhat verify-protocol --environment testnet`: runs `hardhat ignition verify <deployment>
// --network <chain>` for each chain of the environment (Ignition knows every constructor argument
// from its journal). Needs ETHERSCAN_API_KEY (one Etherscan v2 key covers all six chains).
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";

import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

import { chainsOf, deploymentIdOf } from "../../deploy/environments.js";

interface VerifyProtocolArguments {
  environment: string;
  chains: string;
}

export default async function verifyProtocol(args: VerifyProtocolArguments, hre: HardhatRuntimeEnvironment) {
  const cli = path.join(
    path.dirname(createRequire(import.meta.url).resolve("hardhat/package.json")),
    "dist/src/cli.js",
  );
  try {
    for (const { chain } of chainsOf(args.environment, args.chains)) {
      const deploymentId = deploymentIdOf(args.environment, chain);
      console.log(`Verifying ${deploymentId} on ${chain}...`);
      const run = spawnSync(process.execPath, [cli, "ignition", "verify", deploymentId, "--network", chain], {
        cwd: hre.config.paths.root,
        stdio: "inherit",
      });
      if (run.status !== 0) throw new Error(`verification of ${deploymentId} exited with ${run.status}`);
    }
  } catch (error) {
    console.error(`verify-protocol failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
