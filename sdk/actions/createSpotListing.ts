import type { TransactionReceipt } from "ethers";

import { spotMarketAbi } from "../abis/spotMarket.js";
import { sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import type { BaseError, ContractRevertedError, InvalidParameterError } from "../errors.js";
import { checkTerms, createdListingId, marketTokens } from "../market-contracts.js";
import type { TokenApproval } from "../token-approval.js";

export interface CreateSpotListingParameters {
  /** sSTB base units to sell. */
  amount: bigint;
  /** Payment-token base units per whole sSTB (the chain's USDC: 6 decimals). */
  price: bigint;
  /** Unix seconds: the first second the listing is no longer open. */
  expiration: bigint;
}

export type CreateSpotListingErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds `createListing(amount, price, expiration)` on the spot market: a sell listing whose sSTB
 * the market escrows. `approval` is the sSTB the market must be allowed to take first.
 *
 * @example
 * const { approval, ...transaction } = await prepareCreateSpotListing(client, { amount, price, expiration });
 */
export async function prepareCreateSpotListing(
  client: ProtocolClient,
  { amount, price, expiration }: CreateSpotListingParameters,
): Promise<PreparedTransaction & { approval: TokenApproval }> {
  checkTerms(amount, price);
  const { address, sstb } = await marketTokens(client, "spot");
  const data = encodeFunctionCall(spotMarketAbi, "createListing", [amount, price, expiration]);
  return { to: address, data, value: 0n, approval: { token: sstb, spender: address, amount } };
}

/**
 * Lists sSTB for sale and returns the transaction's hash (the sSTB approved beforehand: see
 * `ensureAllowance`).
 *
 * @example
 * const hash = await createSpotListing(client, { amount: parseEther("5"), price: 2_000_000n, expiration });
 */
export async function createSpotListing(
  client: ProtocolClient,
  parameters: CreateSpotListingParameters,
): Promise<string> {
  return sendPrepared(client, await prepareCreateSpotListing(client, parameters), "createListing");
}

/**
 * Lists sSTB for sale, waits for the receipt and reads the new listing's id.
 *
 * @example
 * const { listingId } = await createSpotListingSync(client, { amount, price, expiration });
 */
export async function createSpotListingSync(
  client: ProtocolClient,
  parameters: CreateSpotListingParameters,
): Promise<{ receipt: TransactionReceipt; listingId: bigint }> {
  const prepared = await prepareCreateSpotListing(client, parameters);
  const hash = await sendPrepared(client, prepared, "createListing");
  const receipt = await waitForReceipt(client, hash, "createListing");
  return { receipt, listingId: createdListingId("spot", prepared.to, receipt, hash) };
}
