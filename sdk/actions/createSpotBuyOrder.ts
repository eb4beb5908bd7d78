import type { TransactionReceipt } from "ethers";

import { spotMarketAbi } from "../abis/spotMarket.js";
import { sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import type { BaseError, ContractRevertedError, InvalidParameterError } from "../errors.js";
import { checkTerms, createdListingId, marketTokens } from "../market-contracts.js";
import { cost } from "../markets.js";
import type { TokenApproval } from "../token-approval.js";

export interface CreateSpotBuyOrderParameters {
  /** sSTB base units to buy. */
  amount: bigint;
  /** Payment-token base units per whole sSTB. */
  price: bigint;
  /** Unix seconds: the first second the order is no longer open. */
  expiration: bigint;
}

export type CreateSpotBuyOrderErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds `createBuyOrder(amount, price, expiration)` on the spot market: the market escrows the
 * whole payment, `cost(amount, price)` (`approval`), until sellers fill the order.
 *
 * @example
 * const { approval } = await prepareCreateSpotBuyOrder(client, { amount, price, expiration });
 */
export async function prepareCreateSpotBuyOrder(
  client: ProtocolClient,
  { amount, price, expiration }: CreateSpotBuyOrderParameters,
): Promise<PreparedTransaction & { approval: TokenApproval }> {
  checkTerms(amount, price);
  const { address, paymentToken } = await marketTokens(client, "spot");
  const data = encodeFunctionCall(spotMarketAbi, "createBuyOrder", [amount, price, expiration]);
  return {
    to: address,
    data,
    value: 0n,
    approval: { token: paymentToken, spender: address, amount: cost(amount, price) },
  };
}

/**
 * Places a buy order and returns the transaction's hash.
 *
 * @example
 * const hash = await createSpotBuyOrder(client, { amount: parseEther("5"), price: 2_000_000n, expiration });
 */
export async function createSpotBuyOrder(
  client: ProtocolClient,
  parameters: CreateSpotBuyOrderParameters,
): Promise<string> {
  return sendPrepared(client, await prepareCreateSpotBuyOrder(client, parameters), "createBuyOrder");
}

/**
 * Places a buy order, waits for the receipt and reads the new order's id.
 *
 * @example
 * const { listingId } = await createSpotBuyOrderSync(client, { amount, price, expiration });
 */
export async function createSpotBuyOrderSync(
  client: ProtocolClient,
  parameters: CreateSpotBuyOrderParameters,
): Promise<{ receipt: TransactionReceipt; listingId: bigint }> {
  const prepared = await prepareCreateSpotBuyOrder(client, parameters);
  const hash = await sendPrepared(client, prepared, "createBuyOrder");
  const receipt = await waitForReceipt(client, hash, "createBuyOrder");
  return { receipt, listingId: createdListingId("spot", prepared.to, receipt, hash) };
}
