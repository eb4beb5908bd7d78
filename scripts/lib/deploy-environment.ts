import { existsSync } from "node:fs";
import path from "node:path";

import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

import PrimaryModule from "../../deploy/modules/Primary.js";
import SatelliteModule from "../../deploy/modules/Satellite.js";
import {
  CHAINS,
  chainsOf,
  checkParameterFile,
  deploymentIdOf,
  gatherDeployment,
  parameterFileOf,
  writeDeploymentFile,
} from "./environments.js";

/**
 * Deploys an environment's chains with Ignition, each from its parameter file and under the
 * deployment id `<environment>-<chain>`: the primary chain with `Primary` (ending with the
 * hand-off to the timelock), the satellites with `Satellite`. Ignition's journal makes it
 * resumable (an interrupted run continues where it stopped) and idempotent (a finished one sends
 * nothing). Afterwards `deployments/<environment>.json` gathers every chain's addresses.
 */
export async function deployEnvironment(
  hre: HardhatRuntimeEnvironment,
  environment: string,
  subset: string,
  log: (line: string) => void,
): Promise<Record<string, Record<string, string>>> {
  const chains = chainsOf(environment, subset);
  for (const { chain, role } of chains) await checkParameterFile(chain, role);

  for (const { chain, role } of chains) {
    const connection = await hre.network.create({ network: chain });
    const chainId = BigInt((await connection.provider.request({ method: "eth_chainId" })) as string);
    if (chainId !== CHAINS[chain].chainId) {
      throw new Error(`network ${chain} reports chain id ${chainId}, expected ${CHAINS[chain].chainId}`);
    }
    const deploymentId = deploymentIdOf(environment, chain);
    log(`Deploying the ${role} module to ${CHAINS[chain].label} (${deploymentId})...`);
    await connection.ignition.deploy(role === "primary" ? PrimaryModule : SatelliteModule, {
      parameters: path.resolve(parameterFileOf(chain)),
      deploymentId,
      displayUi: true,
    });
    await connection.close();
  }

  // every chain of the environment that has a journal, so deploying a subset keeps the others
  const ignitionDir = path.join(hre.config.paths.ignition, "deployments");
  const deployed = chainsOf(environment).filter(({ chain }) =>
    existsSync(path.join(ignitionDir, deploymentIdOf(environment, chain), "deployed_addresses.json")),
  );
  const record = await gatherDeployment(
    deployed.map(({ chain }) => ({ chain, deploymentId: deploymentIdOf(environment, chain) })),
    ignitionDir,
  );
  const networks = Object.fromEntries(deployed.map(({ chain }) => [chain, { chainId: CHAINS[chain].chainId }]));
  const file = await writeDeploymentFile(environment, record, "deployments", networks);
  log(`Addresses written to ${file}`);
  return record;
}
