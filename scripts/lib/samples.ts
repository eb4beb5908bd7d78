import { Wallet, keccak256, toUtf8Bytes } from "ethers";

import type { ComputeSpecs } from "./attestation.js";

/** Sample data for local chains, demos, benchmarks and tests: never used on a real chain. */

/** A plausible benchmarked server. */
export const SAMPLE_SPECS: ComputeSpecs = {
  cpuCores: 64,
  ramGb: 256,
  storageGb: 4096,
  networkMbps: 10000,
  cpuScore: 9100,
  memoryScore: 8800,
  storageScore: 7600,
  networkScore: 9500,
};

/** A provider profile as `ProviderRegistry.register` takes it. */
export function sampleProfile(name = "Acme Compute") {
  return {
    name,
    country: "DE",
    region: "eu-central",
    email: "ops@acme.example",
    website: "https://acme.example",
    cpuType: "AMD EPYC 9654",
    totalCpuCores: 192,
    totalRamGb: 1536,
    totalStorageGb: 61440,
    networkCapacityMbps: 100000,
  };
}

/** `count` deterministic verifier keys derived from `label`, for local attestation signing. */
export function sampleVerifierKeys(label: string, count = 3): Wallet[] {
  return Array.from({ length: count }, (_, i) => new Wallet(keccak256(toUtf8Bytes(`${label}-${i + 1}`))));
}
