import { implausibleFigure } from "@compute-capacity/sdk";
import type { ComputeSpecs } from "@compute-capacity/sdk";

/** Why the verifier refuses a report: the field at fault and the reason, as the API shows them. */
export interface Rejection {
  parameter: string;
  reason: string;
}

/** What the verifier knows about the provider when it decides. */
export interface ProviderFacts {
  status: string;
  /** Registered capacity totals (the profile the approver reviewed). */
  totals: Pick<ComputeSpecs, "cpuCores" | "ramGb" | "storageGb" | "networkMbps">;
  /** Hardware already backing minted units plus open attestations of other reports. */
  used: Pick<ComputeSpecs, "cpuCores" | "ramGb" | "storageGb" | "networkMbps">;
}

/** Provider statuses whose reports are verified: the minting agent mints for active providers only. */
export const VERIFIABLE_STATUSES = ["active"] as const;

const HARDWARE = [
  ["cpuCores", "cpu_cores"],
  ["ramGb", "ram_gb"],
  ["storageGb", "storage_gb"],
  ["networkMbps", "network_mbps"],
] as const;

/**
 * The verifier's decision on a report whose provider signature has been checked: the provider may
 * mint, the figures are plausible for the stated hardware, and the hardware fits into what the
 * provider registered minus what its units and open attestations already hold (a machine backs
 * capacity once). Undefined when the report is to be attested.
 */
export function rejectionOf(specs: ComputeSpecs, provider: ProviderFacts): Rejection | undefined {
  if (!(VERIFIABLE_STATUSES as readonly string[]).includes(provider.status)) {
    return {
      parameter: "provider_id",
      reason: `the provider is ${provider.status}; only active providers can mint, so only their reports are verified`,
    };
  }
  const implausible = implausibleFigure(specs);
  if (implausible !== undefined) return implausible;
  for (const [field, api] of HARDWARE) {
    const left = provider.totals[field] - provider.used[field];
    if (specs[field] > left) {
      return {
        parameter: `metadata.${api}`,
        reason:
          `${specs[field]} exceeds the ${Math.max(left, 0)} ${api} left of the provider's registered ` +
          `${provider.totals[field]} (${provider.used[field]} back minted units and open attestations)`,
      };
    }
  }
  return undefined;
}
