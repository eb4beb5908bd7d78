import type { TransactionReceipt } from "ethers";

import { optionsMarketAbi } from "../abis/optionsMarket.js";
import { sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall, parseEventLogs, readContract } from "../contract-calls.js";
import { BaseError, InvalidParameterError } from "../errors.js";
import type { ContractRevertedError } from "../errors.js";
import { marketOfListing, marketTokens } from "../market-contracts.js";
import { POSITION_KINDS, fillPayment, marketFee } from "../markets.js";
import type { TokenApproval } from "../token-approval.js";

export interface ExerciseOptionParameters {
  /** An option the caller holds. */
  listingId: bigint;
  /** sSTB base units to exercise (at most what is still exercisable). */
  amount: bigint;
}

export interface ExerciseOptionReturnType extends PreparedTransaction {
  /**
   * What the holder hands over: for a call, the strike payment of `amount`; for a put, the `amount`
   * sSTB delivered to the writer.
   */
  approval: TokenApproval;
  /** The strike payment of this exercise (`fillPayment(exercised, amount, strike)`) and its fee. */
  payment: bigint;
  fee: bigint;
  kind: "call" | "put";
}

export type ExerciseOptionErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds the holder's `exercise(listingId, amount)`. A call: the holder pays the strike for
 * `amount` and receives the sSTB; a put: the holder delivers `amount` sSTB and receives the strike
 * less the fee. Reads the option to say which and how much (`approval`). Works while paused.
 *
 * @example
 * const { kind, approval, payment } = await prepareExerciseOption(client, { listingId: 3n, amount });
 */
export async function prepareExerciseOption(
  client: ProtocolClient,
  { listingId, amount }: ExerciseOptionParameters,
): Promise<ExerciseOptionReturnType> {
  if (marketOfListing(listingId) !== "options") throw new InvalidParameterError("listingId", "is not an option");
  if (amount <= 0n) throw new InvalidParameterError("amount", "must be positive");
  const { address, sstb, paymentToken } = await marketTokens(client, "options");
  const [option, feeBps] = await Promise.all([
    readContract(client, { abi: optionsMarketAbi, address, functionName: "optionOf", args: [listingId] }),
    readContract(client, { abi: optionsMarketAbi, address, functionName: "feeBps", args: [] }),
  ]);
  const kind = POSITION_KINDS[Number(option.kind)] === "cash_secured_put" ? "put" : "call";
  const payment = fillPayment(option.exercised, amount, option.strike);
  const approval =
    kind === "call"
      ? { token: paymentToken, spender: address, amount: payment }
      : { token: sstb, spender: address, amount };
  const data = encodeFunctionCall(optionsMarketAbi, "exercise", [listingId, amount]);
  return { to: address, data, value: 0n, approval, payment, fee: marketFee(payment, feeBps), kind };
}

/**
 * Exercises a held option and returns the transaction's hash; a caller who does not hold it is
 * refused (`OptionsMarketNotHolder`) before anything is sent.
 *
 * @example
 * const hash = await exerciseOption(client, { listingId: 3n, amount: parseEther("1") });
 */
export async function exerciseOption(client: ProtocolClient, parameters: ExerciseOptionParameters): Promise<string> {
  return sendPrepared(client, await prepareExerciseOption(client, parameters), "exercise");
}

/**
 * Exercises a held option, waits for the receipt and reads `OptionExercised`.
 *
 * @example
 * const { payment, remaining } = await exerciseOptionSync(client, { listingId: 3n, amount });
 */
export async function exerciseOptionSync(
  client: ProtocolClient,
  parameters: ExerciseOptionParameters,
): Promise<{ receipt: TransactionReceipt; payment: bigint; fee: bigint; remaining: bigint }> {
  const prepared = await prepareExerciseOption(client, parameters);
  const hash = await sendPrepared(client, prepared, "exercise");
  const receipt = await waitForReceipt(client, hash, "exercise");
  const [exercised] = parseEventLogs(optionsMarketAbi, receipt.logs, {
    address: prepared.to,
    eventName: "OptionExercised",
  });
  if (exercised === undefined) {
    throw new BaseError("exercise emitted no OptionExercised event", { details: `transaction ${hash}` });
  }
  const { payment, fee, remaining } = exercised.args;
  return { receipt, payment, fee, remaining };
}
