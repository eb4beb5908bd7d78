import { ZeroHash, isHexString } from "ethers";

import { InvalidParameterError } from "./errors.js";

/**
 * Leases (DESIGN.md section 5b): a fulfilled redemption grants resources until the end its
 * provider stated (or, without one, until its user terminates it). The lease's id is the
 * redemption's; a renewal is a redemption of its own whose lease is the one it renewed.
 */

/** `IRedemptionManager.LeaseStatus`, by index, as the API names them. */
export const LEASE_STATUSES = ["none", "active", "ended", "terminated"] as const;
export type LeaseStatusName = (typeof LEASE_STATUSES)[number];

/** The API name of an on-chain lease status value. */
export function leaseStatusName(status: bigint): LeaseStatusName {
  const name = LEASE_STATUSES[Number(status)];
  if (name === undefined) throw new Error(`unknown lease status ${status}`);
  return name;
}

/**
 * The `expiration` of access details for a lease ending at `leaseEnd` (Unix seconds): ISO 8601
 * UTC, as the spec's access-details object has it.
 *
 * @example
 * leaseExpiration(1767225600n); // "2026-01-01T00:00:00.000Z"
 */
export function leaseExpiration(leaseEnd: bigint): string {
  return new Date(Number(leaseEnd) * 1000).toISOString();
}

/**
 * An X25519 public key as the manager stores it (`bytes32`), checked: 32 bytes of hex and not
 * zero (zero means "no key"). Returns it lower-cased with its `0x`.
 */
export function accessKeyBytes(publicKey: string, parameter = "publicKey"): string {
  const key = publicKey.startsWith("0x") ? publicKey : `0x${publicKey}`;
  if (!isHexString(key, 32)) throw new InvalidParameterError(parameter, "must be 32 bytes of hex");
  if (key === ZeroHash) throw new InvalidParameterError(parameter, "must not be zero (zero means no key)");
  return key.toLowerCase();
}
