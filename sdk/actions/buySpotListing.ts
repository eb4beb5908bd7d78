import type { TransactionReceipt } from "ethers";

import { spotMarketAbi } from "../abis/spotMarket.js";
import { sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall, readContract } from "../contract-calls.js";
import { InvalidParameterError } from "../errors.js";
import type { BaseError, ContractRevertedError } from "../errors.js";
import { marketOfListing, marketTokens } from "../market-contracts.js";
import type { TokenApproval } from "../token-approval.js";

export interface BuySpotListingParameters {
  /** A spot sell listing's id. */
  listingId: bigint;
  /** sSTB base units to buy (at most what remains). */
  amount: bigint;
  /** The most the buyer pays per whole sSTB: the listing's price as the buyer saw it. */
  maxPrice: bigint;
}

export interface BuySpotListingReturnType extends PreparedTransaction {
  /** The payment the market takes from the buyer (`quoteFill`). */
  approval: TokenApproval;
  /** Of the payment, what goes to the treasury; the seller receives the rest. */
  fee: bigint;
}

export type BuySpotListingErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds `buy(listingId, amount, maxPrice)`: reads what the fill costs now (`quoteFill`: the
 * payment, rounded so that partial fills add up to the listing's total, and its fee), which the
 * buyer approves (`approval`).
 *
 * @example
 * const { approval, fee } = await prepareBuySpotListing(client, { listingId, amount, maxPrice: listing.pricePerToken });
 */
export async function prepareBuySpotListing(
  client: ProtocolClient,
  { listingId, amount, maxPrice }: BuySpotListingParameters,
): Promise<BuySpotListingReturnType> {
  if (marketOfListing(listingId) !== "spot") throw new InvalidParameterError("listingId", "is not a spot listing");
  if (amount <= 0n) throw new InvalidParameterError("amount", "must be positive");
  const { address, paymentToken } = await marketTokens(client, "spot");
  const [payment, fee] = await readContract(client, {
    abi: spotMarketAbi,
    address,
    functionName: "quoteFill",
    args: [listingId, amount],
  });
  const data = encodeFunctionCall(spotMarketAbi, "buy", [listingId, amount, maxPrice]);
  return { to: address, data, value: 0n, approval: { token: paymentToken, spender: address, amount: payment }, fee };
}

/**
 * Buys from a spot listing and returns the transaction's hash (the payment approved beforehand).
 * A listing priced above `maxPrice` is refused (`MarketPriceMismatch`) before anything is sent.
 *
 * @example
 * const hash = await buySpotListing(client, { listingId: 1n, amount: parseEther("1"), maxPrice: 2_000_000n });
 */
export async function buySpotListing(client: ProtocolClient, parameters: BuySpotListingParameters): Promise<string> {
  return sendPrepared(client, await prepareBuySpotListing(client, parameters), "buy");
}

/** Buys from a spot listing and waits for the receipt. */
export async function buySpotListingSync(
  client: ProtocolClient,
  parameters: BuySpotListingParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await buySpotListing(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "buy") };
}
