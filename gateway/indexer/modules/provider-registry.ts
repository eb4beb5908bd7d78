import { decodeBytes32String } from "ethers";
import { and, eq, sql } from "drizzle-orm";

import { interfaceOf } from "@compute-capacity/sdk";
import { providerRegistryAbi } from "@compute-capacity/sdk/abis";
import type { Tx } from "../../store/db.js";
import { parameters, providers } from "../../store/schema.js";
import { addr, big, num } from "../module.js";
import type { ContractModule, StoredEvent } from "../module.js";

/** `IProviderRegistry.ProviderStatus` and `Tier`, by index, as the API names them. */
export const PROVIDER_STATUSES = ["none", "pending", "active", "suspended"] as const;
export const TIERS = ["standard", "premium", "enterprise"] as const;

interface Profile {
  name: string;
  country: string;
  region: string;
  email: string;
  website: string;
  cpuType: string;
  totalCpuCores: string;
  totalRamGb: string;
  totalStorageGb: string;
  networkCapacityMbps: string;
}

function profileColumns(profile: Profile) {
  return {
    name: profile.name,
    country: profile.country,
    region: profile.region,
    email: profile.email,
    website: profile.website,
    cpuType: profile.cpuType,
    totalCpuCores: Number(profile.totalCpuCores),
    totalRamGb: Number(profile.totalRamGb),
    totalStorageGb: Number(profile.totalStorageGb),
    networkCapacityMbps: Number(profile.networkCapacityMbps),
  };
}

/** The provider row an event is about. */
const row = (e: StoredEvent) =>
  and(eq(providers.providerId, addr(e.args, "provider")), eq(providers.chainId, e.chainId));

/** Providers: profile, status, tier, reputation, capacity and redemption statistics. */
export const providerRegistryModule: ContractModule = {
  contract: "ProviderRegistry",
  iface: interfaceOf(providerRegistryAbi),
  async apply(tx: Tx, e: StoredEvent) {
    const a = e.args;
    switch (e.name) {
      case "ProviderRegistered": {
        const provider = addr(a, "provider");
        await tx.insert(providers).values({
          chainId: e.chainId,
          providerId: provider,
          addressLower: provider.toLowerCase(),
          ...profileColumns(a.profile as Profile),
          status: "pending",
          tier: TIERS[num(a, "tier")] ?? "standard",
          reputation: 5_000,
          registeredAt: e.timestamp,
          totalCu: "0",
          availableCu: "0",
          totalRedemptions: 0,
          successfulRedemptions: 0,
          totalResponseTime: 0,
        });
        return;
      }
      case "ProviderProfileUpdated":
        await tx
          .update(providers)
          .set(profileColumns(a.profile as Profile))
          .where(row(e));
        return;
      case "ProviderStatusChanged":
        await tx
          .update(providers)
          .set({ status: PROVIDER_STATUSES[num(a, "current")] ?? "pending" })
          .where(row(e));
        return;
      case "ReputationChanged":
        await tx
          .update(providers)
          .set({ reputation: num(a, "current") })
          .where(row(e));
        return;
      case "CapacityAdded":
        await tx
          .update(providers)
          .set({
            availableCu: big(a, "availableCU").toString(),
            totalCu: sql`${providers.totalCu} + ${big(a, "cuValue").toString()}::numeric`,
          })
          .where(row(e));
        return;
      case "CapacityRetired":
        await tx
          .update(providers)
          .set({
            availableCu: big(a, "availableCU").toString(),
            totalCu: sql`${providers.totalCu} - ${big(a, "amount").toString()}::numeric`,
          })
          .where(row(e));
        return;
      case "CollateralLocked":
        await tx
          .update(providers)
          .set({ availableCu: sql`${providers.availableCu} - ${big(a, "amount").toString()}::numeric` })
          .where(row(e));
        return;
      case "CollateralReleased":
        if (big(a, "weight") === 0n) return;
        await tx
          .update(providers)
          .set({
            totalRedemptions: sql`${providers.totalRedemptions} + 1`,
            successfulRedemptions: sql`${providers.successfulRedemptions} + 1`,
            totalResponseTime: sql`${providers.totalResponseTime} + ${num(a, "responseTime")}`,
          })
          .where(row(e));
        return;
      case "ParameterUpdated": {
        const values = {
          chainId: e.chainId,
          contract: e.contract,
          name: decodeBytes32String(a.parameter as string),
          value: big(a, "current").toString(),
        };
        await tx
          .insert(parameters)
          .values(values)
          .onConflictDoUpdate({ target: [parameters.chainId, parameters.contract, parameters.name], set: values });
        return;
      }
      case "CollateralPaidOut":
        if (big(a, "weight") === 0n) return;
        await tx
          .update(providers)
          .set({ totalRedemptions: sql`${providers.totalRedemptions} + 1` })
          .where(row(e));
        return;
    }
  },
};
