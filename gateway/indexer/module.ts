import type { Interface, JsonRpcProvider } from "ethers";

import type { Tx } from "../store/db.js";

/** A decoded event as stored in `events`: integers are decimal strings, structs plain objects. */
export interface StoredEvent {
  chainId: number;
  blockNumber: number;
  logIndex: number;
  blockHash: string;
  txHash: string;
  timestamp: number;
  contract: string;
  address: string;
  name: string;
  args: Record<string, unknown>;
}

/** What a module knows about the deployment it indexes. */
export interface ChainContext {
  chainId: number;
  chain: string;
  /** Whether this is the primary chain (the one with the registry and the redemption manager). */
  primary: boolean;
  contracts: Record<string, string>;
}

/**
 * How one contract's events reach the store: its ABI (a TypeChain interface), optionally extra
 * facts fetched once when the event is first seen (kept in the stored args, so a replay needs no
 * RPC), and the projection of each event into the resource tables. `apply` must be a pure fold
 * of the stored events: a replay from an empty projection rebuilds the same rows.
 */
export interface ContractModule {
  /** The contract's name in `deployments/<environment>.json`. */
  contract: string;
  iface: Interface;
  enrich?(event: StoredEvent, rpc: JsonRpcProvider, context: ChainContext): Promise<Record<string, unknown>>;
  apply?(tx: Tx, event: StoredEvent, context: ChainContext): Promise<void>;
}

/** Turns ethers' decoded values into JSON: bigint -> decimal string, Result -> object or array. */
export function plain(value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) {
    const result = value as unknown[] & { toObject?: (deep?: boolean) => Record<string, unknown> };
    if (typeof result.toObject === "function") {
      let object: Record<string, unknown> | undefined;
      try {
        object = result.toObject(false);
      } catch {
        object = undefined; // unnamed members: keep it an array
      }
      const keys = object === undefined ? [] : Object.keys(object);
      if (object !== undefined && keys.length === value.length && keys.every((k) => !/^\d+$/.test(k))) {
        return Object.fromEntries(keys.map((k) => [k, plain(object[k])]));
      }
    }
    return value.map(plain);
  }
  return value;
}

/** A stored integer argument as a bigint. */
export function big(args: Record<string, unknown>, key: string): bigint {
  return BigInt(args[key] as string);
}

/** A stored integer argument as a number (only for values known to be small). */
export function num(args: Record<string, unknown>, key: string): number {
  return Number(args[key] as string);
}

/** A stored address argument. */
export function addr(args: Record<string, unknown>, key: string): string {
  return args[key] as string;
}
