import type { TransactionReceipt } from "ethers";

import { redemptionManagerAbi } from "../abis/redemptionManager.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import { InvalidParameterError } from "../errors.js";
import type { BaseError, ContractRevertedError } from "../errors.js";

export interface OfferRenewalParameters {
  /** The lease (its first redemption's id). */
  leaseId: bigint;
  /** sSTB base units the user pays (burned, as a redemption; at least the minimum redemption). */
  price: bigint;
  /** Seconds the lease's end moves by (the new end at most `maxLeaseTerm` from now). */
  extension: bigint;
  /** The last second the user may accept, Unix seconds (in the future, at most the lease's end). */
  validUntil: bigint;
}

export type OfferRenewalErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds the provider's `offerRenewal(leaseId, price, extension, validUntil)`: a running lease with
 * a stated end and nothing under dispute; the offer replaces any standing one. The contract checks
 * the bounds (`RedemptionBelowMinimum`, `RenewalExtensionOutOfRange`, `RenewalValidityOutOfRange`).
 *
 * @example
 * const transaction = prepareOfferRenewal(client, { leaseId, price: parseEther("2"), extension: 30n * 86_400n, validUntil });
 */
export function prepareOfferRenewal(
  client: ProtocolClient,
  { leaseId, price, extension, validUntil }: OfferRenewalParameters,
): PreparedTransaction {
  if (price <= 0n) throw new InvalidParameterError("price", "must be positive");
  if (extension <= 0n) throw new InvalidParameterError("extension", "must be positive");
  if (validUntil <= 0n) throw new InvalidParameterError("validUntil", "must be a positive Unix time");
  const data = encodeFunctionCall(redemptionManagerAbi, "offerRenewal", [leaseId, price, extension, validUntil]);
  return { to: addressOf(client, "RedemptionManager"), data, value: 0n };
}

/**
 * Offers a renewal and returns the transaction's hash; a refusal (not the lease's provider, an
 * ended, terminated or disputed lease, terms out of bounds) throws a `ContractRevertedError`.
 *
 * @example
 * const hash = await offerRenewal(providerClient, { leaseId, price, extension, validUntil });
 */
export async function offerRenewal(client: ProtocolClient, parameters: OfferRenewalParameters): Promise<string> {
  return sendPrepared(client, prepareOfferRenewal(client, parameters), "offerRenewal");
}

/**
 * Offers a renewal and waits for the receipt.
 *
 * @example
 * await offerRenewalSync(providerClient, { leaseId, price, extension, validUntil });
 */
export async function offerRenewalSync(
  client: ProtocolClient,
  parameters: OfferRenewalParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await offerRenewal(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "offerRenewal") };
}
