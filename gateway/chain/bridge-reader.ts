import { Contract, JsonRpcProvider, formatUnits } from "ethers";

import { BridgeToken, chainSelectorOf, contractAt } from "@compute-capacity/sdk";
import type { DeployedChain, QueuedDeliveryState } from "@compute-capacity/sdk";
import { bridgeAbi } from "@compute-capacity/sdk/abis";

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

  constructor(private readonly chains: readonly DeployedChain[]) {}

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
   * time): what it and the transfers `before` it in its queue (from the index) still have to deliver, whether
   * it heads the queue, the route's inbound limit of the token, the pause and the chain's clock, the clock read
   * last.
   */
  async queue(
    destination: string,
    transfer: { messageId: string; sourceSelector: string; token: "sSTB" | "STBGOV" },
    before: readonly string[],
  ): Promise<QueuedDeliveryState> {
    const chain = this.chains.find((c) => c.chain === destination);
    if (chain?.contracts.Bridge === undefined) throw new Error(`no bridge on ${destination}`);
    const rpc = this.provider(chain);
    const bridge = contractAt({ runner: rpc }, bridgeAbi, chain.contracts.Bridge);
    const token = transfer.token === "sSTB" ? BridgeToken.SSTB : BridgeToken.Governance;
    const source = BigInt(transfer.sourceSelector);
    const remainingOf = async (id: string) => (await bridge.queuedDeliveryOf(id)).amount;
    const [remaining, waiting, queue, limit, pausedUntil] = await Promise.all([
      remainingOf(transfer.messageId),
      Promise.all(before.map(remainingOf)),
      bridge.queueOf(source, token),
      bridge.rateLimitOf(source, token, false),
      bridge.pausedUntil(),
    ]);
    // the clock read last: the bucket was read no later, so its refill since is not counted (late, never early)
    const block = await rpc.getBlock("latest");
    if (block === null) throw new Error(`no latest block on ${destination}`);
    const [config, available] = [limit.config, limit.available];
    // (queueOf's second output is named `length`, which its typed result cannot hold beside the tuple's own)
    const [head] = queue as unknown as readonly [string, bigint];
    return {
      remaining,
      waitingBefore: waiting.reduce((sum, amount) => sum + amount, 0n),
      atHead: head.toLowerCase() === transfer.messageId.toLowerCase(),
      limit: { enabled: config.enabled, capacity: config.capacity, rate: config.rate },
      available,
      pausedUntil,
      now: BigInt(block.timestamp),
    };
  }

  close(): void {
    for (const provider of this.providers.values()) provider.destroy();
  }

  private provider(chain: DeployedChain): JsonRpcProvider {
    let provider = this.providers.get(chain.chain);
    if (provider === undefined) {
      provider = new JsonRpcProvider(chain.rpcUrl, chain.chainId, { staticNetwork: true });
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
