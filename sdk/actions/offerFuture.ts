import type { TransactionReceipt } from "ethers";

import { futuresMarketAbi } from "../abis/futuresMarket.js";
import { sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import { InvalidParameterError } from "../errors.js";
import type { BaseError, ContractRevertedError } from "../errors.js";
import { checkTerms, createdListingId, marketTokens } from "../market-contracts.js";
import { cost } from "../markets.js";
import type { TokenApproval } from "../token-approval.js";

export interface OfferFutureParameters {
  /** `sell`: the maker delivers sSTB at settlement (`offerToSell`); `buy`: the maker pays for it (`offerToBuy`). */
  side: "sell" | "buy";
  /** sSTB base units delivered at settlement. */
  amount: bigint;
  /** Payment-token base units per whole sSTB. */
  price: bigint;
  /** Unix seconds: when the future settles (and until when the offer can be taken). */
  settlementTime: bigint;
}

export type OfferFutureErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds a futures offer: to sell (the market escrows the sSTB) or to buy (it escrows the payment,
 * `cost(amount, price)`); `approval` is that escrow.
 *
 * @example
 * const { approval } = await prepareOfferFuture(client, { side: "sell", amount, price, settlementTime });
 */
export async function prepareOfferFuture(
  client: ProtocolClient,
  { side, amount, price, settlementTime }: OfferFutureParameters,
): Promise<PreparedTransaction & { approval: TokenApproval }> {
  if (side !== "sell" && side !== "buy") throw new InvalidParameterError("side", 'must be "sell" or "buy"');
  checkTerms(amount, price);
  const { address, sstb, paymentToken } = await marketTokens(client, "futures");
  const functionName = side === "sell" ? "offerToSell" : "offerToBuy";
  const data = encodeFunctionCall(futuresMarketAbi, functionName, [amount, price, settlementTime]);
  const approval =
    side === "sell"
      ? { token: sstb, spender: address, amount }
      : { token: paymentToken, spender: address, amount: cost(amount, price) };
  return { to: address, data, value: 0n, approval };
}

/**
 * Makes a futures offer and returns the transaction's hash (its escrow approved beforehand).
 *
 * @example
 * const hash = await offerFuture(client, { side: "buy", amount: parseEther("2"), price: 1_500_000n, settlementTime });
 */
export async function offerFuture(client: ProtocolClient, parameters: OfferFutureParameters): Promise<string> {
  return sendPrepared(client, await prepareOfferFuture(client, parameters), functionNameOf(parameters));
}

/**
 * Makes a futures offer, waits for the receipt and reads the offer's id.
 *
 * @example
 * const { listingId } = await offerFutureSync(client, { side: "sell", amount, price, settlementTime });
 */
export async function offerFutureSync(
  client: ProtocolClient,
  parameters: OfferFutureParameters,
): Promise<{ receipt: TransactionReceipt; listingId: bigint }> {
  const prepared = await prepareOfferFuture(client, parameters);
  const hash = await sendPrepared(client, prepared, functionNameOf(parameters));
  const receipt = await waitForReceipt(client, hash, functionNameOf(parameters));
  return { receipt, listingId: createdListingId("futures", prepared.to, receipt, hash) };
}

function functionNameOf({ side }: OfferFutureParameters): string {
  return side === "sell" ? "offerToSell" : "offerToBuy";
}
