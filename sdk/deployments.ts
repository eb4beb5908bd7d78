import { getAddress } from "ethers";

/**
 * The deployments file, `deployments/<environment>.json`: per chain name, the contracts by name
 * (proxies under their contract's name, implementations as `<Contract>Implementation`), and for
 * chains the writer knows how to reach, `chainId` (a number) and `rpcUrl` beside them (contract
 * names start with a capital letter, so the keys never collide):
 *
 *   { "arbitrum": { "chainId": 42161, "rpcUrl": "http://127.0.0.1:8545", "SSTB": "0x…", … }, … }
 *
 * The deployment writes it, the gateway, the devnet and the portal read it. This module owns the
 * format (no file access: Node callers read and write the text).
 */

/** Contract name -> address, per chain name: what a deployment produced. */
export type DeploymentRecord = Record<string, Record<string, string>>;

/** Where a chain of a deployment file is reached: its chain id, and a JSON-RPC URL on local chains. */
export interface ChainNetwork {
  chainId: bigint | number;
  /** Written for local chains only: a real chain's RPC URL often holds an API key, so it stays a
   * configuration variable (`<CHAIN>_RPC_URL`, as in hardhat.config.ts). */
  rpcUrl?: string;
}

/** A chain of a deployment file, split into its network and its contracts. */
export interface DeployedChain {
  chain: string;
  chainId?: number;
  rpcUrl?: string;
  /** Contract name -> checksummed address (implementations included, as `<Contract>Implementation`). */
  contracts: Record<string, string>;
}

/**
 * The text of a deployments file: `record`'s contracts per chain, with `chainId` and `rpcUrl` for
 * the chains `networks` names. Two-space JSON with a final newline, keys in the given order.
 */
export function formatDeploymentFile(record: DeploymentRecord, networks: Record<string, ChainNetwork> = {}): string {
  const out: Record<string, Record<string, string | number>> = {};
  for (const [chain, contracts] of Object.entries(record)) {
    const network = networks[chain];
    out[chain] = {
      ...(network === undefined ? {} : { chainId: Number(network.chainId) }),
      ...(network?.rpcUrl === undefined ? {} : { rpcUrl: network.rpcUrl }),
      ...contracts,
    };
  }
  return JSON.stringify(out, null, 2) + "\n";
}

/** Parses a deployments file's text (the format {@link formatDeploymentFile} writes). */
export function parseDeploymentFile(text: string): DeployedChain[] {
  const json = JSON.parse(text) as Record<string, Record<string, unknown>>;
  return Object.entries(json).map(([chain, entries]) => {
    const { chainId, rpcUrl, ...rest } = entries;
    const contracts: Record<string, string> = {};
    for (const [name, address] of Object.entries(rest)) {
      if (typeof address === "string") contracts[name] = getAddress(address);
    }
    return {
      chain,
      ...(typeof chainId === "number" ? { chainId } : {}),
      ...(typeof rpcUrl === "string" ? { rpcUrl } : {}),
      contracts,
    };
  });
}
