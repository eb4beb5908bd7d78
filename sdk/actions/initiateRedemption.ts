import { isAddress } from "ethers";
import type { TransactionReceipt } from "ethers";

import { redemptionManagerAbi } from "../abis/redemptionManager.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall, parseEventLogs } from "../contract-calls.js";
import { BaseError, InvalidParameterError } from "../errors.js";
import type { ContractRevertedError } from "../errors.js";
import { accessKeyBytes } from "../lease.js";

export interface InitiateRedemptionParameters {
  /** sSTB base units to redeem (at least the manager's minimum; the fee is taken on top). */
  amount: bigint;
  /** The provider's address. */
  provider: string;
  /**
   * The user's X25519 public key for access details, registered (or replaced) in the same
   * transaction (`initiateRedemptionWithAccessKey`); omitted: `initiateRedemption`, the key
   * registered before stays.
   */
  accessPublicKey?: string;
}

export interface InitiateRedemptionReturnType {
  receipt: TransactionReceipt;
  /** The new redemption's id (`RedemptionInitiated`). */
  redemptionId: bigint;
  /** From `RedemptionTerms`: the fee paid, the provider's collateral locked, the fulfilment deadline. */
  fee: bigint;
  lock: bigint;
  deadline: bigint;
}

export type InitiateRedemptionErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds `initiateRedemption(amount, provider)`: after the approval (or permit) of amount plus fee,
 * the manager burns `amount`, takes the fee and locks the provider's collateral. With
 * `accessPublicKey`, builds `initiateRedemptionWithAccessKey(amount, provider, publicKey)` instead,
 * which registers the user's access key in the same transaction.
 *
 * @example
 * const transaction = prepareInitiateRedemption(client, { amount: parseEther("5"), provider });
 * const withKey = prepareInitiateRedemption(client, { amount, provider, accessPublicKey: keys.publicKey });
 */
export function prepareInitiateRedemption(
  client: ProtocolClient,
  { amount, provider, accessPublicKey }: InitiateRedemptionParameters,
): PreparedTransaction {
  if (amount <= 0n) throw new InvalidParameterError("amount", "must be positive");
  if (!isAddress(provider)) throw new InvalidParameterError("provider", "must be an address");
  const data =
    accessPublicKey === undefined
      ? encodeFunctionCall(redemptionManagerAbi, "initiateRedemption", [amount, provider])
      : encodeFunctionCall(redemptionManagerAbi, "initiateRedemptionWithAccessKey", [
          amount,
          provider,
          accessKeyBytes(accessPublicKey, "accessPublicKey"),
        ]);
  return { to: addressOf(client, "RedemptionManager"), data, value: 0n };
}

/**
 * Initiates a redemption and returns the transaction's hash. A refusal (below the minimum, an
 * allowance short of amount plus fee, the provider redeeming with itself) throws a
 * `ContractRevertedError` before sending.
 *
 * @example
 * const hash = await initiateRedemption(client, { amount: parseEther("5"), provider });
 */
export async function initiateRedemption(
  client: ProtocolClient,
  parameters: InitiateRedemptionParameters,
): Promise<string> {
  return sendPrepared(client, prepareInitiateRedemption(client, parameters), functionNameOf(parameters));
}

/**
 * Initiates a redemption, waits for the receipt and decodes the new id and terms from its events.
 *
 * @example
 * const { redemptionId, deadline } = await initiateRedemptionSync(client, { amount, provider });
 */
export async function initiateRedemptionSync(
  client: ProtocolClient,
  parameters: InitiateRedemptionParameters,
): Promise<InitiateRedemptionReturnType> {
  const hash = await initiateRedemption(client, parameters);
  const receipt = await waitForReceipt(client, hash, functionNameOf(parameters));
  const address = addressOf(client, "RedemptionManager");
  const [initiated] = parseEventLogs(redemptionManagerAbi, receipt.logs, { address, eventName: "RedemptionInitiated" });
  const [terms] = parseEventLogs(redemptionManagerAbi, receipt.logs, { address, eventName: "RedemptionTerms" });
  if (initiated === undefined || terms === undefined) {
    throw new BaseError("initiateRedemption emitted no RedemptionInitiated event", { details: `transaction ${hash}` });
  }
  const { fee, lock, deadline } = terms.args;
  return { receipt, redemptionId: initiated.args.redemptionId, fee, lock, deadline };
}

function functionNameOf(parameters: InitiateRedemptionParameters): string {
  return parameters.accessPublicKey === undefined ? "initiateRedemption" : "initiateRedemptionWithAccessKey";
}
