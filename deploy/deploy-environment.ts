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
  parameterValues,
  writeDeploymentFile,
} from "./environments.js";
import { applyOverrides } from "./parameter-overrides.js";
import type { ParameterOverrides } from "./parameter-overrides.js";
import { CHAINS } from "@compute-capacity/sdk/constants";
import type { ChainName } from "@compute-capacity/sdk/constants";

/**
 * A parameter file's `$global` with a chain's overrides applied (unchecked: {@link checkParameterFile}
 * refuses what cannot be deployed) and `"123n"` strings turned into bigints, as Ignition reads files.
 */
export async function readParameters(
  chain: string,
  overrides?: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const file = parameterFileOf(chain);
  const json = JSON.parse(await readFile(file, "utf8")) as { $global: Record<string, unknown> };
  return parameterValues(overrides === undefined ? json.$global : applyOverrides(chain, file, json.$global, overrides));
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

/** How {@link deployEnvironment} runs beyond the environment and its chains. */
export interface DeployEnvironmentOptions {
  /** Values for the parameter files' placeholders, per chain (an overrides file, `--overrides`). */
  overrides?: ParameterOverrides;
  /**
   * The name the deployment is recorded under (default: the environment's): its Ignition journals
   * are `ignition/deployments/<name>-<chain>` and its addresses `deployments/<name>.json`. A
   * rehearsal of mainnet records itself apart, so it never resumes or overwrites the real one.
   */
  recordAs?: string;
}

/** The parameter fields that name accounts: none may be the deployer, who renounces everything. */
const ACCOUNT_FIELDS = ["treasury", "approver", "arbitrator", "guardian", "verifiers"] as const;

/** The governance channel (proxy) a chain's journal records, or undefined. */
function channelIn(journal: Record<string, string> | undefined): string | undefined {
  return journal?.["PrimaryBridge#GovernanceChannel"] ?? journal?.["SatelliteCore#GovernanceChannel"];
}

/**
 * Deploys an environment's chains with Ignition, each from its parameter file (placeholders filled
 * from `options.overrides`) and under the deployment id `<name>-<chain>`, in two phases:
 *
 * 1. every chain's contracts with the deployer still in charge: `PrimaryBridge` on the primary chain,
 *    then `SatelliteCore` on the satellites (their executors obey the primary's timelock, read from
 *    the primary's journal);
 * 2. once every chain of the environment has its bridge, on each chain the routes to the others'
 *    bridges, the governance channel's peers (the satellites' on the primary, the primary's on a
 *    satellite) and the hand-off: `Primary` (to the timelock) and `Satellite` (to the executor).
 *
 * Before sending anything it checks every parameter file, the routes' limits across files, and on
 * every chain to deploy: the chain id, and that the deployer is none of the accounts the files name.
 * Ignition's journal makes it resumable (an interrupted run continues where it stopped; phase 2
 * continues phase 1's deployment) and idempotent (a finished run sends nothing). Deploying a subset
 * of chains runs phase 2 only when the other chains' bridges already exist. Afterwards
 * `deployments/<name>.json` gathers every chain's addresses.
 */
export async function deployEnvironment(
  hre: HardhatRuntimeEnvironment,
  environment: string,
  subset: string,
  log: (line: string) => void,
  options: DeployEnvironmentOptions = {},
): Promise<Record<string, Record<string, string>>> {
  const chains = chainsOf(environment, subset);
  const all = chainsOf(environment);
  const name = options.recordAs ?? environment;
  const overridesOf = (chain: string) => options.overrides?.[chain];
  const checked = new Map<string, Record<string, unknown>>();
  for (const { chain, role } of all) {
    checked.set(chain, await checkParameterFile(chain, role, parameterFileOf(chain), overridesOf(chain)));
  }
  const parametersOf = new Map<string, Record<string, unknown>>(
    all.map(({ chain }) => [chain, parameterValues(checked.get(chain)!)]),
  );
  const parameters = (chain: string) => parametersOf.get(chain)!;
  // the two ends of every route come from two files: cross-check them before deploying anything
  checkRouteLimits(all.map(({ chain }) => ({ chain, parameters: parameters(chain) })));
  const ignitionDir = path.join(hre.config.paths.ignition, "deployments");
  const journal = (chain: string) => journalOf(ignitionDir, deploymentIdOf(name, chain));
  const primaryChain = all[0].chain;

  const connect = async (chain: ChainName) => {
    const connection = await hre.network.create({ network: chain });
    const chainId = BigInt((await connection.provider.request({ method: "eth_chainId" })) as string);
    if (chainId !== CHAINS[chain].chainId) {
      await connection.close();
      throw new Error(`network ${chain} reports chain id ${chainId}, expected ${CHAINS[chain].chainId}`);
    }
    return connection;
  };
  // pre-flight, nothing sent: every chain answers with its id, and the deployer plays no role
  for (const { chain } of chains) {
    const connection = await connect(chain);
    const [deployer] = await connection.ethers.getSigners();
    await connection.close();
    const g = checked.get(chain)!;
    for (const field of ACCOUNT_FIELDS) {
      const accounts = ([] as unknown[]).concat(g[field] ?? []).map((a) => String(a).toLowerCase());
      if (accounts.includes(deployer.address.toLowerCase())) {
        throw new DeploymentConfigError(
          `${chain}.${field} is the deployer's own account ${deployer.address}: the deployer renounces every ` +
            `role at the hand-off, so it must not be one of the accounts that keep one`,
        );
      }
    }
  }
  const satelliteExtras = async () => {
    const primary = await journal(primaryChain);
    const timelock = primary?.["PrimaryCore#ProtocolTimelock"];
    if (timelock === undefined) {
      throw new DeploymentConfigError(`deploy ${primaryChain} first: the satellites' executors obey its timelock`);
    }
    return { primaryTimelock: timelock, primaryChainSelector: parameters(primaryChain).chainSelector };
  };

  // phase 1: contracts
  for (const { chain, role } of chains) {
    const values = { ...parameters(chain), ...(role === "satellite" ? await satelliteExtras() : {}) };
    const connection = await connect(chain);
    const deploymentId = deploymentIdOf(name, chain);
    log(`Deploying the ${role} contracts to ${CHAINS[chain].label} (${deploymentId})...`);
    const ignitionOptions = { parameters: { $global: values } as never, deploymentId, displayUi: true };
    if (role === "primary") await connection.ignition.deploy(PrimaryBridgeModule, ignitionOptions);
    else await connection.ignition.deploy(SatelliteCoreModule, ignitionOptions);
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
    const selectors = all.map(({ chain }) => parameters(chain).chainSelector as bigint);
    for (const { chain, role } of chains) {
      const i = all.findIndex((c) => c.chain === chain);
      const own = parameters(chain);
      const { outbound, inbound } = bridgeLimitsOf(chain, own);
      const routes = all.flatMap((other, j) =>
        j === i
          ? []
          : [
              routeParameter(
                routeTo(
                  parameters(other.chain).chainSelector as bigint,
                  bridges[j]!,
                  outbound,
                  own.bridgeGasLimit as bigint,
                  inbound,
                ),
              ),
            ],
      );
      const values = {
        ...own,
        ...(role === "satellite" ? await satelliteExtras() : {}),
        bridgeRoutes: routes,
        governancePeers: governancePeersOf(i, selectors, channels as string[]),
      };
      const connection = await connect(chain);
      const deploymentId = deploymentIdOf(name, chain);
      log(`Routes and hand-off on ${CHAINS[chain].label} (${deploymentId})...`);
      const ignitionOptions = { parameters: { $global: values } as never, deploymentId, displayUi: true };
      if (role === "primary") await connection.ignition.deploy(PrimaryModule, ignitionOptions);
      else await connection.ignition.deploy(SatelliteModule, ignitionOptions);
      await connection.close();
    }
  }

  // every chain of the environment that has a journal, so deploying a subset keeps the others
  const deployed = all.filter(({ chain }) =>
    existsSync(path.join(ignitionDir, deploymentIdOf(name, chain), "deployed_addresses.json")),
  );
  const record = await gatherDeployment(
    deployed.map(({ chain }) => ({ chain, deploymentId: deploymentIdOf(name, chain) })),
    ignitionDir,
  );
  const networks = Object.fromEntries(deployed.map(({ chain }) => [chain, { chainId: CHAINS[chain].chainId }]));
  const file = await writeDeploymentFile(name, record, "deployments", networks);
  log(`Addresses written to ${file}`);
  return record;
}
