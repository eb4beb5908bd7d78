import { addressOf } from "../client.js";
import type { ProtocolClient } from "../client.js";
import { readContract } from "../contract-calls.js";
import type { BaseError, ContractRevertedError, InvalidParameterError } from "../errors.js";
import { MARKET_CONTRACTS, marketOfListing } from "../market-contracts.js";
import type { MarketName } from "../market-contracts.js";
import { LISTING_STATUSES, POSITION_KINDS } from "../markets.js";

export interface GetListingParameters {
  /** A listing id of any of the three markets (its market is read from the id). */
  listingId: bigint;
}

/** A position in the shape of SPEC.md "Marketplace listing" (`IMarket.MarketListing`), with names for its enums. */
export interface GetListingReturnType {
  listingId: bigint;
  market: MarketName;
  /** The market's contract address. */
  address: string;
  kind: (typeof POSITION_KINDS)[number];
  status: (typeof LISTING_STATUSES)[number];
  /** The maker: who created the position, on either side. */
  seller: string;
  /** The futures taker or the option holder; the zero address otherwise. */
  counterparty: string;
  /** sSTB base units at creation. */
  amount: bigint;
  /** What is still open: fillable (spot), untaken (futures) or exercisable (options). */
  remaining: bigint;
  /** Payment units per whole sSTB (options: the premium). */
  pricePerToken: bigint;
  /** `cost(amount, pricePerToken)`, rounded up. */
  totalPrice: bigint;
  /** Options: payment units per whole sSTB at exercise; 0 otherwise. */
  strikePrice: bigint;
  listedAt: bigint;
  /** Unix seconds: the first second the position is no longer open (futures: settlement time; options: expiry). */
  expiration: bigint;
}

export type GetListingErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Reads a listing, order, future or option by id from its market (`listingOf`); an id the market
 * never issued throws a `ContractRevertedError` with `errorName` `MarketListingNotFound`.
 *
 * @example
 * const listing = await getListing(client, { listingId: 1n });
 * console.log(listing.status, listing.remaining, listing.pricePerToken);
 */
export async function getListing(
  client: ProtocolClient,
  { listingId }: GetListingParameters,
): Promise<GetListingReturnType> {
  const market = marketOfListing(listingId);
  const { name, abi } = MARKET_CONTRACTS[market];
  const address = addressOf(client, name);
  const listing = await readContract(client, { abi, address, functionName: "listingOf", args: [listingId] });
  return {
    listingId,
    market,
    address,
    kind: POSITION_KINDS[Number(listing.kind)] ?? "none",
    status: LISTING_STATUSES[Number(listing.status)] ?? "none",
    seller: listing.seller,
    counterparty: listing.counterparty,
    amount: listing.amount,
    remaining: listing.remaining,
    pricePerToken: listing.pricePerToken,
    totalPrice: listing.totalPrice,
    strikePrice: listing.strikePrice,
    listedAt: listing.listedAt,
    expiration: listing.expiration,
  };
}
