import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

import { getAddress } from "ethers";

import { DeploymentConfigError } from "./config-error.js";
import { applyOverrides } from "./parameter-overrides.js";

import { CCIP_CHAIN_SELECTORS } from "@compute-capacity/sdk/constants";
import { CHAINS } from "@compute-capacity/sdk/constants";
import type { ChainName } from "@compute-capacity/sdk/constants";
import { formatDeploymentFile, parseDeploymentFile } from "@compute-capacity/sdk/constants";
import type { ChainNetwork, DeployedChain, DeploymentRecord } from "@compute-capacity/sdk/constants";

/**
 * The environments: per environment, the primary chain (every contract) and the satellites
 * (tokens), by Hardhat network name (the chains' ids and labels are the SDK's `CHAINS`).
 */
export const ENVIRONMENTS = {
  mainnet: { primary: "arbitrum", satellites: ["ethereum", "polygon"] },
  testnet: { primary: "arbitrumSepolia", satellites: ["sepolia", "polygonAmoy"] },
} as const satisfies Record<string, { primary: ChainName; satellites: readonly ChainName[] }>;
export type EnvironmentName = keyof typeof ENVIRONMENTS;

export { DeploymentConfigError };

/** The chains of an environment to work on: all of them, or the named subset (primary first). */
export function chainsOf(environment: string, subset = ""): Array<{ chain: ChainName; role: "primary" | "satellite" }> {
  const env = ENVIRONMENTS[environment as EnvironmentName];
  if (env === undefined) {
    throw new DeploymentConfigError(`environment must be one of ${Object.keys(ENVIRONMENTS).join(", ")}`);
  }
  const all = [
    { chain: env.primary as ChainName, role: "primary" as const },
    ...env.satellites.map((chain) => ({ chain: chain as ChainName, role: "satellite" as const })),
  ];
  const wanted = subset
    .split(",")
    .map((c) => c.trim())
    .filter((c) => c !== "");
  for (const chain of wanted) {
    if (!all.some((c) => c.chain === chain)) {
      throw new DeploymentConfigError(
        `${chain} is not a chain of ${environment} (${all.map((c) => c.chain).join(", ")})`,
      );
    }
  }
  return wanted.length === 0 ? all : all.filter((c) => wanted.includes(c.chain));
}

/** The Ignition deployment id of a chain in an environment: its journal's folder. */
export function deploymentIdOf(environment: string, chain: string): string {
  return `${environment}-${chain}`;
}

/** The parameter file of a chain. */
export function parameterFileOf(chain: string): string {
  return path.join("deploy", "parameters", `${chain}.json`);
}

const ZERO = "0x0000000000000000000000000000000000000000";
const PRIMARY_ADDRESSES = ["treasury", "collateralToken", "approver", "arbitrator", "guardian", "ccipRouter"] as const;
const SATELLITE_ADDRESSES = ["treasury", "guardian", "collateralToken", "ccipRouter"] as const;
/** The bridge's settings, on every chain (bigints as "123n"). */
const BRIDGE_VALUES = [
  "chainSelector",
  "bridgeSstbPrice",
  "bridgeGovernancePrice",
  "bridgeGasLimit",
  "bridgeSstbCapacity",
  "bridgeSstbRate",
  "bridgeGovernanceCapacity",
  "bridgeGovernanceRate",
] as const;
const PRIMARY_VALUES = [
  "collateralPerCU",
  "governanceSupply",
  "cuTokenUri",
  "verifierThreshold",
  "votingDelay",
  "votingPeriod",
  "proposalThreshold",
  "quorumPercent",
  "timelockDelay",
] as const;

/**
 * Reads a chain's parameter file, fills its placeholders from `overrides` (the chain's part of an
 * overrides file, {@link applyOverrides}), and refuses what cannot be deployed: missing fields, an
 * address that is not one, or a zero placeholder left unfilled, naming the file and field. Returns
 * the `$global` values as the file writes them (bigints as `"123n"`).
 */
export async function checkParameterFile(
  chain: string,
  role: "primary" | "satellite",
  file = parameterFileOf(chain),
  overrides?: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  let json: { $global?: Record<string, unknown> };
  try {
    json = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new DeploymentConfigError(`${file}: ${(error as Error).message}`);
  }
  if (json.$global === undefined) throw new DeploymentConfigError(`${file}: no "$global" parameters`);
  const g = overrides === undefined ? json.$global : applyOverrides(chain, file, json.$global, overrides);
  const addresses = role === "primary" ? PRIMARY_ADDRESSES : SATELLITE_ADDRESSES;
  for (const field of addresses) checkAddress(file, field, g[field]);
  const values = [...(role === "primary" ? PRIMARY_VALUES : (["cuTokenUri"] as const)), ...BRIDGE_VALUES];
  for (const field of values) {
    if (g[field] === undefined || g[field] === "")
      throw new DeploymentConfigError(`${file}: $global.${field} is missing`);
  }
  const expected = CCIP_CHAIN_SELECTORS[String(CHAINS[chain as ChainName]?.chainId)];
  if (expected !== undefined && g.chainSelector !== `${expected}n`) {
    throw new DeploymentConfigError(`${file}: $global.chainSelector must be CCIP's selector of ${chain}, ${expected}n`);
  }
  if (role === "primary") {
    const verifiers = g.verifiers;
    if (!Array.isArray(verifiers) || verifiers.length === 0) {
      throw new DeploymentConfigError(`${file}: $global.verifiers must list the verifier keys`);
    }
    verifiers.forEach((v, i) => checkAddress(file, `verifiers[${i}]`, v));
    if (Number(g.verifierThreshold) < 1 || Number(g.verifierThreshold) > verifiers.length) {
      throw new DeploymentConfigError(`${file}: $global.verifierThreshold must be 1..${verifiers.length}`);
    }
  } else if (g.governanceSupply !== undefined) {
    throw new DeploymentConfigError(
      `${file}: a satellite has no governanceSupply (its governance token is minted by the bridge only)`,
    );
  }
  return g;
}

/** `$global` values as Ignition reads a parameter file: `"123n"` strings become bigints. */
export function parameterValues(g: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(g), (_, value) =>
    typeof value === "string" && /^\d+n$/.test(value) ? BigInt(value.slice(0, -1)) : value,
  ) as Record<string, unknown>;
}

function checkAddress(file: string, field: string, value: unknown): void {
  if (typeof value !== "string") throw new DeploymentConfigError(`${file}: $global.${field} is missing`);
  let address: string;
  try {
    address = getAddress(value);
  } catch {
    throw new DeploymentConfigError(`${file}: $global.${field} is not an address: ${value}`);
  }
  if (address === ZERO) {
    throw new DeploymentConfigError(
      `${file}: $global.${field} is still the zero placeholder; fill it in with an overrides file ` +
        `(--overrides, deploy/parameters/README.md)`,
    );
  }
}

/** Contract name of an Ignition future id, or undefined for futures that are not a contract to list. */
export function contractNameOf(futureId: string): string | undefined {
  const name = futureId.split("#")[1];
  if (name === undefined || name.endsWith("Proxy")) return undefined; // the proxy is listed under its contract's name
  if (name === "MockStablecoin") return "CollateralToken";
  // one name on every chain for the governance token (the bridged representation on satellites)
  return name === "BridgedGovernanceToken" ? "GovernanceToken" : name;
}

/**
 * Gathers the addresses Ignition wrote for each chain (`ignition/deployments/<id>/deployed_addresses.json`)
 * into one record: chain -> contract -> address. Proxies are listed under their contract's name,
 * implementations as `<Contract>Implementation`.
 */
export async function gatherDeployment(
  chains: ReadonlyArray<{ chain: string; deploymentId: string }>,
  ignitionDir = path.join("ignition", "deployments"),
): Promise<Record<string, Record<string, string>>> {
  const out: Record<string, Record<string, string>> = {};
  for (const { chain, deploymentId } of chains) {
    const file = path.join(ignitionDir, deploymentId, "deployed_addresses.json");
    const addresses = JSON.parse(await readFile(file, "utf8")) as Record<string, string>;
    const contracts: Record<string, string> = {};
    for (const [futureId, address] of Object.entries(addresses)) {
      const name = contractNameOf(futureId);
      if (name !== undefined) contracts[name] = address;
    }
    out[chain] = Object.fromEntries(Object.entries(contracts).sort(([a], [b]) => a.localeCompare(b)));
  }
  return out;
}

/**
 * Writes `deployments/<environment>.json` in the SDK's format (`sdk/deployments.ts`): per chain
 * its contracts by name, and, when `networks` names the chain, `chainId` and `rpcUrl` beside them.
 */
export async function writeDeploymentFile(
  environment: string,
  record: DeploymentRecord,
  dir = "deployments",
  networks: Record<string, ChainNetwork> = {},
): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${environment}.json`);
  await writeFile(file, formatDeploymentFile(record, networks));
  return file;
}

/** Reads a deployments file (the SDK's format, `sdk/deployments.ts`). */
export async function readDeploymentFile(file: string): Promise<DeployedChain[]> {
  return parseDeploymentFile(await readFile(file, "utf8"));
}
