import { xchacha20poly1305 } from "@noble/ciphers/chacha.js";
import { x25519 } from "@noble/curves/ed25519.js";
import { hkdf } from "@noble/hashes/hkdf.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, concatBytes, hexToBytes, randomBytes, utf8ToBytes } from "@noble/hashes/utils.js";

import { fromBase64Url, toBase64Url } from "./encoding.js";
import { BaseError } from "./errors.js";

/**
 * Access details travel on-chain as one string (SPEC.md), but they hold credentials, so the string
 * is an envelope only the redeeming user can open (DESIGN.md section 5):
 *
 *   envelope = "stbad1." + base64url(ephemeralPublicKey[32] || nonce[24] || ciphertext || tag[16])
 *
 * - X25519 between a fresh ephemeral key and the user's public key (`@noble/curves`), so every
 *   envelope has its own key and nothing links two envelopes to each other or to the provider;
 * - HKDF-SHA256 over the shared secret, salted with both public keys (`@noble/hashes`);
 * - XChaCha20-Poly1305 (`@noble/ciphers`), authenticated with the redemption it belongs to
 *   (chain id, manager address, redemption id) as associated data, so an envelope cannot be
 *   replayed on another redemption, manager or chain.
 * Decryption checks the tag, the context and the shape of the details, and throws a
 * `AccessDetailsError` on any mismatch.
 */

/** The spec's access-details object (SPEC.md, "Access details"). */
export interface AccessDetails {
  redemption_id: string;
  access_type: string;
  hostname: string;
  port: number;
  username: string;
  ssh_key: string;
  /** ISO 8601 UTC timestamp. */
  expiration: string;
  resources: { cpu_cores: number; memory_gb: number; storage_gb: number; bandwidth_mbps: number };
  documentation_url: string;
}

/** The redemption an envelope belongs to; bound into the ciphertext as associated data. */
export interface EnvelopeContext {
  chainId: bigint;
  redemptionManager: string;
  redemptionId: bigint;
}

/** An X25519 key pair, hex-encoded (0x-prefixed, 32 bytes each). */
export interface AccessKeyPair {
  privateKey: string;
  publicKey: string;
}

/** Why an envelope or access-details object was refused. */
export class AccessDetailsError extends BaseError {
  override name = "AccessDetailsError";
}

export const ENVELOPE_PREFIX = "stbad1.";
const KEY_BYTES = 32;
const NONCE_BYTES = 24;
const TAG_BYTES = 16;
const HKDF_INFO = utf8ToBytes("compute-protocol/access-details/v1");

/** A new key pair for receiving access details. The user keeps the private key. */
export function generateAccessKeyPair(): AccessKeyPair {
  const { secretKey, publicKey } = x25519.keygen();
  return { privateKey: toHex(secretKey), publicKey: toHex(publicKey) };
}

/** The public key of a private key. */
export function accessPublicKeyOf(privateKey: string): string {
  return toHex(x25519.getPublicKey(keyBytes(privateKey, "private key")));
}

/** Encrypts `details` to `recipientPublicKey` for the redemption in `context`. */
export function encryptAccessDetails(
  details: AccessDetails,
  recipientPublicKey: string,
  context: EnvelopeContext,
): string {
  validateAccessDetails(details);
  if (details.redemption_id !== context.redemptionId.toString()) {
    throw new AccessDetailsError(
      `redemption_id ${details.redemption_id} does not match redemption ${context.redemptionId}`,
    );
  }
  const recipient = keyBytes(recipientPublicKey, "public key");
  const ephemeral = x25519.keygen();
  const key = deriveKey(x25519.getSharedSecret(ephemeral.secretKey, recipient), ephemeral.publicKey, recipient);
  const nonce = randomBytes(NONCE_BYTES);
  const sealed = xchacha20poly1305(key, nonce, associatedData(context)).encrypt(utf8ToBytes(JSON.stringify(details)));
  return ENVELOPE_PREFIX + toBase64Url(concatBytes(ephemeral.publicKey, nonce, sealed));
}

/** Opens an envelope with the recipient's private key and checks it belongs to `context`. */
export function decryptAccessDetails(envelope: string, privateKey: string, context: EnvelopeContext): AccessDetails {
  if (!envelope.startsWith(ENVELOPE_PREFIX)) throw new AccessDetailsError("not an access-details envelope");
  const bytes = fromBase64Url(envelope.slice(ENVELOPE_PREFIX.length));
  if (bytes === undefined) throw new AccessDetailsError("envelope is not base64url");
  if (bytes.length < KEY_BYTES + NONCE_BYTES + TAG_BYTES) throw new AccessDetailsError("envelope too short");
  const ephemeralPublicKey = bytes.subarray(0, KEY_BYTES);
  const nonce = bytes.subarray(KEY_BYTES, KEY_BYTES + NONCE_BYTES);
  const sealed = bytes.subarray(KEY_BYTES + NONCE_BYTES);

  const secretKey = keyBytes(privateKey, "private key");
  let plaintext: Uint8Array;
  try {
    const shared = x25519.getSharedSecret(secretKey, ephemeralPublicKey);
    const key = deriveKey(shared, ephemeralPublicKey, x25519.getPublicKey(secretKey));
    plaintext = xchacha20poly1305(key, nonce, associatedData(context)).decrypt(sealed);
  } catch {
    throw new AccessDetailsError("envelope does not open with this key for this redemption");
  }
  let details: unknown;
  try {
    details = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(plaintext));
  } catch {
    throw new AccessDetailsError("envelope content is not JSON");
  }
  validateAccessDetails(details);
  if (details.redemption_id !== context.redemptionId.toString()) {
    throw new AccessDetailsError("envelope names another redemption");
  }
  return details;
}

/** Throws `AccessDetailsError` unless `value` has every field of the spec with its type. */
export function validateAccessDetails(value: unknown): asserts value is AccessDetails {
  if (typeof value !== "object" || value === null) throw new AccessDetailsError("access details must be an object");
  const v = value as Record<string, unknown>;
  for (const field of [
    "redemption_id",
    "access_type",
    "hostname",
    "username",
    "ssh_key",
    "expiration",
    "documentation_url",
  ]) {
    if (typeof v[field] !== "string" || (v[field] as string).length === 0) {
      throw new AccessDetailsError(`${field} must be a non-empty string`);
    }
  }
  if (!Number.isInteger(v.port) || (v.port as number) < 1 || (v.port as number) > 65535) {
    throw new AccessDetailsError("port must be an integer in 1..65535");
  }
  const expiration = v.expiration as string;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(expiration) || Number.isNaN(Date.parse(expiration))) {
    throw new AccessDetailsError("expiration must be an ISO 8601 UTC timestamp");
  }
  try {
    new URL(v.documentation_url as string);
  } catch {
    throw new AccessDetailsError("documentation_url must be a URL");
  }
  const resources = v.resources as Record<string, unknown> | undefined;
  if (typeof resources !== "object" || resources === null) throw new AccessDetailsError("resources must be an object");
  for (const field of ["cpu_cores", "memory_gb", "storage_gb", "bandwidth_mbps"]) {
    if (
      typeof resources[field] !== "number" ||
      !Number.isFinite(resources[field]) ||
      (resources[field] as number) < 0
    ) {
      throw new AccessDetailsError(`resources.${field} must be a non-negative number`);
    }
  }
}

function deriveKey(shared: Uint8Array, ephemeralPublicKey: Uint8Array, recipientPublicKey: Uint8Array): Uint8Array {
  return hkdf(sha256, shared, concatBytes(ephemeralPublicKey, recipientPublicKey), HKDF_INFO, 32);
}

function associatedData(context: EnvelopeContext): Uint8Array {
  return utf8ToBytes(
    `${context.chainId.toString()}:${context.redemptionManager.toLowerCase()}:${context.redemptionId.toString()}`,
  );
}

function keyBytes(hex: string, what: string): Uint8Array {
  const clean = hex.startsWith("0x") ? hex.slice(2) : hex;
  if (!/^[0-9a-fA-F]{64}$/.test(clean)) throw new AccessDetailsError(`${what} must be 32 bytes of hex`);
  return hexToBytes(clean);
}

function toHex(bytes: Uint8Array): string {
  return "0x" + bytesToHex(bytes);
}
