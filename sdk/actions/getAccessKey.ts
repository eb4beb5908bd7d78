import { ZeroHash, isAddress } from "ethers";

import { redemptionViewsAbi } from "../abis/redemptionViews.js";
import type { ProtocolClient } from "../client.js";
import { deployedReader } from "../contract-calls.js";
import { InvalidParameterError } from "../errors.js";
import { getContractError } from "../revert-decoding.js";
import type { BaseError } from "../errors.js";

export interface GetAccessKeyParameters {
  /** The user whose key to read. */
  user: string;
}

export type GetAccessKeyErrorType = InvalidParameterError | BaseError;

/**
 * The X25519 public key `user` registered for access details (`accessKeyOf`), lower-case hex, or
 * null when it registered none: a provider encrypts to this key, and waits while there is none.
 *
 * @example
 * const key = await getAccessKey(client, { user });
 * if (key === null) console.log("the user has not registered an access key yet");
 */
export async function getAccessKey(client: ProtocolClient, { user }: GetAccessKeyParameters): Promise<string | null> {
  if (!isAddress(user)) throw new InvalidParameterError("user", "must be an address");
  try {
    const key = await deployedReader(client, "RedemptionViews", redemptionViewsAbi).accessKeyOf(user);
    return key === ZeroHash ? null : key.toLowerCase();
  } catch (error) {
    throw getContractError(error, { functionName: "accessKeyOf" });
  }
}
