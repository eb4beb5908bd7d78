/**
 * Chainlink CCIP facts the deployment, the devnet and the relayer share (BRIDGE.md): chain
 * selectors by chain id (the devnet plays 42161 / 1 / 137, so it uses the production selectors),
 * the production and testnet routers, and the enums of `IBridge`.
 */

/** CCIP chain selectors, by EVM chain id. */
export const CCIP_CHAIN_SELECTORS: Readonly<Record<string, bigint>> = {
  "42161": 4949039107694359620n, // Arbitrum One
  "1": 5009297550715157269n, // Ethereum
  "137": 4051577828743386545n, // Polygon PoS
  "421614": 3478487238524512106n, // Arbitrum Sepolia
  "11155111": 16015286601757825753n, // Sepolia
  "80002": 16281711391670634445n, // Polygon Amoy
};

/** Chainlink's CCIP routers, by Hardhat network name (from Chainlink's CCIP directory). */
export const CCIP_ROUTERS: Readonly<Record<string, string>> = {
  arbitrum: "0x141fa059441E0ca23ce184B6A78bafD2A517DdE8",
  ethereum: "0x80226fc0Ee2b096224EeAc085Bb9a8cba1146f7D",
  polygon: "0x849c5ED5a80F5B408Dd4969b78c2C8fdf0565Bfe",
  arbitrumSepolia: "0x2a9C5afB0d0e4BAb2BCdaE109EC4b0c4Be15a165",
  sepolia: "0x0BF3dE8c5D3e8A2B34D2BEeB17ABfCeBaf363A59",
  polygonAmoy: "0x9C32fCB86BF0f4a1A8921a9Fe46de3198bb884B2",
};

/** The CCIP chain selector of a chain id; throws for a chain the protocol does not run on. */
export function chainSelectorOf(chainId: bigint | number): bigint {
  const selector = CCIP_CHAIN_SELECTORS[String(chainId)];
  if (selector === undefined) throw new Error(`no CCIP chain selector for chain id ${chainId}`);
  return selector;
}

/** `IBridge.Token`. */
export const BridgeToken = { SSTB: 0, Governance: 1 } as const;
/** `IBridge.FeeOption`, named as the spec's fee options. */
export const FeeOption = { default: 0, service: 1, stb_gov: 2 } as const;
export type FeeOptionName = keyof typeof FeeOption;
/** `IBridge.FeeOption`, by index, as the API names the fee options. */
export const FEE_OPTION_NAMES = ["default", "service", "stb_gov"] as const satisfies readonly FeeOptionName[];
/** `IBridge.MessageStatus`, by index (`failed`: a governance message consumed without effect). */
export const MESSAGE_STATUSES = ["none", "sent", "queued", "completed", "failed"] as const;
/** `DevnetCCIPRouter.ExecutionState`, by index. */
export const EXECUTION_STATES = ["untouched", "in-progress", "success", "failure"] as const;

/** A token bucket's configuration (`TokenBucket.Config`). */
export interface RateLimit {
  enabled: boolean;
  capacity: bigint;
  rate: bigint;
}

/** An unlimited (disabled) bucket. */
export const NO_LIMIT: RateLimit = { enabled: false, capacity: 0n, rate: 0n };

/** A bridge paused by governance rather than by the guardian: until governance lifts it (`type(uint40).max`). */
export const PAUSED_INDEFINITELY = (1n << 40n) - 1n;

/** What a queued delivery waits for, as its destination's bridge and queue show it (`estimateQueuedDelivery`). */
export interface QueuedDeliveryState {
  /** What the message still has to deliver (`queuedDeliveryOf`: less than it carried once an installment went). */
  remaining: bigint;
  /**
   * What each delivery queued before it (from the same chain, in the same token) still has to deliver, first
   * first; 0 for one that has gone since its queue was read.
   */
  waitingBefore: readonly bigint[];
  /** Whether it heads its queue (the only message `executeQueued` takes now). */
  atHead: boolean;
  /** The route's inbound limit of the token (`rateLimitOf(source, token, false)`) and what it lets in now. */
  limit: RateLimit;
  available: bigint;
  /** The bridge's `pausedUntil` (Unix seconds; 0 or a past time when it is not paused; `PAUSED_INDEFINITELY`). */
  pausedUntil: bigint;
  /** The destination chain's clock (the block the rest was read at). */
  now: bigint;
}

/** When a queued delivery can be completed, from `QueuedDeliveryState`. */
export interface QueuedDeliveryEstimate {
  /** Whether `executeQueued` would deliver something of it now. */
  executableNow: boolean;
  /** What the next `executeQueued` delivers of it (the whole rest, or one bucket's capacity). */
  nextInstallment: bigint;
  /**
   * The earliest chain time at which all of it can have been delivered, if every delivery (its own and
   * those before it) is completed as soon as the limit allows; null while governance's pause lasts, or
   * when the limit never refills (an enabled bucket with no rate).
   */
  completesAt: bigint | null;
}

/**
 * When a queued delivery completes (`Bridge.executeQueued`). The queue drains first-in first-out through
 * the route's inbound bucket (`TokenBucket`): each call takes min(what the head still has to deliver, the
 * capacity) and needs that much in the bucket, which refills `rate` every whole second up to its capacity,
 * during a pause too. The estimate follows those installments one by one, the deliveries before it then its
 * own, each taken the first second the bucket holds it: so it is the earliest the contract allows, counting
 * the refill the cap wastes while a full-capacity installment waits. A message of a peer governance forgot,
 * waiting before it, is refused without taking from the bucket: counted here, it makes the estimate late,
 * never early.
 */
export function estimateQueuedDelivery(state: QueuedDeliveryState): QueuedDeliveryEstimate {
  const { remaining, waitingBefore, atHead, limit, available, pausedUntil, now } = state;
  const nextInstallment = limit.enabled && limit.capacity < remaining ? limit.capacity : remaining;
  const paused = pausedUntil > now;
  const executableNow = atHead && !paused && (!limit.enabled || available >= nextInstallment);
  const estimate = (completesAt: bigint | null) => ({ executableNow, nextInstallment, completesAt });
  if (paused && pausedUntil >= PAUSED_INDEFINITELY) return estimate(null);
  const start = paused ? pausedUntil : now;
  if (!limit.enabled) return estimate(start);
  const { capacity, rate } = limit;
  const fill = (level: bigint, seconds: bigint) => {
    const refilled = level + rate * seconds;
    return refilled < capacity ? refilled : capacity;
  };
  // what the bucket holds at `start`, and the clock as the installments are taken
  let level = fill(available, start - now);
  let clock = start;
  for (const rest of [...waitingBefore, remaining]) {
    const full = rest / capacity;
    const last = rest % capacity;
    if (full > 0n) {
      if (rate === 0n && (level < capacity || full > 1n)) return estimate(null);
      // the first full installment waits for a full bucket; it leaves it empty, and so does each after it
      const wait = level >= capacity ? 0n : (capacity - level + rate - 1n) / rate;
      clock += wait + (full - 1n) * (rate === 0n ? 0n : (capacity + rate - 1n) / rate);
      level = 0n;
    }
    if (last > 0n) {
      if (level < last) {
        if (rate === 0n) return estimate(null);
        const wait = (last - level + rate - 1n) / rate;
        clock += wait;
        level = fill(level, wait);
      }
      level -= last;
    }
  }
  return estimate(clock);
}

/** Per-token limits a route applies in both directions, indexed like `BridgeToken`. */
export interface RouteLimits {
  sstb: RateLimit;
  governance: RateLimit;
}

/** `IBridge.RouteConfig`. */
export interface RouteConfig {
  chainSelector: bigint;
  peer: string;
  gasLimit: bigint;
  outbound: [RateLimit, RateLimit];
  inbound: [RateLimit, RateLimit];
}

/** Gas a transfer's delivery gets on the destination (a new holder's mint takes about 100,000). */
export const DEFAULT_DELIVERY_GAS_LIMIT = 200_000n;

/** A route to `peer` on `chainSelector`: `limits` out, and `inbound` in (the same by default). */
export function routeTo(
  chainSelector: bigint,
  peer: string,
  limits: RouteLimits,
  gasLimit = DEFAULT_DELIVERY_GAS_LIMIT,
  inbound: RouteLimits = limits,
): RouteConfig {
  return {
    chainSelector,
    peer,
    gasLimit,
    outbound: [limits.sstb, limits.governance],
    inbound: [inbound.sstb, inbound.governance],
  };
}
