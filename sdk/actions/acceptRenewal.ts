import type { TransactionReceipt } from "ethers";

import { redemptionManagerAbi } from "../abis/redemptionManager.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall, parseEventLogs } from "../contract-calls.js";
import { BaseError, InvalidParameterError } from "../errors.js";
import type { ContractRevertedError } from "../errors.js";

export interface AcceptRenewalParameters {
  leaseId: bigint;
  /**
   * The offer's price the user saw and agrees to (sSTB base units): the call reverts
   * `RenewalTermsMismatch` if the standing offer has another, so a changed offer never costs more.
   */
  price: bigint;
  /** The offer's extension the user saw (seconds), bound the same way. */
  extension: bigint;
}

export interface AcceptRenewalReturnType {
  receipt: TransactionReceipt;
  /** The renewal's own redemption id (born fulfilled; confirm or dispute it like any other). */
  renewalId: bigint;
  /** The lease's new end (Unix seconds). */
  end: bigint;
  /** The fee paid to the treasury and the provider's collateral locked, as for an initiation. */
  fee: bigint;
  lock: bigint;
}

export type AcceptRenewalErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds the user's `acceptRenewal(leaseId, price, extension)`, bound to the terms the user saw.
 * Approve `price` plus the fee first (`prepareApproveRedemption({ amount: price })`): a renewal is
 * a redemption of `price` with the lease's provider.
 *
 * @example
 * const { offer } = await getLease(client, { leaseId });
 * const transaction = prepareAcceptRenewal(client, { leaseId, price: offer!.price, extension: offer!.extension });
 */
export function prepareAcceptRenewal(
  client: ProtocolClient,
  { leaseId, price, extension }: AcceptRenewalParameters,
): PreparedTransaction {
  if (price <= 0n) throw new InvalidParameterError("price", "must be positive");
  if (extension <= 0n) throw new InvalidParameterError("extension", "must be positive");
  const data = encodeFunctionCall(redemptionManagerAbi, "acceptRenewal", [leaseId, price, extension]);
  return { to: addressOf(client, "RedemptionManager"), data, value: 0n };
}

/**
 * Accepts the standing renewal offer and returns the hash; a refusal (another offer standing, the
 * offer lapsed or gone, the lease ended, terminated or under dispute, not the lease's user) throws
 * a `ContractRevertedError` before sending.
 *
 * @example
 * const hash = await acceptRenewal(client, { leaseId, price, extension });
 */
export async function acceptRenewal(client: ProtocolClient, parameters: AcceptRenewalParameters): Promise<string> {
  return sendPrepared(client, prepareAcceptRenewal(client, parameters), "acceptRenewal");
}

/**
 * Accepts the renewal, waits for the receipt and decodes `LeaseRenewed`: the renewal's id, the new
 * end, the fee and the lock.
 *
 * @example
 * const { renewalId, end } = await acceptRenewalSync(client, { leaseId, price, extension });
 */
export async function acceptRenewalSync(
  client: ProtocolClient,
  parameters: AcceptRenewalParameters,
): Promise<AcceptRenewalReturnType> {
  const hash = await acceptRenewal(client, parameters);
  const receipt = await waitForReceipt(client, hash, "acceptRenewal");
  const address = addressOf(client, "RedemptionManager");
  const [renewed] = parseEventLogs(redemptionManagerAbi, receipt.logs, { address, eventName: "LeaseRenewed" });
  if (renewed === undefined) {
    throw new BaseError("acceptRenewal emitted no LeaseRenewed event", { details: `transaction ${hash}` });
  }
  const { renewalId, end, fee, lock } = renewed.args;
  return { receipt, renewalId, end, fee, lock };
}
