import { parseEther, parseUnits } from "ethers";
import type { Wallet } from "ethers";

import { REFERENCE_SERVER } from "@compute-capacity/sdk";
import type { AccessDetails, ComputeSpecs } from "@compute-capacity/sdk";
import type { PrimaryDeployOptions } from "../deploy/deploy.js";
import type { GovernanceSettings } from "../deploy/governance-settings.js";

/** Sample data for local chains, demos, benchmarks and tests: never used on a real chain. */

/** A plausible benchmarked server: the valuation's reference server (worth exactly 100 sSTB). */
export const SAMPLE_SPECS: ComputeSpecs = { ...REFERENCE_SERVER };

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

/** 1 USDC (6 decimals) of collateral per whole sSTB. */
export const LOCAL_COLLATERAL_PER_CU = parseUnits("1", 6);
/** Governance token supply on local chains. */
export const LOCAL_GOVERNANCE_SUPPLY = parseEther("100000000");

/**
 * Governance on local chains: the same shape as production with delays short enough for a demo
 * or a test (a minute to vote after proposing, an hour to vote, ten minutes of timelock).
 */
export const LOCAL_GOVERNANCE: GovernanceSettings = {
  votingDelay: 60n,
  votingPeriod: 3_600n,
  proposalThreshold: parseEther("100000"),
  quorumPercent: 4n,
  timelockDelay: 600n,
};

/** The accounts that hold a local deployment's treasury and operational roles. */
export interface LocalRoleAccounts {
  treasury: string;
  approver: string;
  arbitrator: string;
  guardian: string;
}

/**
 * Deployment options for a local chain: mock collateral, 1 USDC per sSTB, the given verifier keys
 * with a threshold of 2, local governance settings, and the given role accounts.
 */
export function localDeployOptions(
  accounts: { [K in keyof LocalRoleAccounts]: string | { address: string } },
  verifierKeys: readonly Wallet[],
  extra: Pick<PrimaryDeployOptions, "handOff" | "onStep" | "deploymentId" | "collateralToken"> = {},
): PrimaryDeployOptions {
  const address = (a: string | { address: string }) => (typeof a === "string" ? a : a.address);
  return {
    treasury: address(accounts.treasury),
    approver: address(accounts.approver),
    arbitrator: address(accounts.arbitrator),
    guardian: address(accounts.guardian),
    collateralPerCU: LOCAL_COLLATERAL_PER_CU,
    verifiers: verifierKeys.map((w) => w.address),
    verifierThreshold: 2,
    governanceSupply: LOCAL_GOVERNANCE_SUPPLY,
    cuTokenUri: "https://api.compute.example/api/v1/cu/{id}",
    governance: LOCAL_GOVERNANCE,
    ...extra,
  };
}

/**
 * Access details a provider might hand over for `redemptionId` (SPEC.md field names). The SSH key
 * is a sample public key; real details come from the provider's provisioning system.
 */
export function sampleAccessDetails(redemptionId: bigint): AccessDetails {
  return {
    redemption_id: redemptionId.toString(),
    access_type: "ssh",
    hostname: "node-17.eu-central.acme.example",
    port: 22,
    username: `redeem-${redemptionId.toString()}`,
    ssh_key: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGZ1bGZpbG1lbnQta2V5LWZvci1yZWRlbXB0aW9uLXRlc3Q= provider@acme",
    expiration: "2026-12-31T23:59:59Z",
    resources: { cpu_cores: 16, memory_gb: 64, storage_gb: 1000, bandwidth_mbps: 1000 },
    documentation_url: "https://docs.acme.example/redemptions/ssh",
  };
}
