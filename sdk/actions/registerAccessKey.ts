import type { TransactionReceipt } from "ethers";

import { redemptionManagerAbi } from "../abis/redemptionManager.js";
import type { AccessKeyPair } from "../access-details.js";
import { deriveAccessKeyPair } from "../access-key.js";
import type { AccessKeyDerivationError } from "../access-key.js";
import { addressOf, sendPrepared, signerOf, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import type { BaseError, ContractRevertedError, InvalidParameterError } from "../errors.js";
import { accessKeyBytes } from "../lease.js";
import { getAccessKey } from "./getAccessKey.js";

export interface RegisterAccessKeyParameters {
  /** The user's X25519 public key (32 bytes, hex): `deriveAccessKeyPair`'s or `generateAccessKeyPair`'s. */
  publicKey: string;
}

export interface RegisterDerivedAccessKeyParameters {
  /** The site asking for the signature (EIP-4361 `domain`, host and port), e.g. `location.host`. */
  domain: string;
  /** The site's origin (EIP-4361 `URI`), e.g. `location.origin`. */
  uri: string;
}

export type RegisterAccessKeyErrorType =
  AccessKeyDerivationError | ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds the user's `registerAccessKey(publicKey)`: providers encrypt the user's access details to
 * this key from now on (it replaces any earlier one; envelopes already published stay as they are).
 *
 * @example
 * const transaction = prepareRegisterAccessKey(client, { publicKey: keys.publicKey });
 */
export function prepareRegisterAccessKey(
  client: ProtocolClient,
  { publicKey }: RegisterAccessKeyParameters,
): PreparedTransaction {
  const data = encodeFunctionCall(redemptionManagerAbi, "registerAccessKey", [accessKeyBytes(publicKey)]);
  return { to: addressOf(client, "RedemptionManager"), data, value: 0n };
}

/**
 * Registers the caller's access key and returns the transaction's hash.
 *
 * @example
 * const hash = await registerAccessKey(client, { publicKey: keys.publicKey });
 */
export async function registerAccessKey(
  client: ProtocolClient,
  parameters: RegisterAccessKeyParameters,
): Promise<string> {
  return sendPrepared(client, prepareRegisterAccessKey(client, parameters), "registerAccessKey");
}

/**
 * Registers the caller's access key and waits for the receipt.
 *
 * @example
 * await registerAccessKeySync(client, { publicKey: keys.publicKey });
 */
export async function registerAccessKeySync(
  client: ProtocolClient,
  parameters: RegisterAccessKeyParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await registerAccessKey(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "registerAccessKey") };
}

/**
 * The web user's whole key set-up (DESIGN.md section 5b): the client's wallet signs the access-key
 * message twice (`deriveAccessKeyPair`: bound to this site, chain, manager and account), and the
 * public key is registered unless it already is. Nothing is stored: the same wallet derives the
 * same key again whenever it must open access details.
 *
 * @param client - a client whose runner is the user's wallet (a `BrowserProvider`'s signer)
 * @returns the derived key pair, and the receipt when a registration was sent (undefined when the
 * chain already had this key)
 * @throws AccessKeyDerivationError when the wallet signs the message differently each time
 * @example
 * const { keys } = await registerDerivedAccessKey(client, { domain: location.host, uri: location.origin });
 */
export async function registerDerivedAccessKey(
  client: ProtocolClient,
  { domain, uri }: RegisterDerivedAccessKeyParameters,
): Promise<{ keys: AccessKeyPair; receipt: TransactionReceipt | undefined }> {
  const signer = signerOf(client);
  const keys = await deriveAccessKeyPair(signer, {
    domain,
    uri,
    chainId: client.chainId,
    redemptionManager: addressOf(client, "RedemptionManager"),
  });
  const registered = await getAccessKey(client, { user: await signer.getAddress() });
  if (registered === keys.publicKey.toLowerCase()) return { keys, receipt: undefined };
  const { receipt } = await registerAccessKeySync(client, { publicKey: keys.publicKey });
  return { keys, receipt };
}
