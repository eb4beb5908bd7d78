import type { TransactionReceipt } from "ethers";

import { providerRegistryAbi } from "../abis/providerRegistry.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import { InvalidParameterError } from "../errors.js";
import type { BaseError, ContractRevertedError } from "../errors.js";
import { PROVIDER_TIERS } from "./quoteRedemption.js";

/** A provider's profile as the registry stores it (`ProviderRegistry.ProviderProfile`). */
export interface ProviderProfile {
  name: string;
  country: string;
  region: string;
  email: string;
  website: string;
  cpuType: string;
  totalCpuCores: number;
  totalRamGb: number;
  totalStorageGb: number;
  networkCapacityMbps: number;
}

export interface RegisterProviderParameters {
  profile: ProviderProfile;
  /** The service tier: its fulfilment deadline (standard 24 h, premium 6 h, enterprise 1 h by default). */
  tier: (typeof PROVIDER_TIERS)[number];
}

export type RegisterProviderErrorType = ContractRevertedError | InvalidParameterError | BaseError;

const UINT32 = 4_294_967_295;

/**
 * Builds `register(profile, tier)` on the provider registry: the caller becomes a provider in
 * review (status pending) until governance's approver approves the reviewed part of the profile
 * with the tier ({@link hashReviewedProfile}).
 *
 * @example
 * const transaction = prepareRegisterProvider(client, { profile, tier: "premium" });
 */
export function prepareRegisterProvider(
  client: ProtocolClient,
  { profile, tier }: RegisterProviderParameters,
): PreparedTransaction {
  const index = PROVIDER_TIERS.indexOf(tier);
  if (index < 0) throw new InvalidParameterError("tier", `must be one of ${PROVIDER_TIERS.join(", ")}`);
  for (const field of ["name", "country", "region", "cpuType"] as const) {
    if (profile[field].trim() === "") throw new InvalidParameterError(`profile.${field}`, "must not be empty");
  }
  for (const field of ["totalCpuCores", "totalRamGb", "totalStorageGb", "networkCapacityMbps"] as const) {
    const value = profile[field];
    if (!Number.isInteger(value) || value < 1 || value > UINT32) {
      throw new InvalidParameterError(`profile.${field}`, "must be a whole number from 1 to 4294967295");
    }
  }
  const data = encodeFunctionCall(providerRegistryAbi, "register", [profile, index]);
  return { to: addressOf(client, "ProviderRegistry"), data, value: 0n };
}

/**
 * Registers the caller as a provider and returns the hash; a refusal (already registered, an
 * empty or too long field) throws a `ContractRevertedError` before sending.
 *
 * @example
 * const hash = await registerProvider(client, { profile, tier: "standard" });
 */
export async function registerProvider(
  client: ProtocolClient,
  parameters: RegisterProviderParameters,
): Promise<string> {
  return sendPrepared(client, prepareRegisterProvider(client, parameters), "register");
}

/**
 * Registers and waits for the receipt.
 *
 * @example
 * const { receipt } = await registerProviderSync(client, { profile, tier: "premium" });
 */
export async function registerProviderSync(
  client: ProtocolClient,
  parameters: RegisterProviderParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await registerProvider(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "register") };
}
