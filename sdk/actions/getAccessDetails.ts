import { decryptAccessDetails } from "../access-details.js";
import type { AccessDetails, AccessDetailsError } from "../access-details.js";
import { addressOf } from "../client.js";
import type { ProtocolClient } from "../client.js";
import { getContract } from "../contracts.js";
import { BaseError } from "../errors.js";
import type { InvalidParameterError } from "../errors.js";

export interface GetAccessDetailsParameters {
  redemptionId: bigint;
  /** The user's X25519 private key (hex): a generated one, or `deriveAccessKeyPair`'s. */
  privateKey: string;
}

export type GetAccessDetailsErrorType = AccessDetailsError | InvalidParameterError | BaseError;

/**
 * Finds the redemption's `RedemptionFulfilled` event and opens its envelope with the user's key
 * (checking it belongs to this chain, manager and redemption).
 *
 * @example
 * const details = await getAccessDetails(client, { redemptionId, privateKey: keys.privateKey });
 */
export async function getAccessDetails(
  client: ProtocolClient,
  { redemptionId, privateKey }: GetAccessDetailsParameters,
): Promise<AccessDetails> {
  const manager = getContract(client, "RedemptionManager");
  const events = await manager.queryFilter(manager.filters.RedemptionFulfilled(redemptionId));
  if (events.length === 0) throw new BaseError(`redemption ${redemptionId} has not been fulfilled`);
  return decryptAccessDetails(events[0].args.accessDetails, privateKey, {
    chainId: client.chainId,
    redemptionManager: addressOf(client, "RedemptionManager"),
    redemptionId,
  });
}
