import { isAddress } from "ethers";
import type { TransactionReceipt } from "ethers";

import { optionsMarketAbi } from "../abis/optionsMarket.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import { InvalidParameterError } from "../errors.js";
import type { BaseError, ContractRevertedError } from "../errors.js";
import { marketOfListing } from "../market-contracts.js";

export interface TransferOptionParameters {
  /** An option the caller holds. */
  listingId: bigint;
  /** The new holder, who may then exercise it. */
  to: string;
}

export type TransferOptionErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds the holder's `transferOption(listingId, to)`. Works while the market is paused.
 *
 * @example
 * const transaction = prepareTransferOption(client, { listingId: 3n, to: friend });
 */
export function prepareTransferOption(
  client: ProtocolClient,
  { listingId, to }: TransferOptionParameters,
): PreparedTransaction {
  if (marketOfListing(listingId) !== "options") throw new InvalidParameterError("listingId", "is not an option");
  if (!isAddress(to)) throw new InvalidParameterError("to", "must be an address");
  const data = encodeFunctionCall(optionsMarketAbi, "transferOption", [listingId, to]);
  return { to: addressOf(client, "OptionsMarket"), data, value: 0n };
}

/** Transfers a held option and returns the transaction's hash. */
export async function transferOption(client: ProtocolClient, parameters: TransferOptionParameters): Promise<string> {
  return sendPrepared(client, prepareTransferOption(client, parameters), "transferOption");
}

/** Transfers a held option and waits for the receipt. */
export async function transferOptionSync(
  client: ProtocolClient,
  parameters: TransferOptionParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await transferOption(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "transferOption") };
}
