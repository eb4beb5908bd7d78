import type { ContractRunner, Signer, TransactionReceipt } from "ethers";

import type { DeployedChain } from "./deployments.js";
import { BaseError, InvalidParameterError } from "./errors.js";
import { getContractError } from "./revert-decoding.js";

/** Contract name -> address, as a deployments file lists a chain's contracts (`SSTB`, `RedemptionManager`, ...). */
export type ProtocolAddresses = Readonly<Record<string, string>>;

/**
 * The handle every action takes: who runs the calls (a provider for reads, a signer for writes),
 * the chain, and the deployment's addresses. It holds no logic (STYLE-WEB.md "What to absorb" 2):
 * the gateway, the scripts and a browser build the same handle around their own runner.
 */
export interface ProtocolClient {
  runner: ContractRunner;
  chainId: bigint;
  addresses: ProtocolAddresses;
}

/** A transaction built but not sent: what a wallet, the gateway's sender or `sendPrepared` signs. */
export interface PreparedTransaction {
  to: string;
  data: string;
  value: bigint;
}

export interface CreateProtocolClientParameters {
  runner: ContractRunner;
  /** A chain of a deployments file (`parseDeploymentFile`), or its contracts by name. */
  deployment: DeployedChain | ProtocolAddresses;
  /** Default: the deployment's `chainId`, else the runner's network. */
  chainId?: bigint | number;
}

/**
 * A client for one chain of a deployment.
 *
 * @example
 * const [arbitrum] = parseDeploymentFile(text);
 * const client = await createProtocolClient({ runner: signer, deployment: arbitrum });
 */
export async function createProtocolClient(parameters: CreateProtocolClientParameters): Promise<ProtocolClient> {
  const { runner, deployment } = parameters;
  const isChain = typeof (deployment as DeployedChain).contracts === "object";
  const addresses = isChain ? (deployment as DeployedChain).contracts : (deployment as ProtocolAddresses);
  let chainId = parameters.chainId ?? (isChain ? (deployment as DeployedChain).chainId : undefined);
  if (chainId === undefined) {
    if (runner.provider === null)
      throw new InvalidParameterError("chainId", "no chain id given and the runner has no provider");
    chainId = (await runner.provider.getNetwork()).chainId;
  }
  return { runner, chainId: BigInt(chainId), addresses };
}

/** The address of a deployed contract by name; refuses a name the deployment does not list. */
export function addressOf(client: ProtocolClient, name: string): string {
  const address = client.addresses[name];
  if (address === undefined) throw new InvalidParameterError(`addresses.${name}`, `the deployment lists no ${name}`);
  return address;
}

/** The client's runner as a signer; refuses a runner that cannot send. */
export function signerOf(client: ProtocolClient): Signer {
  const runner = client.runner as Partial<Signer>;
  if (typeof runner.sendTransaction !== "function" || typeof runner.getAddress !== "function") {
    throw new InvalidParameterError("runner", "a signer is needed to send transactions");
  }
  return runner as Signer;
}

/**
 * Sends a prepared transaction with the client's signer and returns its hash. The signer's gas
 * estimate runs the call first, so a call the contract refuses throws a `ContractRevertedError`
 * (its reason string verbatim) before anything is sent.
 */
export async function sendPrepared(
  client: ProtocolClient,
  transaction: PreparedTransaction,
  functionName?: string,
): Promise<string> {
  const signer = signerOf(client);
  const { to, data, value } = transaction; // a prepared write may carry more (its approval, its fee)
  try {
    const response = await signer.sendTransaction({ to, data, value });
    return response.hash;
  } catch (error) {
    throw getContractError(error, { functionName });
  }
}

/** The first pause between two receipt queries, doubled up to {@link RECEIPT_POLL_MAX_MS}. */
const RECEIPT_POLL_FIRST_MS = 100;
/** The longest pause between two receipt queries (about a block on the primary chain). */
const RECEIPT_POLL_MAX_MS = 2_000;

/**
 * Waits for a sent transaction's receipt; throws a `BaseError` when it reverted when mined.
 *
 * It asks for the receipt itself until the node has it, rather than waiting for a block event as
 * ethers' `waitForTransaction` does: that one compares the receipt's block with a block number it
 * may have read before the transaction was mined, and then waits for a next block, which on an
 * automining node that nothing else writes to never comes (a provider agent alone on the devnet
 * hung there after its own fulfilment was mined).
 */
export async function waitForReceipt(
  client: ProtocolClient,
  hash: string,
  functionName?: string,
): Promise<TransactionReceipt> {
  const provider = client.runner.provider;
  if (provider === null) throw new InvalidParameterError("runner", "a runner with a provider is needed to wait");
  let receipt: TransactionReceipt | null;
  try {
    receipt = await provider.getTransactionReceipt(hash);
    for (let pause = RECEIPT_POLL_FIRST_MS; receipt === null; pause = Math.min(pause * 2, RECEIPT_POLL_MAX_MS)) {
      await new Promise((resolve) => setTimeout(resolve, pause));
      receipt = await provider.getTransactionReceipt(hash);
    }
  } catch (error) {
    throw getContractError(error, { functionName });
  }
  if (receipt.status !== 1) {
    throw new BaseError(
      `Transaction ${hash}${functionName === undefined ? "" : ` (${functionName})`} reverted when mined.`,
    );
  }
  return receipt;
}
