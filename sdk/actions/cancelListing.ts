import type { TransactionReceipt } from "ethers";

import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import type { BaseError, ContractRevertedError, InvalidParameterError } from "../errors.js";
import { MARKET_CONTRACTS, marketOfListing } from "../market-contracts.js";

export interface CancelListingParameters {
  /** The maker's listing, order, futures offer or unsold option (any market: read from the id). */
  listingId: bigint;
}

export type CancelListingErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds the maker's `cancel(listingId)` on the listing's market: an active position nobody
 * finished goes back to its maker with what is left in escrow. Works while a market is paused.
 *
 * @example
 * const transaction = prepareCancelListing(client, { listingId: 7n });
 */
export function prepareCancelListing(
  client: ProtocolClient,
  { listingId }: CancelListingParameters,
): PreparedTransaction {
  const { name, abi } = MARKET_CONTRACTS[marketOfListing(listingId)];
  return { to: addressOf(client, name), data: encodeFunctionCall(abi, "cancel", [listingId]), value: 0n };
}

/**
 * Cancels a position and returns the transaction's hash; a stranger's cancel is refused
 * (`MarketNotMaker`) before anything is sent.
 *
 * @example
 * const hash = await cancelListing(client, { listingId: 7n });
 */
export async function cancelListing(client: ProtocolClient, parameters: CancelListingParameters): Promise<string> {
  return sendPrepared(client, prepareCancelListing(client, parameters), "cancel");
}

/** Cancels a position and waits for the receipt. */
export async function cancelListingSync(
  client: ProtocolClient,
  parameters: CancelListingParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await cancelListing(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "cancel") };
}
