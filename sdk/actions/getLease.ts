import { redemptionViewsAbi } from "../abis/redemptionViews.js";
import type { ProtocolClient } from "../client.js";
import { deployedReader } from "../contract-calls.js";
import { ContractRevertedError } from "../errors.js";
import { getContractError } from "../revert-decoding.js";
import type { BaseError, InvalidParameterError } from "../errors.js";
import { leaseStatusName } from "../lease.js";
import type { LeaseStatusName } from "../lease.js";

export interface GetLeaseParameters {
  /** The lease: a fulfilled redemption's id (not a renewal's; `leaseIdOf` maps one to the other). */
  leaseId: bigint;
}

/** A standing renewal offer. */
export interface RenewalOffer {
  /** sSTB base units the user pays. */
  price: bigint;
  /** Seconds the end moves by. */
  extension: bigint;
  /** The last second it may be accepted (Unix seconds). */
  validUntil: bigint;
}

/** `leaseOf(id)` as the SDK shows it. */
export interface GetLeaseReturnType {
  leaseId: bigint;
  /** `active`, `ended` (from its stated end's second on) or `terminated`. */
  status: Exclude<LeaseStatusName, "none">;
  user: string;
  provider: string;
  /** The stated end (Unix seconds), moved by each renewal; null when the provider stated none. */
  end: bigint | null;
  /** How many of the lease's redemptions are under dispute (no renewal while any is). */
  openDisputes: bigint;
  /** The standing renewal offer, or null. */
  offer: RenewalOffer | null;
}

export type GetLeaseErrorType = InvalidParameterError | BaseError;

/**
 * Reads a lease: status, parties, stated end, disputes and the standing renewal offer; null for an
 * id that is not a lease (not fulfilled, a renewal, never issued: the contract's `LeaseNotFound`).
 *
 * @example
 * const lease = await getLease(client, { leaseId: 3n });
 * if (lease?.offer) console.log(`renew for ${formatEther(lease.offer.price)} sSTB`);
 */
export async function getLease(
  client: ProtocolClient,
  { leaseId }: GetLeaseParameters,
): Promise<GetLeaseReturnType | null> {
  try {
    const lease = await deployedReader(client, "RedemptionViews", redemptionViewsAbi).leaseOf(leaseId);
    return {
      leaseId,
      status: leaseStatusName(lease.status) as GetLeaseReturnType["status"],
      user: lease.user,
      provider: lease.provider,
      end: lease.end === 0n ? null : lease.end,
      openDisputes: lease.openDisputes,
      offer:
        lease.offerPrice === 0n
          ? null
          : { price: lease.offerPrice, extension: lease.offerExtension, validUntil: lease.offerValidUntil },
    };
  } catch (error) {
    const failure = getContractError(error, { functionName: "leaseOf" });
    if (failure instanceof ContractRevertedError && failure.errorName === "LeaseNotFound") return null;
    throw failure;
  }
}
