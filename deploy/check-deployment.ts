import { readFile } from "node:fs/promises";
import path from "node:path";

import { JsonRpcProvider, Network } from "ethers";
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

import { CHAINS } from "@compute-capacity/sdk/constants";
import type { ChainName } from "@compute-capacity/sdk/constants";
import { parseDeploymentFile } from "@compute-capacity/sdk/constants";
import { buildReader } from "./check/build.js";
import type { BuildReader } from "./check/build.js";
import { checkCode, checkProxies } from "./check/code.js";
import { ChainContext } from "./check/context.js";
import { checkGovernance, checkWiring } from "./check/governance.js";
import { contractsOf, readIgnitionRecord } from "./check/load.js";
import type { ChainUnderCheck } from "./check/load.js";
import { checkParameters } from "./check/parameters.js";
import { Checks, formatReport } from "./check/report.js";
import type { CheckReport } from "./check/report.js";
import { checkRoles } from "./check/roles.js";
import type { Holdings } from "./check/roles.js";
import { checkPeers, checkRoutes } from "./check/routes.js";
import {
  DeploymentConfigError,
  chainsOf,
  checkParameterFile,
  deploymentIdOf,
  parameterFileOf,
  parameterValues,
} from "./environments.js";
import type { ParameterOverrides } from "./parameter-overrides.js";

export { buildReader, formatReport };
export type { BuildReader, ChainUnderCheck, CheckReport };

/**
 * The post-deployment check (`npm run check:deployment -- --environment mainnet`): reads every
 * chain of a deployment and reports, one line per check, whether
 * - record: each chain answers with its id, and the deployments file agrees with the Ignition journal;
 * - code: every contract's runtime code is this commit's artifact (immutables aside);
 * - proxies: every proxy points at its implementation, is at its latest initializer version, and
 *   the implementation is locked;
 * - roles: every role is held only by whom the policy allows (the timelock or the satellite
 *   executor for admin and upgrade roles), none by the deployer;
 * - wiring: every address a contract points at belongs to the deployment;
 * - parameters: every parameter equals the parameter file (overrides applied);
 * - routes: both ends of every route agree (peers, selectors, inbound at least the peer's outbound);
 * - governance: the governor, the timelock and the token are wired to each other, the satellites'
 *   executors to the primary's timelock.
 * It is driven by the record and the artifacts: every contract the deployment recorded is checked,
 * whatever its name, through the getters and role events its artifact's interface has.
 */
export async function checkDeployment(
  title: string,
  chains: readonly ChainUnderCheck[],
  build: BuildReader,
): Promise<CheckReport> {
  const checks = new Checks();
  const contexts = await Promise.all(chains.map((c) => ChainContext.create(c, build)));
  const primary = contexts.find((c) => c.chain.role === "primary");
  if (primary === undefined) throw new Error("a deployment to check has a primary chain");
  const summaries = contexts.map((ctx) => ({
    chain: ctx.name,
    summary:
      `chain id ${ctx.chain.chainId}, ${ctx.contracts.length} contracts, deployed by ${ctx.chain.deployers.join(", ")} ` +
      `from block ${ctx.chain.fromBlock}, parameters ${ctx.chain.parameterSource}`,
  }));

  // each chain's own sections at once (the report keeps the chains' order), then across chains
  const holdings = new Map<string, Holdings>();
  const elsewhere = (self: ChainContext) => (address: string) => {
    for (const other of contexts) {
      if (other === self) continue;
      const contract = other.contracts.find((c) => c.address.toLowerCase() === address.toLowerCase());
      if (contract !== undefined) return `${other.name}'s ${contract.name} ${contract.address}`;
    }
    return undefined;
  };
  await checks.each(contexts, async (checks, ctx) => {
    await checks.guard(ctx.name, "record", "the chain id", async () => {
      const chainId = BigInt(await (ctx.chain.provider as JsonRpcProvider).send("eth_chainId", []));
      checks.add(ctx.name, "record", chainId === ctx.chain.chainId, `the chain answers with chain id ${chainId}`);
    });
    for (const problem of ctx.chain.recordProblems) checks.fail(ctx.name, "record", problem);
    if (ctx.chain.recordProblems.length === 0) {
      checks.pass(
        ctx.name,
        "record",
        `the deployments file and the Ignition journal agree on ${ctx.contracts.length} contracts`,
      );
    }
    await checkCode(checks, ctx, build);
    await checkProxies(checks, ctx, build);
    holdings.set(ctx.name, await checkRoles(checks, ctx));
    await checkWiring(checks, ctx, elsewhere(ctx));
    const peers = contexts
      .filter((other) => other !== ctx)
      .map((other) => ({ chain: other.name, selector: other.chain.parameters.chainSelector as bigint }));
    await checkParameters(checks, ctx, holdings.get(ctx.name)!, peers);
  });
  await checkRoutes(checks, contexts);
  await checkPeers(checks, contexts);
  await checks.each(contexts, (checks, ctx) => checkGovernance(checks, ctx, holdings.get(ctx.name)!, primary));

  const failures = checks.lines.filter((l) => !l.ok);
  return { title, chains: summaries, lines: checks.lines, failures, ok: failures.length === 0 };
}

/** A chain recorded by Ignition and a deployments-file entry, ready for {@link checkDeployment}. */
export async function loadRecordedChain(input: {
  chain: string;
  role: "primary" | "satellite";
  chainId: bigint;
  provider: JsonRpcProvider;
  /** The chain's contracts in the deployments file. */
  record: Record<string, string>;
  ignitionDir: string;
  deploymentId: string;
  parameters: Record<string, unknown>;
  parameterSource: string;
  knownAccounts?: Record<string, string>;
}): Promise<ChainUnderCheck> {
  const ignition = await readIgnitionRecord(input.ignitionDir, input.deploymentId);
  const { contracts, problems } = contractsOf(input.record, ignition);
  return {
    chain: input.chain,
    role: input.role,
    chainId: input.chainId,
    provider: input.provider,
    contracts,
    deployers: ignition.senders,
    fromBlock: ignition.firstBlock,
    parameters: input.parameters,
    parameterSource: input.parameterSource,
    knownAccounts: input.knownAccounts,
    recordProblems: problems,
  };
}

/** What {@link checkEnvironment} checks. */
export interface CheckEnvironmentOptions {
  environment: string;
  /** The name the deployment was recorded under (default: the environment's; `--record-as`). */
  recordAs?: string;
  /** The overrides file's values the deployment ran with (its placeholders filled the same way). */
  overrides?: ParameterOverrides;
  /** JSON-RPC URL per chain instead of the networks' configuration variables (`ARBITRUM_RPC_URL`, …). */
  rpcUrls?: Record<string, string>;
}

/**
 * Checks a deployment of an environment made by `deploy-protocol`: its deployments file
 * (`deployments/<name>.json`), its Ignition journals (`ignition/deployments/<name>-<chain>`), the
 * parameter files with the same overrides, and every chain through its network's RPC URL.
 */
export async function checkEnvironment(
  hre: HardhatRuntimeEnvironment,
  options: CheckEnvironmentOptions,
): Promise<CheckReport> {
  const chains = chainsOf(options.environment);
  const name = options.recordAs ?? options.environment;
  const root = hre.config.paths.root;
  const file = path.join(root, "deployments", `${name}.json`);
  let recorded;
  try {
    recorded = parseDeploymentFile(await readFile(file, "utf8"));
  } catch (error) {
    throw new DeploymentConfigError(`${file}: ${(error as Error).message} (is ${name} deployed?)`);
  }
  const providers: JsonRpcProvider[] = [];
  try {
    const loaded = await Promise.all(
      chains.map(async ({ chain, role }) => {
        const entry = recorded.find((c) => c.chain === chain);
        if (entry === undefined) throw new DeploymentConfigError(`${file} has no ${chain}: deploy every chain first`);
        const source = path.join(root, parameterFileOf(chain));
        const parameters = parameterValues(await checkParameterFile(chain, role, source, options.overrides?.[chain]));
        // a network without ethers' plugins (for 137 they would ask Polygon's gas station): the check only reads
        const network = new Network(chain, CHAINS[chain as ChainName].chainId);
        const provider = new JsonRpcProvider(await rpcUrlOf(hre, chain, options.rpcUrls), network, {
          staticNetwork: network,
          cacheTimeout: -1,
        });
        providers.push(provider);
        return loadRecordedChain({
          chain,
          role,
          chainId: CHAINS[chain as ChainName].chainId,
          provider,
          record: entry.contracts,
          ignitionDir: path.join(hre.config.paths.ignition, "deployments"),
          deploymentId: deploymentIdOf(name, chain),
          parameters,
          parameterSource: parameterFileOf(chain) + (options.overrides?.[chain] === undefined ? "" : " with overrides"),
        });
      }),
    );
    const title = name === options.environment ? options.environment : `${options.environment}, recorded as ${name}`;
    return await checkDeployment(title, loaded, buildReader(hre.artifacts));
  } finally {
    for (const provider of providers) provider.destroy();
  }
}

/** A chain's RPC URL: the given one, or its network's configuration variable (`ARBITRUM_RPC_URL`, …). */
async function rpcUrlOf(
  hre: HardhatRuntimeEnvironment,
  chain: string,
  given?: Record<string, string>,
): Promise<string> {
  if (given?.[chain] !== undefined) return given[chain];
  const network = hre.config.networks[chain];
  if (network?.type !== "http") throw new DeploymentConfigError(`network ${chain} is not an HTTP network`);
  return network.url.getUrl();
}
