import { readFile } from "node:fs/promises";

import { getAddress } from "ethers";

import { DeploymentConfigError } from "./config-error.js";

/**
 * An overrides file: per chain of an environment, the values that fill the zero placeholders of
 * the committed parameter files (the treasury, approver, arbitrator and guardian multisigs, the
 * verifiers' keys), so that a deployment never needs the committed files edited:
 *
 *   { "arbitrum": { "treasury": "0x…", "approver": "0x…", "verifiers": ["0x…", "0x…", "0x…"] },
 *     "ethereum": { "treasury": "0x…", "guardian": "0x…" }, … }
 *
 * `npm run deploy -- --environment mainnet --overrides <file>` and `npm run check:deployment` read
 * it. Only placeholders may be filled: a value the committed file sets (a router, a limit, USDC's
 * address) changes through a reviewed commit, not on one deployer's machine.
 */
export type ParameterOverrides = Record<string, Record<string, unknown>>;

const ZERO = "0x0000000000000000000000000000000000000000";

/** Whether a committed value is a placeholder for the deployer to fill: the zero address or a list of them. */
export function isPlaceholder(value: unknown): boolean {
  if (typeof value === "string") return value.toLowerCase() === ZERO;
  return (
    Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string" && v.toLowerCase() === ZERO)
  );
}

/** Reads an overrides file, refusing one that is not an object of chains (of `chains`) to objects of fields. */
export async function readOverridesFile(file: string, chains: readonly string[]): Promise<ParameterOverrides> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new DeploymentConfigError(`overrides file ${file}: ${(error as Error).message}`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new DeploymentConfigError(`overrides file ${file}: must be an object of chains, each an object of fields`);
  }
  for (const [chain, fields] of Object.entries(json)) {
    if (!chains.includes(chain)) {
      throw new DeploymentConfigError(
        `overrides file ${file}: ${chain} is not a chain of the environment (${chains.join(", ")})`,
      );
    }
    if (typeof fields !== "object" || fields === null || Array.isArray(fields)) {
      throw new DeploymentConfigError(`overrides file ${file}: ${chain} must be an object of fields`);
    }
  }
  return json as ParameterOverrides;
}

/**
 * A parameter file's `$global` with a chain's overrides applied. Refuses, naming the chain and
 * field: a field the file does not have (a typo), a field the file sets (not a placeholder), and a
 * value that is not a non-zero address (or, for a list, distinct non-zero addresses).
 */
export function applyOverrides(
  chain: string,
  file: string,
  committed: Record<string, unknown>,
  overrides: Record<string, unknown>,
): Record<string, unknown> {
  const out = { ...committed };
  for (const [field, value] of Object.entries(overrides)) {
    const name = `overrides ${chain}.${field}`;
    if (!(field in committed)) {
      throw new DeploymentConfigError(`${name}: ${file} has no such parameter`);
    }
    if (!isPlaceholder(committed[field])) {
      throw new DeploymentConfigError(
        `${name}: ${file} sets it (${JSON.stringify(committed[field])}); an overrides file only fills zero ` +
          `placeholders, change the committed file instead`,
      );
    }
    if (Array.isArray(committed[field])) {
      if (!Array.isArray(value) || value.length === 0) {
        throw new DeploymentConfigError(`${name}: must be a non-empty list of addresses`);
      }
      const list = value.map((v, i) => nonZeroAddress(`${name}[${i}]`, v));
      if (new Set(list).size !== list.length) throw new DeploymentConfigError(`${name}: lists an address twice`);
      out[field] = list;
    } else {
      out[field] = nonZeroAddress(name, value);
    }
  }
  return out;
}

function nonZeroAddress(name: string, value: unknown): string {
  let address: string;
  try {
    address = getAddress(String(value));
  } catch {
    throw new DeploymentConfigError(`${name}: not an address: ${JSON.stringify(value)}`);
  }
  if (address === ZERO) throw new DeploymentConfigError(`${name}: is the zero address`);
  return address;
}
