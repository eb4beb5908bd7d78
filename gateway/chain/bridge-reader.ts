import { Contract, JsonRpcProvider, formatUnits } from "ethers";

import { BridgeToken, MESSAGE_STATUSES, chainSelectorOf, contractAt } from "@compute-capacity/sdk";
import type { DeployedChain, QueuedDeliveryState, RateLimit } from "@compute-capacity/sdk";
import { bridgeAbi } from "@compute-capacity/sdk/abis";

import { readProvider } from "./rpc.js";

/** How many transfers queued before one are read live from its destination; the index stands for the rest. */
const MAX_LIVE_BEFORE = 32;

/** Each chain's native gas token, for the CCIP transport fee. */
const NATIVE_SYMBOL: Record<string, string> = {
  arbitrum: "ETH",
  arbitrumSepolia: "ETH",
  ethereum: "ETH",
  sepolia: "ETH",
  polygon: "POL",
  polygonAmoy: "POL",
};

/**
 * One fee option of a quote (SPEC.md "Bridge fee quote"): whole tokens as a JSON number, and exactly
 * in the token's base units as a decimal string.
 */
export interface FeeAmount {
  token: string;
  amount: number;
  amount_base_units: string;
  discount?: string;
}

/** `baseUnits` of a token with `decimals` in both of the API's forms. */
const fee = (token: string, baseUnits: bigint, decimals: number) => ({
  token,
  amount: Number(formatUnits(baseUnits, decimals)),
  amount_base_units: baseUnits.toString(),
});

/** `GET /bridge/fees`: the spec's three options, plus the transport fee every option pays on top. */
export interface BridgeFeeQuote {
  source_chain: string;
  destination_chain: string;
  token: string;
  amount: number;
  amount_base_units: string;
  fees: { default: FeeAmount; service: FeeAmount; stb_gov: FeeAmount };
  transport_fee: FeeAmount;
}

/** A quote that cannot be given for what was asked (unknown chain, no bridge); the message says why. */
export class QuoteInputError extends Error {
  constructor(
    readonly parameter: string,
    reason: string,
  ) {
    super(reason);
  }
}

const ERC20_METADATA = ["function symbol() view returns (string)", "function decimals() view returns (uint8)"];

/**
 * What the gateway reads live from the bridges rather than from its index: fee quotes from the source
 * chain's bridge (`quoteFee`: fees depend on governed parameters and CCIP's current transport price),
 * and the state of a queued delivery on its destination (the bucket refills by the second). The
 * stablecoin's symbol and decimals are read once per chain.
 */
export class BridgeReader {
  private readonly providers = new Map<string, JsonRpcProvider>();
  private readonly stablecoins = new Map<string, Promise<{ symbol: string; decimals: number }>>();

  constructor(
    private readonly chains: readonly DeployedChain[],
    private readonly options: { rpcTimeoutMs?: number } = {},
  ) {}

  async quote(source: string, destination: string, token: "sSTB" | "STBGOV", amount: bigint): Promise<BridgeFeeQuote> {
    const from = this.chains.find((c) => c.chain === source);
    const to = this.chains.find((c) => c.chain === destination);
    if (from === undefined) throw new QuoteInputError("source_chain", `is not a chain of this deployment`);
    if (to === undefined) throw new QuoteInputError("destination_chain", `is not a chain of this deployment`);
    if (from === to) throw new QuoteInputError("destination_chain", "must differ from source_chain");
    const bridgeAddress = from.contracts.Bridge;
    if (bridgeAddress === undefined || to.contracts.Bridge === undefined) {
      throw new QuoteInputError(
        from.contracts.Bridge === undefined ? "source_chain" : "destination_chain",
        "has no bridge",
      );
    }
    const tokenAddress = token === "sSTB" ? from.contracts.SSTB : from.contracts.GovernanceToken;
    if (tokenAddress === undefined) throw new QuoteInputError("token", `is not deployed on ${source}`);

    const rpc = this.provider(from);
    const bridge = contractAt({ runner: rpc }, bridgeAbi, bridgeAddress);
    const q = await bridge.quoteFee(chainSelectorOf(to.chainId!), tokenAddress, amount);
    const stablecoin = await this.stablecoin(from, q.stablecoin, rpc);
    const percent = (bps: bigint) => `${Number(bps) / 100}%`;
    return {
      source_chain: source,
      destination_chain: destination,
      token,
      amount: Number(formatUnits(amount, 18)),
      amount_base_units: amount.toString(),
      fees: {
        default: fee(stablecoin.symbol, q.defaultFee, stablecoin.decimals),
        service: { ...fee("sSTB", q.serviceFee, 18), discount: percent(q.serviceDiscountBps) },
        stb_gov: { ...fee("STBGOV", q.governanceFee, 18), discount: percent(q.governanceDiscountBps) },
      },
      transport_fee: fee(NATIVE_SYMBOL[source] ?? "native", q.transportFee, 18),
    };
  }

  /**
   * What a queued transfer waits for on its destination chain (`estimateQueuedDelivery` turns it into a
   * time), read at one block: what it and each transfer `before` it in its queue (from the index, first
   * first) still have to deliver, whether it heads the queue, the route's inbound limit of the token and
   * the pause. Null when the chain has delivered (or refused) it since the index saw it queued. The first
   * `MAX_LIVE_BEFORE` transfers before it are read live; the index's amounts stand for any further ones
   * (never less than what they still have to deliver: the estimate is late, never early).
   */
  async queue(
    destination: string,
    transfer: { messageId: string; sourceSelector: string; token: "sSTB" | "STBGOV" },
    before: readonly { messageId: string; amount: bigint }[],
  ): Promise<{ state: QueuedDeliveryState; position: number } | null> {
    const chain = this.chains.find((c) => c.chain === destination);
    if (chain?.contracts.Bridge === undefined) throw new Error(`no bridge on ${destination}`);
    const rpc = this.provider(chain);
    const block = await rpc.getBlock("latest");
    if (block === null) throw new Error(`no latest block on ${destination}`);
    // untyped, for the block tag every read takes
    const bridge = new Contract(chain.contracts.Bridge, bridgeAbi, rpc);
    const at = { blockTag: block.number };
    const token = transfer.token === "sSTB" ? BridgeToken.SSTB : BridgeToken.Governance;
    const source = BigInt(transfer.sourceSelector);
    const restOf = async (id: string) => ((await bridge.queuedDeliveryOf(id, at)) as { amount: bigint }).amount;
    const live = before.slice(0, MAX_LIVE_BEFORE);
    const [status, remaining, restsBefore, [head], [config, available], pausedUntil] = (await Promise.all([
      bridge.messageStatus(transfer.messageId, at),
      restOf(transfer.messageId),
      Promise.all(live.map((t) => restOf(t.messageId))),
      bridge.queueOf(source, token, at),
      bridge.rateLimitOf(source, token, false, at),
      bridge.pausedUntil(at),
    ])) as [bigint, bigint, bigint[], [string, bigint], [RateLimit, bigint], bigint];
    if (MESSAGE_STATUSES[Number(status)] !== "queued") return null;
    const waitingBefore = [...restsBefore, ...before.slice(MAX_LIVE_BEFORE).map((t) => t.amount)];
    return {
      state: {
        remaining,
        waitingBefore,
        atHead: head.toLowerCase() === transfer.messageId.toLowerCase(),
        limit: { enabled: config.enabled, capacity: config.capacity, rate: config.rate },
        available,
        pausedUntil,
        now: BigInt(block.timestamp),
      },
      position: waitingBefore.filter((rest) => rest > 0n).length,
    };
  }

  close(): void {
    for (const provider of this.providers.values()) provider.destroy();
  }

  private provider(chain: DeployedChain): JsonRpcProvider {
    let provider = this.providers.get(chain.chain);
    if (provider === undefined) {
      // no cache of identical calls (ethers keeps one 250 ms by default): a queue read right after a
      // delivery must not see the block before it
      if (chain.rpcUrl === undefined) throw new Error(`no RPC URL for ${chain.chain}`);
      provider = readProvider(chain.rpcUrl, chain.chainId!, {
        ...(this.options.rpcTimeoutMs === undefined ? {} : { timeoutMs: this.options.rpcTimeoutMs }),
      });
      this.providers.set(chain.chain, provider);
    }
    return provider;
  }

  private stablecoin(chain: DeployedChain, address: string, rpc: JsonRpcProvider) {
    const key = `${chain.chain}:${address.toLowerCase()}`;
    let metadata = this.stablecoins.get(key);
    if (metadata === undefined) {
      const erc20 = new Contract(address, ERC20_METADATA, rpc);
      metadata = Promise.all([erc20.symbol() as Promise<string>, erc20.decimals() as Promise<bigint>]).then(
        ([symbol, decimals]) => ({ symbol, decimals: Number(decimals) }),
      );
      metadata.catch(() => this.stablecoins.delete(key)); // a failed read is retried next time
      this.stablecoins.set(key, metadata);
    }
    return metadata;
  }
}
