import type { TransactionReceipt } from "ethers";

import { futuresMarketAbi } from "../abis/futuresMarket.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall, parseEventLogs } from "../contract-calls.js";
import { BaseError, InvalidParameterError } from "../errors.js";
import type { ContractRevertedError } from "../errors.js";
import { marketOfListing } from "../market-contracts.js";

export interface SettleFutureParameters {
  /** A matched future whose settlement time has come. */
  listingId: bigint;
}

export interface SettleFutureReturnType {
  receipt: TransactionReceipt;
  /** From `FutureSettled`: who received the sSTB, who the payment, and how much of it was the fee. */
  buyer: string;
  seller: string;
  amount: bigint;
  payment: bigint;
  fee: bigint;
}

export type SettleFutureErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds `settle(listingId)`, which anyone may send once the settlement time has come: the sSTB to
 * the buyer, the payment less the fee to the seller. Works while the market is paused.
 *
 * @example
 * const transaction = prepareSettleFuture(client, { listingId: 2n });
 */
export function prepareSettleFuture(
  client: ProtocolClient,
  { listingId }: SettleFutureParameters,
): PreparedTransaction {
  if (marketOfListing(listingId) !== "futures") throw new InvalidParameterError("listingId", "is not a future");
  const data = encodeFunctionCall(futuresMarketAbi, "settle", [listingId]);
  return { to: addressOf(client, "FuturesMarket"), data, value: 0n };
}

/**
 * Settles a matched future and returns the transaction's hash; one whose time has not come is
 * refused (`MarketNotExpired`) before anything is sent.
 *
 * @example
 * const hash = await settleFuture(client, { listingId: 2n });
 */
export async function settleFuture(client: ProtocolClient, parameters: SettleFutureParameters): Promise<string> {
  return sendPrepared(client, prepareSettleFuture(client, parameters), "settle");
}

/**
 * Settles a matched future, waits for the receipt and reads `FutureSettled`.
 *
 * @example
 * const { buyer, payment, fee } = await settleFutureSync(client, { listingId: 2n });
 */
export async function settleFutureSync(
  client: ProtocolClient,
  parameters: SettleFutureParameters,
): Promise<SettleFutureReturnType> {
  const prepared = prepareSettleFuture(client, parameters);
  const hash = await sendPrepared(client, prepared, "settle");
  const receipt = await waitForReceipt(client, hash, "settle");
  const [settled] = parseEventLogs(futuresMarketAbi, receipt.logs, {
    address: prepared.to,
    eventName: "FutureSettled",
  });
  if (settled === undefined)
    throw new BaseError("settle emitted no FutureSettled event", { details: `transaction ${hash}` });
  const { buyer, seller, amount, payment, fee } = settled.args;
  return { receipt, buyer, seller, amount, payment, fee };
}
