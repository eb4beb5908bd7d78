import type { TransactionReceipt } from "ethers";

import { spotMarketAbi } from "../abis/spotMarket.js";
import { sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall, readContract } from "../contract-calls.js";
import { InvalidParameterError } from "../errors.js";
import type { BaseError, ContractRevertedError } from "../errors.js";
import { marketOfListing, marketTokens } from "../market-contracts.js";
import type { TokenApproval } from "../token-approval.js";

export interface SellToSpotOrderParameters {
  /** A spot buy order's id. */
  listingId: bigint;
  /** sSTB base units to sell into it (at most what remains). */
  amount: bigint;
  /** The least the seller accepts per whole sSTB. */
  minPrice: bigint;
}

export interface SellToSpotOrderReturnType extends PreparedTransaction {
  /** The sSTB the market takes from the seller. */
  approval: TokenApproval;
  /** What the order pays for it (`quoteFill`), of which `fee` goes to the treasury. */
  payment: bigint;
  fee: bigint;
}

export type SellToSpotOrderErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds `sell(listingId, amount, minPrice)`: the seller delivers `amount` sSTB (`approval`) and
 * receives the order's escrowed payment for it less the fee.
 *
 * @example
 * const { payment, fee } = await prepareSellToSpotOrder(client, { listingId: 4n, amount, minPrice });
 */
export async function prepareSellToSpotOrder(
  client: ProtocolClient,
  { listingId, amount, minPrice }: SellToSpotOrderParameters,
): Promise<SellToSpotOrderReturnType> {
  if (marketOfListing(listingId) !== "spot") throw new InvalidParameterError("listingId", "is not a spot order");
  if (amount <= 0n) throw new InvalidParameterError("amount", "must be positive");
  const { address, sstb } = await marketTokens(client, "spot");
  const [payment, fee] = await readContract(client, {
    abi: spotMarketAbi,
    address,
    functionName: "quoteFill",
    args: [listingId, amount],
  });
  const data = encodeFunctionCall(spotMarketAbi, "sell", [listingId, amount, minPrice]);
  return { to: address, data, value: 0n, approval: { token: sstb, spender: address, amount }, payment, fee };
}

/** Sells into a spot buy order and returns the transaction's hash (the sSTB approved beforehand). */
export async function sellToSpotOrder(client: ProtocolClient, parameters: SellToSpotOrderParameters): Promise<string> {
  return sendPrepared(client, await prepareSellToSpotOrder(client, parameters), "sell");
}

/** Sells into a spot buy order and waits for the receipt. */
export async function sellToSpotOrderSync(
  client: ProtocolClient,
  parameters: SellToSpotOrderParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await sellToSpotOrder(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "sell") };
}
