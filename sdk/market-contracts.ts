import type { TransactionReceipt } from "ethers";

import { futuresMarketAbi } from "./abis/futuresMarket.js";
import { optionsMarketAbi } from "./abis/optionsMarket.js";
import { spotMarketAbi } from "./abis/spotMarket.js";
import { addressOf } from "./client.js";
import type { ProtocolClient } from "./client.js";
import { parseEventLogs, readContract } from "./contract-calls.js";
import { BaseError, InvalidParameterError } from "./errors.js";
import { marketTypeOf } from "./markets.js";

/**
 * The three markets by the API's `market_type` (`spot`, `futures`, `options`): each one's contract
 * name in a deployments file and its ABI. Listing ids carry their market (`3 * sequence +
 * marketType`), so an action given a listing id finds the contract to call by itself.
 */
export const MARKET_CONTRACTS: {
  readonly spot: { readonly name: "SpotMarket"; readonly abi: typeof spotMarketAbi };
  readonly futures: { readonly name: "FuturesMarket"; readonly abi: typeof futuresMarketAbi };
  readonly options: { readonly name: "OptionsMarket"; readonly abi: typeof optionsMarketAbi };
} = {
  spot: { name: "SpotMarket", abi: spotMarketAbi },
  futures: { name: "FuturesMarket", abi: futuresMarketAbi },
  options: { name: "OptionsMarket", abi: optionsMarketAbi },
};

/** A market by its API name. */
export type MarketName = keyof typeof MARKET_CONTRACTS;

/** The market of a listing id; refuses an id that is not positive. */
export function marketOfListing(listingId: bigint): MarketName {
  if (listingId <= 0n) throw new InvalidParameterError("listingId", "must be positive");
  return marketTypeOf(listingId) as MarketName;
}

/** The deployment's market `market` and the two tokens it trades (read from the market itself). */
export async function marketTokens(
  client: ProtocolClient,
  market: MarketName,
): Promise<{ address: string; sstb: string; paymentToken: string }> {
  const { name, abi } = MARKET_CONTRACTS[market];
  const address = addressOf(client, name);
  const [sstb, paymentToken] = await Promise.all([
    readContract(client, { abi, address, functionName: "sstb", args: [] }),
    readContract(client, { abi, address, functionName: "paymentToken", args: [] }),
  ]);
  return { address, sstb, paymentToken };
}

/** The id of the position a market write created, from its `ListingCreated` or `OrderCreated` event. */
export function createdListingId(
  market: MarketName,
  address: string,
  receipt: TransactionReceipt,
  hash: string,
): bigint {
  const { abi } = MARKET_CONTRACTS[market];
  const [created] = [
    ...parseEventLogs(abi, receipt.logs, { address, eventName: "ListingCreated" }),
    ...parseEventLogs(abi, receipt.logs, { address, eventName: "OrderCreated" }),
  ];
  if (created === undefined) {
    throw new BaseError(`The ${market} market emitted no ListingCreated or OrderCreated event.`, {
      details: `transaction ${hash}`,
    });
  }
  return created.args.listingId;
}

/** Refuses terms a market would refuse (`_checkTerms`), before anything is sent. */
export function checkTerms(amount: bigint, price: bigint, priceName = "price"): void {
  if (amount <= 0n) throw new InvalidParameterError("amount", "must be positive");
  if (amount >= 2n ** 96n) throw new InvalidParameterError("amount", "must be below 2^96 base units");
  if (price <= 0n || price >= 2n ** 64n) throw new InvalidParameterError(priceName, "must be positive and below 2^64");
}
