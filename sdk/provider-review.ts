import { AbiCoder, keccak256 } from "ethers";

/** The fields of a provider profile an approver reviews (`ProviderRegistry.ProviderProfile`). */
export interface ReviewedProfile {
  name: string;
  country: string;
  region: string;
  cpuType: string;
  totalCpuCores: bigint | number;
  totalRamGb: bigint | number;
  totalStorageGb: bigint | number;
  networkCapacityMbps: bigint | number;
}

/**
 * The hash an approval binds (`ProviderRegistry.hashReviewedProfile`): the reviewed part of a
 * profile (name, location, cpu type, the four capacity figures) and the tier, ABI-encoded as the
 * registry encodes it. An approver computes it from the profile it reviewed (the registration or
 * update event), never from the chain's current state, and passes it to `approveProvider`: if the
 * provider changed its profile in between, the approval reverts.
 */
export function hashReviewedProfile(profile: ReviewedProfile, tier: bigint | number): string {
  return keccak256(
    AbiCoder.defaultAbiCoder().encode(
      ["string", "string", "string", "string", "uint32", "uint32", "uint32", "uint32", "uint8"],
      [
        profile.name,
        profile.country,
        profile.region,
        profile.cpuType,
        profile.totalCpuCores,
        profile.totalRamGb,
        profile.totalStorageGb,
        profile.networkCapacityMbps,
        tier,
      ],
    ),
  );
}
