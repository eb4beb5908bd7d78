import { redemptionManagerAbi } from "../abis/redemptionManager.js";
import { decryptAccessDetails } from "../access-details.js";
import type { AccessDetails, AccessDetailsError } from "../access-details.js";
import { addressOf } from "../client.js";
import type { ProtocolClient } from "../client.js";
import { interfaceOf, parseEventLogs } from "../contract-calls.js";
import { BaseError, InvalidParameterError } from "../errors.js";

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
  const provider = client.runner.provider;
  if (provider === null) throw new InvalidParameterError("runner", "a runner with a provider is needed to read events");
  const address = addressOf(client, "RedemptionManager");
  const topics = interfaceOf(redemptionManagerAbi).encodeFilterTopics("RedemptionFulfilled", [redemptionId]);
  const logs = await provider.getLogs({ address, topics, fromBlock: 0 });
  const [fulfilled] = parseEventLogs(redemptionManagerAbi, logs, { address, eventName: "RedemptionFulfilled" });
  if (fulfilled === undefined) throw new BaseError(`redemption ${redemptionId} has not been fulfilled`);
  return decryptAccessDetails(fulfilled.args.accessDetails, privateKey, {
    chainId: client.chainId,
    redemptionManager: address,
    redemptionId,
  });
}
