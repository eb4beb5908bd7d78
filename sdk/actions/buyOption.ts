import type { TransactionReceipt } from "ethers";

import { optionsMarketAbi } from "../abis/optionsMarket.js";
import { sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall, readContract } from "../contract-calls.js";
import { InvalidParameterError } from "../errors.js";
import type { BaseError, ContractRevertedError } from "../errors.js";
import { marketOfListing, marketTokens } from "../market-contracts.js";
import type { TokenApproval } from "../token-approval.js";
import { getListing } from "./getListing.js";

export interface BuyOptionParameters {
  /** An option offered for sale. */
  listingId: bigint;
  /** The most the buyer pays per whole sSTB: the premium as the buyer saw it. */
  maxPremium: bigint;
}

export interface BuyOptionReturnType extends PreparedTransaction {
  /** The whole premium, `cost(amount, premium)`, which the market takes from the buyer. */
  approval: TokenApproval;
  /** Of the premium, what goes to the treasury; the writer receives the rest. */
  fee: bigint;
}

export type BuyOptionErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds `buyOption(listingId, maxPremium)`: the buyer pays the whole premium (`approval`) and
 * becomes the option's holder.
 *
 * @example
 * const { approval, fee } = await prepareBuyOption(client, { listingId: 3n, maxPremium: option.pricePerToken });
 */
export async function prepareBuyOption(
  client: ProtocolClient,
  { listingId, maxPremium }: BuyOptionParameters,
): Promise<BuyOptionReturnType> {
  if (marketOfListing(listingId) !== "options") throw new InvalidParameterError("listingId", "is not an option");
  const [option, { address, paymentToken }] = await Promise.all([
    getListing(client, { listingId }),
    marketTokens(client, "options"),
  ]);
  const [payment, fee] = await readContract(client, {
    abi: optionsMarketAbi,
    address,
    functionName: "quoteTrade",
    args: [0n, option.amount, option.pricePerToken],
  });
  const data = encodeFunctionCall(optionsMarketAbi, "buyOption", [listingId, maxPremium]);
  return { to: address, data, value: 0n, approval: { token: paymentToken, spender: address, amount: payment }, fee };
}

/**
 * Buys an option and returns the transaction's hash (the premium approved beforehand).
 *
 * @example
 * const hash = await buyOption(client, { listingId: 3n, maxPremium: 50_000n });
 */
export async function buyOption(client: ProtocolClient, parameters: BuyOptionParameters): Promise<string> {
  return sendPrepared(client, await prepareBuyOption(client, parameters), "buyOption");
}

/** Buys an option and waits for the receipt. */
export async function buyOptionSync(
  client: ProtocolClient,
  parameters: BuyOptionParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await buyOption(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "buyOption") };
}
