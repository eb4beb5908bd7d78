import type { TransactionReceipt } from "ethers";

import { redemptionManagerAbi } from "../abis/redemptionManager.js";
import { encryptAccessDetails } from "../access-details.js";
import type { AccessDetails } from "../access-details.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import type { AccessDetailsError } from "../access-details.js";
import type { BaseError, ContractRevertedError, InvalidParameterError } from "../errors.js";

export interface FulfilRedemptionParameters {
  redemptionId: bigint;
  /** The spec's access-details object; encrypted here, never sent in clear. */
  details: AccessDetails;
  /** The redeeming user's X25519 public key (hex). */
  userPublicKey: string;
}

export type FulfilRedemptionErrorType = AccessDetailsError | ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds the provider's `fulfillRedemption(id, envelope)`: encrypts `details` to the user's key,
 * bound to this chain, manager and redemption (`stbad1.` envelope), and returns the call with the
 * envelope.
 *
 * @example
 * const { envelope, ...transaction } = prepareFulfilRedemption(client, { redemptionId, details, userPublicKey });
 */
export function prepareFulfilRedemption(
  client: ProtocolClient,
  { redemptionId, details, userPublicKey }: FulfilRedemptionParameters,
): PreparedTransaction & { envelope: string } {
  const manager = addressOf(client, "RedemptionManager");
  const envelope = encryptAccessDetails(details, userPublicKey, {
    chainId: client.chainId,
    redemptionManager: manager,
    redemptionId,
  });
  const data = encodeFunctionCall(redemptionManagerAbi, "fulfillRedemption", [redemptionId, envelope]);
  return { to: manager, data, value: 0n, envelope };
}

/** Fulfils a redemption with encrypted access details and returns the hash. */
export async function fulfilRedemption(
  client: ProtocolClient,
  parameters: FulfilRedemptionParameters,
): Promise<string> {
  const { envelope: _envelope, ...transaction } = prepareFulfilRedemption(client, parameters);
  return sendPrepared(client, transaction, "fulfillRedemption");
}

/**
 * Fulfils, waits for the receipt and returns it with the envelope that went on-chain.
 *
 * @example
 * const { envelope } = await fulfilRedemptionSync(providerClient, { redemptionId, details, userPublicKey });
 */
export async function fulfilRedemptionSync(
  client: ProtocolClient,
  parameters: FulfilRedemptionParameters,
): Promise<{ receipt: TransactionReceipt; envelope: string }> {
  const { envelope, ...transaction } = prepareFulfilRedemption(client, parameters);
  const hash = await sendPrepared(client, transaction, "fulfillRedemption");
  return { receipt: await waitForReceipt(client, hash, "fulfillRedemption"), envelope };
}
