import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";

import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

import PrimaryModule from "./modules/Primary.js";
import PrimaryBridgeModule from "./modules/PrimaryBridge.js";
import SatelliteModule from "./modules/Satellite.js";
import SatelliteCoreModule from "./modules/SatelliteCore.js";
import { routeTo } from "@compute-capacity/sdk/constants";
import type { RateLimit, RouteLimits } from "@compute-capacity/sdk/constants";
import { governancePeersOf, routeParameter } from "./deploy.js";
import {
  DeploymentConfigError,
  chainsOf,
  checkParameterFile,
  deploymentIdOf,
  gatherDeployment,
  parameterFileOf,
  writeDeploymentFile,
} from "./environments.js";
import { CHAINS } from "@compute-capacity/sdk/constants";
import type { ChainName } from "@compute-capacity/sdk/constants";

/** A parameter file's `$global` with `"123n"` strings turned into bigints, as Ignition reads files. */
export async function readParameters(chain: string): Promise<Record<string, unknown>> {
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

/** A chain's bridge limits from its parameter file: what every route lets out, and what it lets in. */
export function bridgeLimitsOf(
  chain: string,
  parameters: Record<string, unknown>,
): { outbound: RouteLimits; inbound: RouteLimits } {
  const limit = (capacityField: string, rateField: string): RateLimit => {
    const [capacity, rate] = [parameters[capacityField], parameters[rateField]];
    if (typeof capacity !== "bigint" || typeof rate !== "bigint") {
      throw new DeploymentConfigError(
        `${parameterFileOf(chain)}: $global.${capacityField} and ${rateField} are needed`,
      );
    }
    return { enabled: true, capacity, rate };
  };
  return {
    outbound: {
      sstb: limit("bridgeSstbCapacity", "bridgeSstbRate"),
      governance: limit("bridgeGovernanceCapacity", "bridgeGovernanceRate"),
    },
    inbound: {
      sstb: limit("bridgeSstbInboundCapacity", "bridgeSstbInboundRate"),
      governance: limit("bridgeGovernanceInboundCapacity", "bridgeGovernanceInboundRate"),
    },
  };
}

/**
 * Refuses an environment whose parameter files let a chain send a peer more than the peer takes in:
 * per token, every chain's outbound capacity and rate must be at most every other chain's inbound
 * ones. A message above the destination's inbound capacity is only delivered in installments, and
 * a sustained flow above its inbound rate makes the queue grow without bound.
 */
export function checkRouteLimits(chains: ReadonlyArray<{ chain: string; parameters: Record<string, unknown> }>): void {
  const limits = chains.map(({ chain, parameters }) => ({ chain, ...bridgeLimitsOf(chain, parameters) }));
  for (const source of limits) {
    for (const destination of limits) {
      if (source === destination) continue;
      for (const token of ["sstb", "governance"] as const) {
        const [out, into] = [source.outbound[token], destination.inbound[token]];
        for (const field of ["capacity", "rate"] as const) {
          if (out[field] > into[field]) {
            throw new DeploymentConfigError(
              `${source.chain} -> ${destination.chain}: the ${token} outbound ${field} of ${source.chain} ` +
                `(${out[field]}) exceeds the inbound ${field} of ${destination.chain} (${into[field]}); ` +
                `raise ${destination.chain}'s inbound limit or lower ${source.chain}'s outbound one`,
            );
          }
        }
      }
    }
  }
}

/** The bridge (proxy) a chain's journal records, or undefined. */
function bridgeIn(journal: Record<string, string> | undefined): string | undefined {
  return journal?.["PrimaryBridge#Bridge"] ?? journal?.["SatelliteCore#Bridge"];
}

/** The governance channel (proxy) a chain's journal records, or undefined. */
function channelIn(journal: Record<string, string> | undefined): string | undefined {
  return journal?.["PrimaryBridge#GovernanceChannel"] ?? journal?.["SatelliteCore#GovernanceChannel"];
}

/**
 * Deploys an environment's chains with Ignition, each from its parameter file and under the
 * deployment id `<environment>-<chain>`, in two phases:
 *
 * 1. every chain's contracts with the deployer still in charge: `PrimaryBridge` on the primary chain,
 *    then `SatelliteCore` on the satellites (their executors obey the primary's timelock, read from
 *    the primary's journal);
 * 2. once every chain of the environment has its bridge, on each chain the routes to the others'
 *    bridges, the governance channel's peers (the satellites' on the primary, the primary's on a
 *    satellite) and the hand-off: `Primary` (to the timelock) and `Satellite` (to the executor).
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
  // the two ends of every route come from two files: cross-check them before deploying anything
  checkRouteLimits(
    await Promise.all(all.map(async ({ chain }) => ({ chain, parameters: await readParameters(chain) }))),
  );
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
  const journals = await Promise.all(all.map(async ({ chain }) => journal(chain)));
  const bridges = journals.map(bridgeIn);
  const channels = journals.map(channelIn);
  const missing = all.filter((_, i) => bridges[i] === undefined).map((c) => c.chain);
  if (missing.length > 0) {
    log(`Routes and hand-off wait until every chain has its bridge (missing: ${missing.join(", ")}).`);
  } else {
    const parametersOf = await Promise.all(all.map(({ chain }) => readParameters(chain)));
    const selectors = parametersOf.map((p) => p.chainSelector as bigint);
    for (const { chain, role } of chains) {
      const i = all.findIndex((c) => c.chain === chain);
      const own = parametersOf[i];
      const { outbound, inbound } = bridgeLimitsOf(chain, own);
      const routes = all.flatMap((_, j) =>
        j === i
          ? []
          : [
              routeParameter(
                routeTo(
                  parametersOf[j].chainSelector as bigint,
                  bridges[j]!,
                  outbound,
                  own.bridgeGasLimit as bigint,
                  inbound,
                ),
              ),
            ],
      );
      const parameters = {
        ...own,
        ...(role === "satellite" ? await satelliteExtras() : {}),
        bridgeRoutes: routes,
        governancePeers: governancePeersOf(i, selectors, channels as string[]),
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
