import type { TransactionReceipt } from "ethers";

import { futuresMarketAbi } from "../abis/futuresMarket.js";
import { sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import { InvalidParameterError } from "../errors.js";
import type { BaseError, ContractRevertedError } from "../errors.js";
import { marketOfListing, marketTokens } from "../market-contracts.js";
import { cost } from "../markets.js";
import type { TokenApproval } from "../token-approval.js";
import { getListing } from "./getListing.js";

export interface TakeFutureParameters {
  /** An open futures offer's id. */
  listingId: bigint;
  /**
   * The taker's price guard: the most it pays per whole sSTB when taking an offer to sell, the least
   * it accepts when taking an offer to buy (the offer's price as the taker saw it).
   */
  limitPrice: bigint;
}

export interface TakeFutureReturnType extends PreparedTransaction {
  /** The taker's side in escrow: the payment for an offer to sell, the sSTB for an offer to buy. */
  approval: TokenApproval;
  /** The side the taker takes: `buy` (the offer sells) or `sell` (the offer buys). */
  side: "buy" | "sell";
  /** What changes hands at settlement: `cost(amount, price)` for `amount` sSTB. */
  payment: bigint;
  amount: bigint;
}

export type TakeFutureErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds `take(listingId, limitPrice)`: takes the whole of an open futures offer, escrowing the
 * other side (read from the offer: `approval`) until settlement.
 *
 * @example
 * const { approval, side, payment } = await prepareTakeFuture(client, { listingId: 2n, limitPrice: offer.pricePerToken });
 */
export async function prepareTakeFuture(
  client: ProtocolClient,
  { listingId, limitPrice }: TakeFutureParameters,
): Promise<TakeFutureReturnType> {
  if (marketOfListing(listingId) !== "futures") throw new InvalidParameterError("listingId", "is not a futures offer");
  const [offer, { address, sstb, paymentToken }] = await Promise.all([
    getListing(client, { listingId }),
    marketTokens(client, "futures"),
  ]);
  const payment = cost(offer.amount, offer.pricePerToken);
  const side = offer.kind === "future_buy" ? "sell" : "buy";
  const approval =
    side === "buy"
      ? { token: paymentToken, spender: address, amount: payment }
      : { token: sstb, spender: address, amount: offer.amount };
  const data = encodeFunctionCall(futuresMarketAbi, "take", [listingId, limitPrice]);
  return { to: address, data, value: 0n, approval, side, payment, amount: offer.amount };
}

/**
 * Takes a futures offer and returns the transaction's hash (the escrow approved beforehand); a
 * price past `limitPrice` is refused (`MarketPriceMismatch`) before anything is sent.
 *
 * @example
 * const hash = await takeFuture(client, { listingId: 2n, limitPrice: 1_500_000n });
 */
export async function takeFuture(client: ProtocolClient, parameters: TakeFutureParameters): Promise<string> {
  return sendPrepared(client, await prepareTakeFuture(client, parameters), "take");
}

/** Takes a futures offer and waits for the receipt. */
export async function takeFutureSync(
  client: ProtocolClient,
  parameters: TakeFutureParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await takeFuture(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "take") };
}
