import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";

import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

import PrimaryModule from "./modules/Primary.js";
import PrimaryBridgeModule from "./modules/PrimaryBridge.js";
import SatelliteModule from "./modules/Satellite.js";
import SatelliteCoreModule from "./modules/SatelliteCore.js";
import { routeTo } from "#sdk/bridge";
import { routeParameter } from "./deploy.js";
import {
  DeploymentConfigError,
  chainsOf,
  checkParameterFile,
  deploymentIdOf,
  gatherDeployment,
  parameterFileOf,
  writeDeploymentFile,
} from "./environments.js";
import { CHAINS } from "#sdk/chains";
import type { ChainName } from "#sdk/chains";

/** A parameter file's `$global` with `"123n"` strings turned into bigints, as Ignition reads files. */
async function readParameters(chain: string): Promise<Record<string, unknown>> {
  const json = JSON.parse(await readFile(parameterFileOf(chain), "utf8"), (_, value) =>
    typeof value === "string" && /^\d+n$/.test(value) ? BigInt(value.slice(0, -1)) : value,
  ) as { $global: Record<string, unknown> };
  return json.$global;
}

/** The addresses Ignition recorded for a chain's deployment, by future id, or undefined. */
async function journalOf(ignitionDir: string, deploymentId: string): Promise<Record<string, string> | undefined> {
  const file = path.join(ignitionDir, deploymentId, "deployed_addresses.json");
  if (!existsSync(file)) return undefined;
  return JSON.parse(await readFile(file, "utf8")) as Record<string, string>;
}

/** The bridge (proxy) a chain's journal records, or undefined. */
function bridgeIn(journal: Record<string, string> | undefined): string | undefined {
  return journal?.["PrimaryBridge#Bridge"] ?? journal?.["SatelliteCore#Bridge"];
}

/**
 * Deploys an environment's chains with Ignition, each from its parameter file and under the
 * deployment id `<environment>-<chain>`, in two phases:
 *
 * 1. every chain's contracts with the deployer still in charge: `PrimaryBridge` on the primary chain,
 *    then `SatelliteCore` on the satellites (their executors obey the primary's timelock, read from
 *    the primary's journal);
 * 2. once every chain of the environment has its bridge, on each chain the routes to the others'
 *    bridges and the hand-off: `Primary` (to the timelock) and `Satellite` (to the executor).
 *
 * Ignition's journal makes it resumable (an interrupted run continues where it stopped; phase 2
 * continues phase 1's deployment) and idempotent (a finished run sends nothing). Deploying a subset
 * of chains runs phase 2 only when the other chains' bridges already exist. Afterwards
 * `deployments/<environment>.json` gathers every chain's addresses.
 */
export async function deployEnvironment(
  hre: HardhatRuntimeEnvironment,
  environment: string,
  subset: string,
  log: (line: string) => void,
): Promise<Record<string, Record<string, string>>> {
  const chains = chainsOf(environment, subset);
  for (const { chain, role } of chains) await checkParameterFile(chain, role);
  const all = chainsOf(environment);
  const ignitionDir = path.join(hre.config.paths.ignition, "deployments");
  const journal = (chain: string) => journalOf(ignitionDir, deploymentIdOf(environment, chain));
  const primaryChain = all[0].chain;

  const connect = async (chain: ChainName) => {
    const connection = await hre.network.create({ network: chain });
    const chainId = BigInt((await connection.provider.request({ method: "eth_chainId" })) as string);
    if (chainId !== CHAINS[chain].chainId) {
      throw new Error(`network ${chain} reports chain id ${chainId}, expected ${CHAINS[chain].chainId}`);
    }
    return connection;
  };
  const satelliteExtras = async () => {
    const primary = await journal(primaryChain);
    const timelock = primary?.["PrimaryCore#ProtocolTimelock"];
    if (timelock === undefined) {
      throw new DeploymentConfigError(`deploy ${primaryChain} first: the satellites' executors obey its timelock`);
    }
    const primaryParameters = await readParameters(primaryChain);
    return { primaryTimelock: timelock, primaryChainSelector: primaryParameters.chainSelector };
  };

  // phase 1: contracts
  for (const { chain, role } of chains) {
    const parameters = { ...(await readParameters(chain)), ...(role === "satellite" ? await satelliteExtras() : {}) };
    const connection = await connect(chain);
    const deploymentId = deploymentIdOf(environment, chain);
    log(`Deploying the ${role} contracts to ${CHAINS[chain].label} (${deploymentId})...`);
    const options = { parameters: { $global: parameters } as never, deploymentId, displayUi: true };
    if (role === "primary") await connection.ignition.deploy(PrimaryBridgeModule, options);
    else await connection.ignition.deploy(SatelliteCoreModule, options);
    await connection.close();
  }

  // phase 2: routes and hand-off, once every chain has its bridge
  const bridges = await Promise.all(all.map(async ({ chain }) => bridgeIn(await journal(chain))));
  const missing = all.filter((_, i) => bridges[i] === undefined).map((c) => c.chain);
  if (missing.length > 0) {
    log(`Routes and hand-off wait until every chain has its bridge (missing: ${missing.join(", ")}).`);
  } else {
    const parametersOf = await Promise.all(all.map(({ chain }) => readParameters(chain)));
    for (const { chain, role } of chains) {
      const i = all.findIndex((c) => c.chain === chain);
      const own = parametersOf[i];
      const limit = (capacity: unknown, rate: unknown) => ({
        enabled: true,
        capacity: capacity as bigint,
        rate: rate as bigint,
      });
      const limits = {
        sstb: limit(own.bridgeSstbCapacity, own.bridgeSstbRate),
        governance: limit(own.bridgeGovernanceCapacity, own.bridgeGovernanceRate),
      };
      const routes = all.flatMap((_, j) =>
        j === i
          ? []
          : [
              routeParameter(
                routeTo(parametersOf[j].chainSelector as bigint, bridges[j]!, limits, own.bridgeGasLimit as bigint),
              ),
            ],
      );
      const parameters = {
        ...own,
        ...(role === "satellite" ? await satelliteExtras() : {}),
        bridgeRoutes: routes,
      };
      const connection = await connect(chain);
      const deploymentId = deploymentIdOf(environment, chain);
      log(`Routes and hand-off on ${CHAINS[chain].label} (${deploymentId})...`);
      const options = { parameters: { $global: parameters } as never, deploymentId, displayUi: true };
      if (role === "primary") await connection.ignition.deploy(PrimaryModule, options);
      else await connection.ignition.deploy(SatelliteModule, options);
      await connection.close();
    }
  }

  // every chain of the environment that has a journal, so deploying a subset keeps the others
  const deployed = all.filter(({ chain }) =>
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
