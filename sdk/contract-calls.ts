import { Contract, Interface } from "ethers";
import type { InterfaceAbi, Log } from "ethers";

import type {
  Abi,
  EventArgs,
  EventName,
  FunctionArgs,
  FunctionName,
  FunctionResult,
  TypedContract,
} from "./abi-types.js";
import { addressOf } from "./client.js";
import type { ProtocolClient } from "./client.js";
import { getContractError } from "./revert-decoding.js";

/**
 * Calls and events over the generated ABIs (`sdk/abis/`), typed by `abi-types.ts`: what every
 * action builds its transactions with and reads its results and events by. Each ABI's ethers
 * `Interface` is made once, when first used (nothing runs at import: a bundle keeps only the ABIs
 * its actions name).
 */

const interfaces = new WeakMap<Abi, Interface>();

/** The ethers `Interface` of a generated ABI (made once per ABI). */
export function interfaceOf(abi: Abi): Interface {
  let iface = interfaces.get(abi);
  if (iface === undefined) {
    iface = new Interface(abi as InterfaceAbi);
    interfaces.set(abi, iface);
  }
  return iface;
}

/**
 * The calldata of `functionName(...args)`, its arguments checked against the ABI by `tsc`.
 *
 * @example
 * const data = encodeFunctionCall(redemptionManagerAbi, "confirmRedemption", [redemptionId]);
 */
export function encodeFunctionCall<const A extends Abi, N extends FunctionName<A>>(
  abi: A,
  functionName: N,
  args: FunctionArgs<A, N>,
): string {
  return interfaceOf(abi).encodeFunctionData(functionName, args as unknown as readonly unknown[]);
}

/** Decodes what `functionName` returned: nothing, its one output, or its outputs in order and by name. */
export function decodeFunctionResult<const A extends Abi, N extends FunctionName<A>>(
  abi: A,
  functionName: N,
  data: string,
): FunctionResult<A, N> {
  const result = interfaceOf(abi).decodeFunctionResult(functionName, data);
  return (result.length === 1 ? result[0] : result.length === 0 ? undefined : result) as FunctionResult<A, N>;
}

/** One decoded event of a receipt. */
export interface DecodedEvent<A extends Abi, N extends EventName<A>> {
  eventName: N;
  args: EventArgs<A, N>;
  log: Log;
}

/**
 * The events named `eventName` among `logs` that `address` emitted, decoded with `abi` (logs of
 * other contracts, and of other events, are skipped).
 *
 * @example
 * const [initiated] = parseEventLogs(redemptionManagerAbi, receipt.logs, { address, eventName: "RedemptionInitiated" });
 */
export function parseEventLogs<const A extends Abi, N extends EventName<A>>(
  abi: A,
  logs: readonly Log[],
  { address, eventName }: { address: string; eventName: N },
): DecodedEvent<A, N>[] {
  const iface = interfaceOf(abi);
  const topic = iface.getEvent(eventName)!.topicHash;
  const from = address.toLowerCase();
  const events: DecodedEvent<A, N>[] = [];
  for (const log of logs) {
    if (log.address.toLowerCase() !== from || log.topics[0] !== topic) continue;
    const parsed = iface.parseLog(log);
    if (parsed !== null) events.push({ eventName, args: parsed.args as unknown as EventArgs<A, N>, log });
  }
  return events;
}

/** What {@link readContract} reads. */
export interface ReadContractParameters<A extends Abi, N extends FunctionName<A>> {
  abi: A;
  address: string;
  functionName: N;
  args: FunctionArgs<A, N>;
}

/**
 * Calls a function of a contract without sending a transaction (a view, or a write simulated) and
 * decodes its result; a revert throws a `ContractRevertedError` naming the function.
 *
 * @example
 * const leaseId = await readContract(client, {
 *   abi: redemptionViewsAbi, address, functionName: "leaseIdOf", args: [redemptionId],
 * });
 */
export async function readContract<const A extends Abi, N extends FunctionName<A>>(
  client: Pick<ProtocolClient, "runner">,
  { abi, address, functionName, args }: ReadContractParameters<A, N>,
): Promise<FunctionResult<A, N>> {
  const runner = client.runner;
  const call = runner.call?.bind(runner) ?? runner.provider?.call.bind(runner.provider);
  if (call === undefined) throw getContractError(new Error("the runner cannot call"), { functionName });
  try {
    const data = await call({ to: address, data: encodeFunctionCall(abi, functionName, args) });
    return decodeFunctionResult(abi, functionName, data);
  } catch (error) {
    throw getContractError(error, { functionName });
  }
}

/**
 * An ethers `Contract` at `address` typed from `abi` (its methods, their arguments and results),
 * connected to the client's runner.
 *
 * @example
 * const market = contractAt(client, spotMarketAbi, address);
 * const listing = await market.listingOf(1n);
 */
export function contractAt<const A extends Abi>(
  client: Pick<ProtocolClient, "runner">,
  abi: A,
  address: string,
): TypedContract<A> {
  return new Contract(address, interfaceOf(abi), client.runner) as unknown as TypedContract<A>;
}

/**
 * The deployment's contract `name` typed from `abi`, connected to the client's runner: an action's
 * way to a contract, which bundles only the one ABI it names (`getContract` holds them all).
 *
 * @example
 * const manager = deployedContract(client, "RedemptionManager", redemptionManagerAbi);
 */
export function deployedContract<const A extends Abi>(client: ProtocolClient, name: string, abi: A): TypedContract<A> {
  return contractAt(client, abi, addressOf(client, name));
}

/**
 * A contract's views as functions: `reader.quoteFee(amount)` is `readContract` of `quoteFee`, each
 * typed from the ABI. Lighter than an ethers `Contract` (no contract runtime in a bundle), for the
 * actions' reads.
 */
export type ContractReader<A extends Abi> = {
  readonly [N in FunctionName<A, "view" | "pure">]: (...args: FunctionArgs<A, N>) => Promise<FunctionResult<A, N>>;
} & {
  /** The contract's address. */
  getAddress(): Promise<string>;
};

/**
 * The views of the contract at `address`, read through the client's runner.
 *
 * @example
 * const views = contractReader(client, redemptionViewsAbi, addressOf(client, "RedemptionViews"));
 * const [fee, total] = await views.quoteFee(amount);
 */
export function contractReader<const A extends Abi>(
  client: Pick<ProtocolClient, "runner">,
  abi: A,
  address: string,
): ContractReader<A> {
  return new Proxy({} as ContractReader<A>, {
    get(_, property) {
      if (property === "getAddress") return async () => address;
      // not a thenable, nor anything but a function name
      if (typeof property !== "string" || property === "then") return undefined;
      return (...args: unknown[]) =>
        readContract(client, { abi, address, functionName: property as never, args: args as never });
    },
  });
}

/**
 * The views of the deployment's contract `name`, typed from `abi` (see {@link contractReader}).
 *
 * @example
 * const registry = deployedReader(client, "ProviderRegistry", providerRegistryAbi);
 */
export function deployedReader<const A extends Abi>(client: ProtocolClient, name: string, abi: A): ContractReader<A> {
  return contractReader(client, abi, addressOf(client, name));
}
