import { x25519 } from "@noble/curves/ed25519.js";
import { hkdf } from "@noble/hashes/hkdf.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { Signature, getAddress, getBytes, keccak256, toUtf8Bytes } from "ethers";

import type { AccessKeyPair } from "./access-details.js";
import { BaseError, InvalidParameterError } from "./errors.js";

/**
 * The access key from a wallet (DESIGN.md section 5b, PORTAL.md "Access details in the browser"): a
 * web user keeps no key file; the X25519 key pair that opens its access-detail envelopes is derived
 * from the wallet's signature of a fixed message bound to the chain id, the redemption manager and
 * the user's address. The same wallet always derives the same key (RFC 6979 deterministic ECDSA),
 * and nothing but the wallet can derive it.
 *
 * - The message is in EIP-4361 (Sign-In with Ethereum) form naming the site's domain, so wallets
 *   warn when another site asks for it, and its statement says what signing grants. It has no
 *   random nonce and no time: its nonce is a hash of what it binds and its issue time a fixed date,
 *   so the text, the signature and the key never change.
 * - The key is HKDF-SHA256 over the 65-byte signature, salted with a version label, with the
 *   domain, chain id, manager and address as info; the X25519 public key follows from it.
 * - The wallet signs twice and a wallet whose two signatures differ is refused (some smart-contract
 *   and MPC wallets are not deterministic: their key would change at every sign-in).
 * - The signature is the key: the derived key never leaves the page or process.
 */

/** What the key is bound to. */
export interface AccessKeyMessageParameters {
  /** The site asking (EIP-4361 `domain`: host and port, e.g. `portal.compute.example`). */
  domain: string;
  /** The site's origin (EIP-4361 `URI`), e.g. `https://portal.compute.example`. */
  uri: string;
  chainId: bigint | number;
  /** The RedemptionManager the envelopes belong to. */
  redemptionManager: string;
  /** The user's address (the wallet that signs). */
  address: string;
}

/** A wallet that signs EIP-191 personal messages (an ethers `Signer`, a `BrowserProvider`'s signer). */
export interface MessageSigner {
  getAddress(): Promise<string>;
  signMessage(message: string): Promise<string>;
}

/** Why no key was derived. */
export class AccessKeyDerivationError extends BaseError {
  override name = "AccessKeyDerivationError";
}

/** The HKDF salt: the derivation's version. */
export const ACCESS_KEY_SALT = "compute-protocol/access-key/v1";
/** The message's fixed issue time (EIP-4361 requires one; a fixed one keeps the text constant). */
export const ACCESS_KEY_ISSUED_AT = "2025-01-01T00:00:00.000Z";

/**
 * The message a wallet signs to derive its access key, in EIP-4361 form.
 *
 * @example
 * const message = accessKeyMessage({ domain: location.host, uri: location.origin, chainId: 42161n, redemptionManager, address });
 */
export function accessKeyMessage(parameters: AccessKeyMessageParameters): string {
  const { domain, uri, chainId } = checked(parameters);
  const manager = getAddress(parameters.redemptionManager);
  const address = getAddress(parameters.address);
  const nonce = keccak256(toUtf8Bytes(bindingOf(parameters))).slice(2, 18);
  return [
    `${domain} wants you to sign in with your Ethereum account:`,
    address,
    "",
    `Derive your access key for compute redemptions on RedemptionManager ${manager} (chain ${chainId}). ` +
      "Signing gives this site the key that opens your access details: sign it only on this site.",
    "",
    `URI: ${uri}`,
    "Version: 1",
    `Chain ID: ${chainId}`,
    `Nonce: ${nonce}`,
    `Issued At: ${ACCESS_KEY_ISSUED_AT}`,
  ].join("\n");
}

/**
 * The key pair a signature of {@link accessKeyMessage} gives: HKDF-SHA256(signature, salt
 * {@link ACCESS_KEY_SALT}, info "domain|chainId|manager|address") as the X25519 private key.
 */
export function accessKeyPairFromSignature(signature: string, parameters: AccessKeyMessageParameters): AccessKeyPair {
  checked(parameters);
  let bytes: Uint8Array;
  try {
    bytes = getBytes(Signature.from(signature).serialized);
  } catch (error) {
    throw new InvalidParameterError("signature", "not a 65-byte ECDSA signature", { cause: error });
  }
  const privateKey = hkdf(sha256, bytes, utf8ToBytes(ACCESS_KEY_SALT), utf8ToBytes(bindingOf(parameters)), 32);
  return { privateKey: "0x" + bytesToHex(privateKey), publicKey: "0x" + bytesToHex(x25519.getPublicKey(privateKey)) };
}

/**
 * Derives the access key pair of `signer` for a chain and manager: the wallet signs
 * {@link accessKeyMessage} twice; differing signatures are refused.
 *
 * @param signer - the user's wallet (its address must be `parameters.address` when given)
 * @returns the X25519 key pair, hex (as `generateAccessKeyPair` returns it)
 * @throws AccessKeyDerivationError when the wallet's two signatures differ or it is another account
 * @example
 * const keys = await deriveAccessKeyPair(signer, { domain: location.host, uri: location.origin, chainId, redemptionManager });
 * const details = decryptAccessDetails(envelope, keys.privateKey, context);
 */
export async function deriveAccessKeyPair(
  signer: MessageSigner,
  parameters: Omit<AccessKeyMessageParameters, "address"> & { address?: string },
): Promise<AccessKeyPair> {
  const account = getAddress(await signer.getAddress());
  if (parameters.address !== undefined && getAddress(parameters.address) !== account) {
    throw new AccessKeyDerivationError(`The wallet signs as ${account}, not as ${getAddress(parameters.address)}.`);
  }
  const bound = { ...parameters, address: account };
  const message = accessKeyMessage(bound);
  const first = await signer.signMessage(message);
  const second = await signer.signMessage(message);
  if (Signature.from(first).serialized !== Signature.from(second).serialized) {
    throw new AccessKeyDerivationError("This wallet signs the same message differently each time.", {
      details: "its signature cannot serve as a key; use a generated key pair instead",
    });
  }
  return accessKeyPairFromSignature(first, bound);
}

function bindingOf(p: AccessKeyMessageParameters): string {
  return `${p.domain}|${BigInt(p.chainId)}|${p.redemptionManager.toLowerCase()}|${p.address.toLowerCase()}`;
}

function checked(p: AccessKeyMessageParameters): { domain: string; uri: string; chainId: bigint } {
  if (!/^[A-Za-z0-9.-]+(:\d+)?$/.test(p.domain)) throw new InvalidParameterError("domain", "must be a host[:port]");
  if (!/^https?:\/\/\S+$/.test(p.uri)) throw new InvalidParameterError("uri", "must be an http(s) URI");
  return { domain: p.domain, uri: p.uri, chainId: BigInt(p.chainId) };
}
