import type { TransactionReceipt } from "ethers";

import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import type { BaseError, ContractRevertedError, InvalidParameterError } from "../errors.js";
import { MARKET_CONTRACTS, marketOfListing } from "../market-contracts.js";

export interface ExpireListingParameters {
  /** A position whose expiration has come (any market: read from the id). */
  listingId: bigint;
}

export type ExpireListingErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds the call that returns an expired position's escrow to its maker, which anyone may send:
 * `expire(listingId)` for a spot listing or order or an untaken futures offer, `reclaim(listingId)`
 * for an option (sold or not) past its expiry.
 *
 * @example
 * const transaction = prepareExpireListing(client, { listingId: 3n }); // an option: reclaim
 */
export function prepareExpireListing(
  client: ProtocolClient,
  { listingId }: ExpireListingParameters,
): PreparedTransaction {
  const market = marketOfListing(listingId);
  const to = addressOf(client, MARKET_CONTRACTS[market].name);
  const data =
    market === "options"
      ? encodeFunctionCall(MARKET_CONTRACTS.options.abi, "reclaim", [listingId])
      : encodeFunctionCall(MARKET_CONTRACTS[market].abi, "expire", [listingId]);
  return { to, data, value: 0n };
}

/**
 * Ends an expired position and returns the transaction's hash; one not yet expired is refused
 * (`MarketNotExpired`) before anything is sent.
 *
 * @example
 * const hash = await expireListing(client, { listingId: 1n });
 */
export async function expireListing(client: ProtocolClient, parameters: ExpireListingParameters): Promise<string> {
  return sendPrepared(client, prepareExpireListing(client, parameters), functionNameOf(parameters));
}

/** Ends an expired position and waits for the receipt. */
export async function expireListingSync(
  client: ProtocolClient,
  parameters: ExpireListingParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await expireListing(client, parameters);
  return { receipt: await waitForReceipt(client, hash, functionNameOf(parameters)) };
}

function functionNameOf({ listingId }: ExpireListingParameters): string {
  return marketOfListing(listingId) === "options" ? "reclaim" : "expire";
}
