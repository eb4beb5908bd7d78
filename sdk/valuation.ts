import { parseEther } from "ethers";

import type { ComputeSpecs } from "./attestations.js";

/**
 * How a verified compute unit is valued (its `cuValue`, sSTB base units, 18 decimals), and which
 * benchmark figures are plausible for the stated hardware. One code for the gateway's verifier,
 * the demo and the tests; no governed parameter: changing the valuation is a change of this file,
 * reviewed like code, and the verifiers sign what it computes.
 *
 * Benchmark scores are throughput indices, SPECrate-style: they grow with the hardware (twice the
 * cores of the same class score twice the CPU points), measured against a reference server that
 * scores exactly {@link REFERENCE_SERVER}'s figures. The reference is the protocol's sample server
 * (a 64-core EPYC with 256 GB, 4 TB and 10 Gbit/s), which the demo has always minted at 100 sSTB.
 */
export const REFERENCE_SERVER: ComputeSpecs = {
  cpuCores: 64,
  ramGb: 256,
  storageGb: 4096,
  networkMbps: 10000,
  cpuScore: 9100,
  memoryScore: 8800,
  storageScore: 7600,
  networkScore: 9500,
};

/** What the reference server is worth. */
export const REFERENCE_VALUE = parseEther("100");

/**
 * Shares of the value by resource, in basis points of {@link REFERENCE_VALUE} (sum 10,000): compute
 * is what is redeemed first, memory bounds what it can run, storage and network are the rest.
 */
export const VALUE_SHARES_BPS = { cpu: 4_000, memory: 3_000, storage: 1_500, network: 1_500 } as const;

/**
 * A score may lie between 20% and 150% of what the stated hardware would score at the reference's
 * performance per unit (per core, per GB, per Mbit/s): older or slower hardware of the same size
 * measures less, newer hardware somewhat more; a figure outside that band means the metadata does
 * not describe the machine that was measured (or the figures are made up).
 */
export const PLAUSIBLE_RATIO_BPS = { min: 2_000, max: 15_000 } as const;

/** The four resources: the metadata field sizing each and the score measuring it. */
const RESOURCES = [
  { name: "cpu", size: "cpuCores", score: "cpuScore", api: ["cpu_cores", "cpu_score"] },
  { name: "memory", size: "ramGb", score: "memoryScore", api: ["ram_gb", "memory_score"] },
  { name: "storage", size: "storageGb", score: "storageScore", api: ["storage_gb", "storage_score"] },
  { name: "network", size: "networkMbps", score: "networkScore", api: ["network_mbps", "network_score"] },
] as const;

/**
 * The value of a unit: each resource contributes its share of the reference value in proportion to
 * its score against the reference's score, rounded down to the base unit per resource. The
 * reference server is worth exactly 100 sSTB; a unit measuring half of it on every resource, 50.
 */
export function cuValueOf(specs: ComputeSpecs): bigint {
  let value = 0n;
  for (const r of RESOURCES) {
    const share = (REFERENCE_VALUE * BigInt(VALUE_SHARES_BPS[r.name])) / 10_000n;
    value += (share * BigInt(specs[r.score])) / BigInt(REFERENCE_SERVER[r.score]);
  }
  return value;
}

/** Why a set of figures is implausible. */
export interface Implausibility {
  /** The API's field name of the offending score. */
  parameter: string;
  reason: string;
}

/**
 * Checks each score against the band {@link PLAUSIBLE_RATIO_BPS} around what the stated hardware
 * would score at the reference's rate; the first figure outside it, or undefined when all are in.
 * Integer arithmetic: score x refSize x 10,000 vs ratio x size x refScore.
 */
export function implausibleFigure(specs: ComputeSpecs): Implausibility | undefined {
  for (const r of RESOURCES) {
    const size = BigInt(specs[r.size]);
    const score = BigInt(specs[r.score]);
    const measured = score * BigInt(REFERENCE_SERVER[r.size]) * 10_000n;
    const expected = size * BigInt(REFERENCE_SERVER[r.score]);
    const [sizeField, scoreField] = r.api;
    if (measured < expected * BigInt(PLAUSIBLE_RATIO_BPS.min)) {
      return {
        parameter: `benchmark_results.${scoreField}`,
        reason: `${score} is below ${PLAUSIBLE_RATIO_BPS.min / 100}% of what ${size} of ${sizeField} would score`,
      };
    }
    if (measured > expected * BigInt(PLAUSIBLE_RATIO_BPS.max)) {
      return {
        parameter: `benchmark_results.${scoreField}`,
        reason: `${score} is above ${PLAUSIBLE_RATIO_BPS.max / 100}% of what ${size} of ${sizeField} can score`,
      };
    }
  }
  return undefined;
}

/** Figures that score `ratioBps` of the reference's rate on every resource of `hardware` (for tests and samples). */
export function scoresFor(
  hardware: Pick<ComputeSpecs, "cpuCores" | "ramGb" | "storageGb" | "networkMbps">,
  ratioBps = 10_000,
): ComputeSpecs {
  const scores = Object.fromEntries(
    RESOURCES.map((r) => [
      r.score,
      Math.floor((hardware[r.size] * REFERENCE_SERVER[r.score] * ratioBps) / REFERENCE_SERVER[r.size] / 10_000),
    ]),
  ) as Pick<ComputeSpecs, "cpuScore" | "memoryScore" | "storageScore" | "networkScore">;
  return { ...hardware, ...scores };
}
