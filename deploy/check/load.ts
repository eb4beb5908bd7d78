import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";

import { getAddress } from "ethers";
import type { Provider } from "ethers";

import { contractNameOf } from "../environments.js";

/** A contract of a deployment record, with the artifacts it is checked against. */
export interface DeployedContract {
  /** Its name in the deployments file (`SSTB`, `SSTBImplementation`, …). */
  name: string;
  address: string;
  /** Fully qualified name of the code deployed at the address (`ERC1967Proxy` for a proxy). */
  code: string;
  /** Fully qualified name of the contract it is used as (the implementation's, for a proxy). */
  abi: string;
}

/** A chain of a deployment as the check reads it. */
export interface ChainUnderCheck {
  chain: string;
  role: "primary" | "satellite";
  chainId: bigint;
  provider: Provider;
  contracts: DeployedContract[];
  /** The accounts that sent the deployment's transactions (the journal's `from`): they must keep nothing. */
  deployers: string[];
  /** The deployment's first block: role events are read from there. */
  fromBlock: number;
  /** What the chain should be set to: the parameter file's `$global` (placeholders filled), bigints as bigints. */
  parameters: Record<string, unknown>;
  /** Where `parameters` come from, for the report (`deploy/parameters/arbitrum.json`). */
  parameterSource: string;
  /** Accounts that are neither contracts of the record nor parameters but may be pointed at (the devnet's relayer). */
  knownAccounts?: Record<string, string>;
  /** Where the deployments file and the Ignition journal disagree (each a sentence). */
  recordProblems: string[];
}

/** What an Ignition deployment folder (`ignition/deployments/<id>/`) says about a deployment. */
export interface IgnitionRecord {
  /** Future id -> address (`deployed_addresses.json`). */
  addresses: Record<string, string>;
  /** Future id -> fully qualified artifact name (`artifacts/<future id>.json`). */
  artifacts: Record<string, string>;
  /** Futures that only name a contract at an address (`m.contractAt`): proxies seen through their implementation. */
  contractAt: Set<string>;
  /** Accounts that sent its transactions. */
  senders: string[];
  /** The block of its first transaction. */
  firstBlock: number;
}

/** Reads an Ignition deployment folder: addresses, the artifact of every future, the senders and the first block. */
export async function readIgnitionRecord(ignitionDir: string, deploymentId: string): Promise<IgnitionRecord> {
  const dir = path.join(ignitionDir, deploymentId);
  const addressesFile = path.join(dir, "deployed_addresses.json");
  if (!existsSync(addressesFile)) {
    throw new Error(
      `no Ignition journal at ${dir}: the check reads the deployment's journal (its deployer, its artifacts)`,
    );
  }
  const addresses = JSON.parse(await readFile(addressesFile, "utf8")) as Record<string, string>;
  const artifacts: Record<string, string> = {};
  for (const futureId of Object.keys(addresses)) {
    const artifact = JSON.parse(await readFile(path.join(dir, "artifacts", `${futureId}.json`), "utf8")) as {
      sourceName: string;
      contractName: string;
    };
    artifacts[futureId] = `${artifact.sourceName}:${artifact.contractName}`;
  }
  const contractAt = new Set<string>();
  const senders = new Set<string>();
  let firstBlock = Number.MAX_SAFE_INTEGER;
  for (const line of (await readFile(path.join(dir, "journal.jsonl"), "utf8")).split("\n")) {
    if (line.trim() === "") continue;
    const entry = JSON.parse(line) as {
      type: string;
      futureId?: string;
      from?: string;
      receipt?: { blockNumber?: number };
    };
    if (entry.type === "CONTRACT_AT_EXECUTION_STATE_INITIALIZE") contractAt.add(entry.futureId!);
    if (typeof entry.from === "string") senders.add(getAddress(entry.from));
    if (entry.type === "TRANSACTION_CONFIRM" && typeof entry.receipt?.blockNumber === "number") {
      firstBlock = Math.min(firstBlock, entry.receipt.blockNumber);
    }
  }
  return {
    addresses,
    artifacts,
    contractAt,
    senders: [...senders],
    firstBlock: firstBlock === Number.MAX_SAFE_INTEGER ? 0 : firstBlock,
  };
}

/**
 * The contracts of a chain's deployments-file entry, each with the artifact of its code and of its
 * interface from the Ignition record, and every disagreement between the two records.
 */
export function contractsOf(
  record: Record<string, string>,
  ignition: IgnitionRecord,
): { contracts: DeployedContract[]; problems: string[] } {
  const byName = new Map<string, { futureId: string; address: string }>();
  for (const [futureId, address] of Object.entries(ignition.addresses)) {
    const name = contractNameOf(futureId);
    if (name !== undefined) byName.set(name, { futureId, address: getAddress(address) });
  }
  // the code at an address is what a deployment future put there (a proxy for an `m.contractAt`)
  const codeAt = new Map<string, string>();
  for (const [futureId, address] of Object.entries(ignition.addresses)) {
    if (!ignition.contractAt.has(futureId)) codeAt.set(getAddress(address), ignition.artifacts[futureId]);
  }
  const contracts: DeployedContract[] = [];
  const problems: string[] = [];
  for (const [name, address] of Object.entries(record)) {
    const journal = byName.get(name);
    if (journal === undefined) {
      problems.push(`${name} ${address} is in the deployments file but not in the Ignition journal`);
      continue;
    }
    if (journal.address !== getAddress(address)) {
      problems.push(`${name}: the deployments file says ${address}, the Ignition journal ${journal.address}`);
      continue;
    }
    const code = codeAt.get(journal.address);
    if (code === undefined) {
      problems.push(`${name}: the Ignition journal records no deployment at ${journal.address}`);
      continue;
    }
    contracts.push({ name, address: journal.address, code, abi: ignition.artifacts[journal.futureId] });
  }
  for (const name of byName.keys()) {
    if (!(name in record)) problems.push(`${name} is in the Ignition journal but not in the deployments file`);
  }
  return { contracts, problems };
}
