import type { TransactionReceipt } from "ethers";

import { redemptionManagerAbi } from "../abis/redemptionManager.js";
import { encryptAccessDetails } from "../access-details.js";
import type { AccessDetails, AccessDetailsError } from "../access-details.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { deployedReader, encodeFunctionCall } from "../contract-calls.js";
import { AccessKeyNotRegisteredError, InvalidParameterError } from "../errors.js";
import { getContractError } from "../revert-decoding.js";
import type { BaseError, ContractRevertedError } from "../errors.js";
import { leaseExpiration } from "../lease.js";
import { getAccessKey } from "./getAccessKey.js";

export interface FulfilRedemptionWithLeaseParameters {
  redemptionId: bigint;
  /**
   * The spec's access-details object; encrypted here, never sent in clear. Its `expiration` is the
   * lease end (`leaseExpiration(leaseEnd)`): left out, it is filled in; given, it must say the same.
   */
  details: Omit<AccessDetails, "expiration"> & { expiration?: string };
  /** The lease's end, Unix seconds: after the fulfilment's block and at most `maxLeaseTerm` from it. */
  leaseEnd: bigint;
}

export type FulfilRedemptionWithLeaseReturnType = PreparedTransaction & {
  /** The `stbad1.` envelope that goes on-chain. */
  envelope: string;
  /** The registered key it was encrypted to (lower-case hex). */
  userPublicKey: string;
  /** The access details as encrypted, `expiration` included. */
  details: AccessDetails;
};

export type FulfilRedemptionWithLeaseErrorType =
  AccessKeyNotRegisteredError | AccessDetailsError | ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds the provider's `fulfillRedemptionWithLease(id, envelope, leaseEnd)`: reads the
 * redemption's user and the access key that user registered on the manager, encrypts `details` to
 * it (bound to this chain, manager and redemption), and returns the call with the envelope. A user
 * with no registered key is refused with {@link AccessKeyNotRegisteredError}: nothing is
 * encrypted blind.
 *
 * @example
 * const leaseEnd = BigInt(Math.floor(Date.now() / 1000)) + 30n * 86_400n;
 * const { envelope, ...transaction } = await prepareFulfilRedemptionWithLease(client, { redemptionId, details, leaseEnd });
 */
export async function prepareFulfilRedemptionWithLease(
  client: ProtocolClient,
  { redemptionId, details, leaseEnd }: FulfilRedemptionWithLeaseParameters,
): Promise<FulfilRedemptionWithLeaseReturnType> {
  if (leaseEnd <= 0n) throw new InvalidParameterError("leaseEnd", "must be a positive Unix time");
  const expiration = leaseExpiration(leaseEnd);
  if (details.expiration !== undefined && Date.parse(details.expiration) !== Number(leaseEnd) * 1000) {
    throw new InvalidParameterError("details.expiration", `must be the lease end ${expiration} when given`);
  }
  const manager = addressOf(client, "RedemptionManager");
  let user: string;
  try {
    user = (await deployedReader(client, "RedemptionManager", redemptionManagerAbi).redemptions(redemptionId)).user;
  } catch (error) {
    throw getContractError(error, { functionName: "redemptions" });
  }
  if (/^0x0{40}$/.test(user)) throw new InvalidParameterError("redemptionId", `no redemption ${redemptionId}`);
  const userPublicKey = await getAccessKey(client, { user });
  if (userPublicKey === null) throw new AccessKeyNotRegisteredError(user);
  const sealed: AccessDetails = { ...details, expiration };
  const envelope = encryptAccessDetails(sealed, userPublicKey, {
    chainId: client.chainId,
    redemptionManager: manager,
    redemptionId,
  });
  const data = encodeFunctionCall(redemptionManagerAbi, "fulfillRedemptionWithLease", [
    redemptionId,
    envelope,
    leaseEnd,
  ]);
  return { to: manager, data, value: 0n, envelope, userPublicKey, details: sealed };
}

/**
 * Fulfils with a stated lease end, encrypting to the user's registered key, and returns the hash.
 *
 * @example
 * const hash = await fulfilRedemptionWithLease(providerClient, { redemptionId, details, leaseEnd });
 */
export async function fulfilRedemptionWithLease(
  client: ProtocolClient,
  parameters: FulfilRedemptionWithLeaseParameters,
): Promise<string> {
  const { to, data, value } = await prepareFulfilRedemptionWithLease(client, parameters);
  return sendPrepared(client, { to, data, value }, "fulfillRedemptionWithLease");
}

/**
 * Fulfils with a stated lease end, waits for the receipt and returns it with the envelope that
 * went on-chain and the key it was encrypted to.
 *
 * @example
 * const { envelope, userPublicKey } = await fulfilRedemptionWithLeaseSync(providerClient, { redemptionId, details, leaseEnd });
 */
export async function fulfilRedemptionWithLeaseSync(
  client: ProtocolClient,
  parameters: FulfilRedemptionWithLeaseParameters,
): Promise<{ receipt: TransactionReceipt; envelope: string; userPublicKey: string }> {
  const { to, data, value, envelope, userPublicKey } = await prepareFulfilRedemptionWithLease(client, parameters);
  const hash = await sendPrepared(client, { to, data, value }, "fulfillRedemptionWithLease");
  return { receipt: await waitForReceipt(client, hash, "fulfillRedemptionWithLease"), envelope, userPublicKey };
}
