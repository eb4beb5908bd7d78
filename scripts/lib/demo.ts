import { formatEther, formatUnits, parseEther } from "ethers";
import type { HardhatEthers } from "@nomicfoundation/hardhat-ethers/types";

import { generateAccessKeyPair } from "./access-details.js";
import { attestationDomain, buildProof, cuHashOf, randomNonce } from "./attestation.js";
import { addressesOf, deployPrimary } from "./deploy.js";
import type { PrimaryDeployment } from "./deploy.js";
import { fulfilEncrypted, readAccessDetails, redeem, statusName } from "./redemption.js";
import { SAMPLE_SPECS, localDeployOptions, sampleAccessDetails, sampleProfile, sampleVerifierKeys } from "./samples.js";

const DAY = 86_400n;

/** What the demo leaves behind, for tests to check. */
export interface DemoResult {
  addresses: Record<string, string>;
  deployment: PrimaryDeployment;
  provider: string;
  cuId: bigint;
  user: string;
  /** The redemption the demo ran to confirmation. */
  redemptionId: bigint;
}

/**
 * Deploys the primary chain's contracts on `ethers`' chain and walks one provider through
 * registration, approval, a 2-of-3 verified mint and a look at the CU record, then a user through a
 * redemption with encrypted access details, reporting each step.
 */
export async function runFoundationDemo(ethers: HardhatEthers, log: (line: string) => void): Promise<DemoResult> {
  const [deployer, treasury, approver, provider, user] = await ethers.getSigners();
  const verifierKeys = sampleVerifierKeys("demo-verifier");
  const { chainId } = await ethers.provider.getNetwork();

  log(`Deploying the primary chain's contracts (chain id ${chainId}, in-process)...`);
  const deployment = await deployPrimary(
    localDeployOptions(deployer, treasury.address, verifierKeys, {
      approvers: [approver.address],
      onStep: (step) => log(`  deployed: ${step}`),
    }),
  );
  const addresses = await addressesOf(deployment);
  log("");
  log("Contracts:");
  for (const [name, address] of Object.entries(addresses)) log(`  ${name.padEnd(20)} ${address}`);
  log("");

  const { registry, mintingAgent, collateral, sstb, cuToken } = deployment;
  log(`Provider ${provider.address}:`);
  await (await registry.connect(provider).register(sampleProfile(), 1)).wait();
  log("  1. registered (tier premium), status pending");
  await (await registry.connect(approver).approveProvider(provider.address)).wait();
  log("  2. approved by the approver role, status active");

  const cuValue = parseEther("100");
  const needed = await registry.requiredCollateral(cuValue);
  await (await collateral.mint(provider.address, needed)).wait();
  await (await collateral.connect(provider).approve(await mintingAgent.getAddress(), needed)).wait();
  const now = BigInt((await ethers.provider.getBlock("latest"))!.timestamp);
  const proof = await buildProof(
    {
      provider: provider.address,
      cuHash: cuHashOf({ provider: provider.address, benchmark: "demo" }),
      cuValue,
      specs: SAMPLE_SPECS,
      expiry: now + DAY,
      nonce: randomNonce(),
    },
    attestationDomain(chainId, await deployment.verifier.getAddress()),
    verifierKeys.slice(0, 2),
  );
  const receipt = await (await mintingAgent.connect(provider).verifyAndMintSSTB(proof, needed, 30n * DAY)).wait();
  const cuId = await cuToken.totalComputeUnits();
  log(
    `  3. verified by a 2-of-3 attestation; posted ${formatUnits(needed, 6)} mUSDC; ` +
      `minted ${formatEther(await sstb.balanceOf(provider.address))} sSTB (gas ${receipt!.gasUsed})`,
  );
  const unit = await cuToken.computeUnit(cuId);
  log(
    `  4. CU #${cuId} recorded (value ${formatEther(unit.cuValue)}, ${unit.specs.cpuCores} cores), ` +
      `token balance now ${await cuToken.balanceOf(provider.address, cuId)} (burned)`,
  );
  const account = await registry.accountOf(provider.address);
  log(
    `  5. available capacity ${formatEther(account.availableCU)} sSTB, free collateral ` +
      `${formatUnits(account.freeCollateral, 6)} mUSDC, reputation ${Number(account.reputation) / 100}`,
  );

  const manager = deployment.redemptionManager;
  const userKeys = generateAccessKeyPair();
  log("");
  log(`User ${user.address}:`);
  await (await sstb.connect(provider).transfer(user.address, parseEther("10"))).wait();
  log("  6. bought 10 sSTB from the provider");
  const { redemptionId } = await redeem(manager, sstb, user, parseEther("5"), provider.address);
  const stored = await manager.redemptionOf(redemptionId);
  log(
    `  7. redeemed 5 sSTB with the provider: redemption #${redemptionId}, ` +
      `${formatUnits(stored.lock, 6)} mUSDC of collateral locked, fulfil by ${new Date(Number(stored.deadline) * 1000).toISOString()}`,
  );
  const { envelope } = await fulfilEncrypted(
    manager,
    provider,
    redemptionId,
    sampleAccessDetails(redemptionId),
    userKeys.publicKey,
    chainId,
  );
  log(`  8. provider fulfilled with a ${envelope.length}-character encrypted envelope: ${envelope.slice(0, 32)}...`);
  const details = await readAccessDetails(manager, redemptionId, userKeys.privateKey, chainId);
  log(`  9. user decrypted it: ${details.access_type} ${details.username}@${details.hostname}:${details.port}`);
  await (await manager.connect(user).confirmRedemption(redemptionId)).wait();
  const after = await registry.accountOf(provider.address);
  log(
    ` 10. user confirmed: status ${statusName(await manager.redemptionStatus(redemptionId))}, ` +
      `lock released, provider reputation ${Number(after.reputation) / 100}`,
  );
  log("");
  log("Done.");
  return { addresses, deployment, provider: provider.address, cuId, user: user.address, redemptionId };
}
