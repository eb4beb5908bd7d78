import { parseEther } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";

import { attestationDomain, buildProof, cuHashOf } from "../../scripts/lib/attestation.js";
import { deployPrimary } from "../../scripts/lib/deploy.js";
import type { IgnitionConnection, PrimaryDeployment } from "../../scripts/lib/deploy.js";
import {
  LOCAL_GOVERNANCE,
  SAMPLE_SPECS,
  localDeployOptions,
  sampleProfile,
  sampleVerifierKeys,
} from "../../scripts/lib/samples.js";
import { collateralFor } from "./protocol.js";

export const GOVERNANCE = LOCAL_GOVERNANCE;

export interface GovernedFixture extends PrimaryDeployment {
  deployer: HardhatEthersSigner;
  treasury: HardhatEthersSigner;
  approver: HardhatEthersSigner;
  arbitrator: HardhatEthersSigner;
  provider: HardhatEthersSigner;
  user: HardhatEthersSigner;
  stranger: HardhatEthersSigner;
  guardian: HardhatEthersSigner;
  voter: HardhatEthersSigner;
}

/**
 * A deployment exactly as on a real chain (roles handed to the timelock), with an active
 * provider, a pending redemption (id 1) by the user, the treasury's votes delegated to itself and
 * 5% of the supply with a second voter.
 */
export async function deployGovernedProtocol(connection: IgnitionConnection): Promise<GovernedFixture> {
  const { ethers } = connection;
  const [deployer, treasury, approver, arbitrator, provider, , user, stranger, guardian, voter] =
    await ethers.getSigners();
  const d = await deployPrimary(
    connection,
    localDeployOptions({ treasury, approver, arbitrator, guardian }, sampleVerifierKeys("verifier")),
  );

  await d.governanceToken.connect(treasury).transfer(voter.address, (await d.governanceToken.totalSupply()) / 20n);
  await d.governanceToken.connect(treasury).delegate(treasury.address);
  await d.governanceToken.connect(voter).delegate(voter.address);

  // a provider with capacity and a user with a pending redemption, to show upgrades keep them
  await d.registry.connect(provider).register(sampleProfile(), 0);
  await d.registry.connect(approver).approveProvider(provider.address);
  const { chainId } = await ethers.provider.getNetwork();
  const now = BigInt((await ethers.provider.getBlock("latest"))!.timestamp);
  const value = parseEther("100");
  const proof = await buildProof(
    {
      provider: provider.address,
      cuHash: cuHashOf({ governed: true }),
      cuValue: value,
      specs: SAMPLE_SPECS,
      expiry: now + 86_400n,
      nonce: 1n,
    },
    attestationDomain(chainId, await d.verifier.getAddress()),
    sampleVerifierKeys("verifier").slice(0, 2),
  );
  await d.collateral.mint(provider.address, collateralFor(value));
  await d.collateral.connect(provider).approve(await d.mintingAgent.getAddress(), collateralFor(value));
  await d.mintingAgent.connect(provider).verifyAndMintSSTB(proof, collateralFor(value), 30n * 86_400n);
  await d.sstb.connect(provider).transfer(user.address, parseEther("20"));
  await d.sstb.connect(user).approve(await d.redemptionManager.getAddress(), ethers.MaxUint256);
  await d.redemptionManager.connect(user).initiateRedemption(parseEther("10"), provider.address);

  return { ...d, deployer, treasury, approver, arbitrator, provider, user, stranger, guardian, voter };
}
