import type { JsonRpcSigner } from "ethers";

import { benchmarkReportDomain, REFERENCE_SERVER, scoresFor, signBenchmarkReport } from "@compute-capacity/sdk";
import type { ComputeSpecs, SignedBenchmarkReport } from "@compute-capacity/sdk";
import type { LiveDeployment } from "../../testing/fixtures.js";

type Hardware = Pick<ComputeSpecs, "cpuCores" | "ramGb" | "storageGb" | "networkMbps">;

/** The reference server's hardware (64 cores, 256 GB, 4 TB, 10 Gbit/s), worth 100 sSTB at its own scores. */
export const REFERENCE_HARDWARE: Hardware = {
  cpuCores: REFERENCE_SERVER.cpuCores,
  ramGb: REFERENCE_SERVER.ramGb,
  storageGb: REFERENCE_SERVER.storageGb,
  networkMbps: REFERENCE_SERVER.networkMbps,
};

/**
 * A benchmark report as the spec's body, signed by `signer` (the provider, unless a test forges
 * it): figures at `ratioBps` of the reference rate for `hardware`, then `specs` overrides.
 */
export async function signedReport(
  live: LiveDeployment,
  signer: JsonRpcSigner,
  options: {
    hardware?: Hardware;
    ratioBps?: number;
    specs?: Partial<ComputeSpecs>;
    provider?: string;
    verificationType?: string;
  } = {},
): Promise<SignedBenchmarkReport> {
  const specs = { ...scoresFor(options.hardware ?? REFERENCE_HARDWARE, options.ratioBps), ...options.specs };
  const report = {
    verification_type: options.verificationType ?? "zkp",
    provider_id: options.provider ?? signer.address,
    benchmark_results: {
      cpu_score: specs.cpuScore,
      memory_score: specs.memoryScore,
      storage_score: specs.storageScore,
      network_score: specs.networkScore,
    },
    metadata: {
      cpu_cores: specs.cpuCores,
      ram_gb: specs.ramGb,
      storage_gb: specs.storageGb,
      network_mbps: specs.networkMbps,
    },
  };
  const domain = benchmarkReportDomain(42161n, await live.d.verifier.getAddress());
  return { ...report, proof: await signBenchmarkReport(signer, domain, report) };
}

/**
 * What a provider does with a verified answer: mints the collateral the answer asks for, approves
 * the minting agent and calls `verifyAndMintSSTB(proof, collateral_amount, staking_period_min)`.
 */
export async function mintVerified(
  live: LiveDeployment,
  signer: JsonRpcSigner,
  data: { proof: string; mint: { collateral_amount: string; staking_period_min: number; minting_agent: string } },
) {
  const amount = BigInt(data.mint.collateral_amount);
  const { collateral, mintingAgent } = live.d;
  if (amount > 0n) {
    await (await collateral.connect(signer).mint(signer.address, amount)).wait();
    await (await collateral.connect(signer).approve(data.mint.minting_agent, amount)).wait();
  }
  return (
    await mintingAgent.connect(signer).verifyAndMintSSTB(data.proof, amount, data.mint.staking_period_min)
  ).wait();
}
