import type { TransactionReceipt } from "ethers";

import { optionsMarketAbi } from "../abis/optionsMarket.js";
import { sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import { InvalidParameterError } from "../errors.js";
import type { BaseError, ContractRevertedError } from "../errors.js";
import { checkTerms, createdListingId, marketTokens } from "../market-contracts.js";
import { cost } from "../markets.js";
import type { TokenApproval } from "../token-approval.js";

export interface WriteOptionParameters {
  /** `call`: a covered call, the sSTB escrowed (`writeCall`); `put`: a cash-secured put, the strike escrowed (`writePut`). */
  kind: "call" | "put";
  /** sSTB base units the option covers. */
  amount: bigint;
  /** Payment-token base units per whole sSTB at exercise. */
  strike: bigint;
  /** Payment-token base units per whole sSTB the buyer pays for the option. */
  premium: bigint;
  /** Unix seconds: the first second it can no longer be bought or exercised. */
  expiry: bigint;
}

export type WriteOptionErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds an option offered for its premium: a covered call escrows `amount` sSTB, a cash-secured
 * put escrows `cost(amount, strike)` of the payment token (`approval`).
 *
 * @example
 * const { approval } = await prepareWriteOption(client, { kind: "call", amount, strike, premium, expiry });
 */
export async function prepareWriteOption(
  client: ProtocolClient,
  { kind, amount, strike, premium, expiry }: WriteOptionParameters,
): Promise<PreparedTransaction & { approval: TokenApproval }> {
  if (kind !== "call" && kind !== "put") throw new InvalidParameterError("kind", 'must be "call" or "put"');
  checkTerms(amount, strike, "strike");
  checkTerms(amount, premium, "premium");
  const { address, sstb, paymentToken } = await marketTokens(client, "options");
  const data = encodeFunctionCall(optionsMarketAbi, kind === "call" ? "writeCall" : "writePut", [
    amount,
    strike,
    premium,
    expiry,
  ]);
  const approval =
    kind === "call"
      ? { token: sstb, spender: address, amount }
      : { token: paymentToken, spender: address, amount: cost(amount, strike) };
  return { to: address, data, value: 0n, approval };
}

/**
 * Writes an option and returns the transaction's hash (its escrow approved beforehand).
 *
 * @example
 * const hash = await writeOption(client, { kind: "put", amount: parseEther("1"), strike: 900_000n, premium: 50_000n, expiry });
 */
export async function writeOption(client: ProtocolClient, parameters: WriteOptionParameters): Promise<string> {
  return sendPrepared(client, await prepareWriteOption(client, parameters), functionNameOf(parameters));
}

/**
 * Writes an option, waits for the receipt and reads its id.
 *
 * @example
 * const { listingId } = await writeOptionSync(client, { kind: "call", amount, strike, premium, expiry });
 */
export async function writeOptionSync(
  client: ProtocolClient,
  parameters: WriteOptionParameters,
): Promise<{ receipt: TransactionReceipt; listingId: bigint }> {
  const prepared = await prepareWriteOption(client, parameters);
  const hash = await sendPrepared(client, prepared, functionNameOf(parameters));
  const receipt = await waitForReceipt(client, hash, functionNameOf(parameters));
  return { receipt, listingId: createdListingId("options", prepared.to, receipt, hash) };
}

function functionNameOf({ kind }: WriteOptionParameters): string {
  return kind === "call" ? "writeCall" : "writePut";
}
