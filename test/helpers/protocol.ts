import { parseEther, parseUnits } from "ethers";
import type { Wallet } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";

import { attestationDomain, buildProof, cuHashOf, hashReviewedProfile, randomNonce } from "@compute-capacity/sdk";
import { sampleVerifierKeys } from "../../gateway/verification/keys.js";
import type { Attestation } from "@compute-capacity/sdk";
import { deployPrimary } from "../../deploy/deploy.js";
import type { IgnitionConnection, PrimaryDeployment } from "../../deploy/deploy.js";
import {
  LOCAL_COLLATERAL_PER_CU,
  LOCAL_GOVERNANCE_SUPPLY,
  SAMPLE_SPECS,
  localDeployOptions,
  sampleProfile,
} from "../../devnet/samples.js";

export const DAY = 24n * 60n * 60n;
/** The local deployment's price (1 USDC per sSTB) and governance supply. */
export const COLLATERAL_PER_CU = LOCAL_COLLATERAL_PER_CU;
export const GOVERNANCE_SUPPLY = LOCAL_GOVERNANCE_SUPPLY;
export const Tier = { Standard: 0n, Premium: 1n, Enterprise: 2n } as const;
export const Status = { None: 0n, Pending: 1n, Active: 2n, Suspended: 3n } as const;

export { SAMPLE_SPECS, sampleProfile };

export interface ProtocolFixture extends PrimaryDeployment {
  deployer: HardhatEthersSigner;
  treasury: HardhatEthersSigner;
  approver: HardhatEthersSigner;
  arbitrator: HardhatEthersSigner;
  provider: HardhatEthersSigner;
  provider2: HardhatEthersSigner;
  user: HardhatEthersSigner;
  stranger: HardhatEthersSigner;
  guardian: HardhatEthersSigner;
  verifierKeys: Wallet[];
  chainId: bigint;
  /** A valid attestation for `provider`, with optional overrides. */
  attestation(provider: string, overrides?: Partial<Attestation>): Promise<Attestation>;
  /** Signs and encodes an attestation, by default with verifier keys 0 and 1. */
  proof(attestation: Attestation, signers?: Wallet[]): Promise<string>;
}

/**
 * Deploys the primary chain and names the accounts every test uses. Unit tests keep the deployer
 * as governance (`handOff: false`, the default here) to call governed setters directly;
 * governance tests deploy as on a real chain (`handOff: true`).
 */
export async function deployProtocol(
  connection: IgnitionConnection,
  { handOff = false }: { handOff?: boolean } = {},
): Promise<ProtocolFixture> {
  const { ethers } = connection;
  const [deployer, treasury, approver, arbitrator, provider, provider2, user, stranger, guardian] =
    await ethers.getSigners();
  // three deterministic verifier keys; the fixture's verifier needs two of them
  const verifierKeys = sampleVerifierKeys("verifier");
  const deployment = await deployPrimary(
    connection,
    localDeployOptions({ treasury, approver, arbitrator, guardian }, verifierKeys, { handOff }),
  );
  const { chainId } = await ethers.provider.getNetwork();
  const domain = attestationDomain(chainId, await deployment.verifier.getAddress());

  for (const p of [provider, provider2]) {
    await deployment.collateral.mint(p.address, parseUnits("1000000", 6));
    await deployment.collateral.connect(p).approve(await deployment.mintingAgent.getAddress(), ethers.MaxUint256);
    await deployment.collateral.connect(p).approve(await deployment.registry.getAddress(), ethers.MaxUint256);
  }

  return {
    ...deployment,
    deployer,
    treasury,
    approver,
    arbitrator,
    provider,
    provider2,
    user,
    stranger,
    guardian,
    verifierKeys,
    chainId,
    async attestation(providerAddress, overrides = {}) {
      const now = BigInt((await ethers.provider.getBlock("latest"))!.timestamp);
      const nonce = randomNonce();
      return {
        provider: providerAddress,
        cuHash: cuHashOf({ provider: providerAddress, nonce: nonce.toString() }),
        cuValue: parseEther("100"),
        specs: SAMPLE_SPECS,
        expiry: now + DAY,
        nonce,
        ...overrides,
      };
    },
    proof(attestation, signers = verifierKeys.slice(0, 2)) {
      return buildProof(attestation, domain, signers);
    },
  };
}

/** The hash an approver passes after reviewing `sampleProfile(name)` registered with `tier`. */
export function reviewedSample(tier: bigint = Tier.Standard, name?: string): string {
  return hashReviewedProfile(sampleProfile(name), tier);
}

/** Registers `signer` as a provider and has the approver activate it. */
export async function registerActive(
  f: ProtocolFixture,
  signer: HardhatEthersSigner,
  tier: bigint = Tier.Standard,
): Promise<void> {
  await f.registry.connect(signer).register(sampleProfile(), tier);
  await f.registry.connect(f.approver).approveProvider(signer.address, reviewedSample(tier));
}

/** Collateral that backs `value` sSTB at the fixture's default 120% ratio and price. */
export function collateralFor(value: bigint): bigint {
  return (value * 12_000n * COLLATERAL_PER_CU + 10_000n * 10n ** 18n - 1n) / (10_000n * 10n ** 18n);
}

/** Mints `cuValue` sSTB for an active provider, posting exactly the required collateral. */
export async function mintFor(
  f: ProtocolFixture,
  signer: HardhatEthersSigner,
  cuValue: bigint = parseEther("100"),
  stakingPeriod: bigint = 30n * DAY,
): Promise<bigint> {
  const attestation = await f.attestation(signer.address, { cuValue });
  const proof = await f.proof(attestation);
  const account = await f.registry.accountOf(signer.address);
  const needed = collateralFor(account.availableCU + cuValue) - account.freeCollateral;
  await f.mintingAgent.connect(signer).verifyAndMintSSTB(proof, needed > 0n ? needed : 0n, stakingPeriod);
  return f.cuToken.totalComputeUnits();
}
