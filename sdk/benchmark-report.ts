import { Signature, getAddress, verifyTypedData } from "ethers";
import type { TypedDataDomain, TypedDataField } from "ethers";

import { ATTESTATION_TYPES, cuHashOf } from "./attestations.js";
import type { ComputeSpecs } from "./attestations.js";

/**
 * A provider's benchmark report, as `POST /verification/submit` takes it (SPEC.md). `proof` is the
 * provider's EIP-712 signature of the other fields ({@link signBenchmarkReport}): the provider
 * stands behind its figures, so a verifier's attestation can always be traced to the account that
 * claimed them, and nobody else can get a provider's capacity attested.
 */
export interface BenchmarkReport {
  verification_type: string;
  provider_id: string;
  benchmark_results: { cpu_score: number; memory_score: number; storage_score: number; network_score: number };
  metadata: { cpu_cores: number; ram_gb: number; storage_gb: number; network_mbps: number };
}

export interface SignedBenchmarkReport extends BenchmarkReport {
  proof: string;
}

/** EIP-712 types of the report the provider signs (ComputeSpecs as in the attestation). */
export const BENCHMARK_REPORT_TYPES: Record<string, TypedDataField[]> = {
  BenchmarkReport: [
    { name: "provider", type: "address" },
    { name: "verificationType", type: "string" },
    { name: "specs", type: "ComputeSpecs" },
  ],
  ComputeSpecs: ATTESTATION_TYPES.ComputeSpecs,
};

/**
 * The domain of a report: bound to the chain and the AttestationVerifier of the deployment that is
 * to mint it, so a report signed for one deployment is no proof for another.
 */
export function benchmarkReportDomain(chainId: bigint, attestationVerifier: string): TypedDataDomain {
  return { name: "ComputeBenchmarkReport", version: "1", chainId, verifyingContract: attestationVerifier };
}

/** The report's figures in the on-chain `ComputeSpecs` form. */
export function specsOfReport(report: BenchmarkReport): ComputeSpecs {
  const { metadata: m, benchmark_results: b } = report;
  return {
    cpuCores: m.cpu_cores,
    ramGb: m.ram_gb,
    storageGb: m.storage_gb,
    networkMbps: m.network_mbps,
    cpuScore: b.cpu_score,
    memoryScore: b.memory_score,
    storageScore: b.storage_score,
    networkScore: b.network_score,
  };
}

function typedReport(report: BenchmarkReport) {
  return {
    provider: getAddress(report.provider_id.toLowerCase()),
    verificationType: report.verification_type,
    specs: specsOfReport(report),
  };
}

/** The provider's signature of its report: what goes into the request's `proof`. */
export async function signBenchmarkReport(
  signer: {
    signTypedData(
      domain: TypedDataDomain,
      types: Record<string, TypedDataField[]>,
      value: Record<string, unknown>,
    ): Promise<string>;
  },
  domain: TypedDataDomain,
  report: BenchmarkReport,
): Promise<string> {
  return signer.signTypedData(domain, BENCHMARK_REPORT_TYPES, typedReport(report));
}

/** The account that signed the report (throws on a malformed signature). */
export function benchmarkReportSigner(domain: TypedDataDomain, report: SignedBenchmarkReport): string {
  return verifyTypedData(domain, BENCHMARK_REPORT_TYPES, typedReport(report), report.proof);
}

/**
 * The unit's identity (`cuHash`, the verification id): keccak256 of the report's canonical JSON
 * (fixed field order, checksummed provider, the proof in its canonical 65-byte form, so that
 * another encoding of the same signature is the same report). The same report always gives the
 * same id; a unit backs sSTB once, so a second machine with identical figures needs its own
 * benchmark run.
 */
export function benchmarkReportHash(report: SignedBenchmarkReport): string {
  const { benchmark_results: b, metadata: m } = report;
  return cuHashOf({
    verification_type: report.verification_type,
    provider_id: getAddress(report.provider_id.toLowerCase()),
    benchmark_results: {
      cpu_score: b.cpu_score,
      memory_score: b.memory_score,
      storage_score: b.storage_score,
      network_score: b.network_score,
    },
    metadata: { cpu_cores: m.cpu_cores, ram_gb: m.ram_gb, storage_gb: m.storage_gb, network_mbps: m.network_mbps },
    proof: canonicalSignature(report.proof),
  });
}

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/**
 * A 65-byte ECDSA signature in its one canonical form (v 27/28, lower case), refusing what no
 * signer produces: r or s zero or out of range, or a high s (EIP-2: the malleable twin of a valid
 * signature, which would otherwise be a second identity for the same report).
 */
export function canonicalSignature(signature: string): string {
  const sig = Signature.from(signature);
  const r = BigInt(sig.r);
  const s = BigInt(sig.s);
  if (r === 0n || r >= SECP256K1_N || s === 0n || s > SECP256K1_N / 2n) {
    throw new Error("not a canonical ECDSA signature");
  }
  return sig.serialized.toLowerCase();
}
