import { formatEther, formatUnits, parseEther } from "ethers";
import type { Signer, Wallet } from "ethers";

import { generateAccessKeyPair } from "./access-details.js";
import { attestationDomain, buildProof, cuHashOf, randomNonce } from "./attestation.js";
import { addressesOf, deployPrimary } from "./deploy.js";
import { hashReviewedProfile } from "./provider-review.js";
import type { IgnitionConnection, PrimaryDeployment } from "./deploy.js";
import { fulfilEncrypted, readAccessDetails, redeem, statusName } from "./redemption.js";
import { SAMPLE_SPECS, localDeployOptions, sampleAccessDetails, sampleProfile, sampleVerifierKeys } from "./samples.js";

const DAY = 86_400n;

/** The JSON-RPC a scenario needs besides the contracts: chain id, block time, time travel. */
export interface ScenarioChain {
  send(method: string, params: unknown[]): Promise<unknown>;
  getBlock(tag: "latest"): Promise<{ timestamp: number } | null>;
  getNetwork(): Promise<{ chainId: bigint }>;
}

/** The accounts a scenario plays with. */
export interface ScenarioAccounts {
  approver: Signer;
  provider: Signer;
  user: Signer;
  /** Anyone: calls the expiry. */
  keeper: Signer;
}

/** What a scenario leaves behind, for tests to check. */
export interface ScenarioResult {
  provider: string;
  user: string;
  cuId: bigint;
  /** The redemption run to confirmation. */
  redemptionId: bigint;
  /** The redemption left to expire, and what the user received for it. */
  expiredRedemptionId: bigint;
  compensation: bigint;
}

/**
 * The protocol's story through real contracts, step by step: a provider registers, is approved,
 * deposits collateral, is verified by a 2-of-3 attestation and mints sSTB; a user buys sSTB,
 * redeems, receives encrypted access details, decrypts them and confirms; a second redemption
 * expires (time travel past the premium tier's 6 h) and the user is compensated. Works on an
 * in-process chain and on a `hardhat node` over JSON-RPC alike.
 */
export async function runScenario(
  chain: ScenarioChain,
  d: PrimaryDeployment,
  accounts: ScenarioAccounts,
  verifierKeys: readonly Wallet[],
  log: (line: string) => void,
): Promise<ScenarioResult> {
  const { approver, provider: providerSigner, user: userSigner, keeper } = accounts;
  const provider = await providerSigner.getAddress();
  const user = await userSigner.getAddress();
  const { chainId } = await chain.getNetwork();
  const { registry, mintingAgent, collateral, sstb, cuToken, redemptionManager: manager } = d;

  log(`Provider ${provider}:`);
  await (await registry.connect(providerSigner).register(sampleProfile(), 1)).wait();
  log("  1. registered (tier premium), status pending");
  await (await registry.connect(approver).approveProvider(provider, hashReviewedProfile(sampleProfile(), 1))).wait();
  log("  2. approved by the approver role, status active");

  const cuValue = parseEther("100");
  const needed = await registry.requiredCollateral(cuValue);
  await (await collateral.connect(providerSigner).mint(provider, needed)).wait();
  await (await collateral.connect(providerSigner).approve(await registry.getAddress(), needed)).wait();
  await (await registry.connect(providerSigner).depositCollateral(needed)).wait();
  log(`  3. deposited ${formatUnits(needed, 6)} mUSDC of collateral (120% of 100 sSTB at 1 mUSDC each)`);

  const now = BigInt((await chain.getBlock("latest"))!.timestamp);
  const proof = await buildProof(
    {
      provider,
      cuHash: cuHashOf({ provider, benchmark: "demo", nonce: randomNonce().toString() }),
      cuValue,
      specs: SAMPLE_SPECS,
      expiry: now + DAY,
      nonce: randomNonce(),
    },
    attestationDomain(chainId, await d.verifier.getAddress()),
    verifierKeys.slice(0, 2),
  );
  const receipt = await (await mintingAgent.connect(providerSigner).verifyAndMintSSTB(proof, 0n, 30n * DAY)).wait();
  const cuId = await cuToken.totalComputeUnits();
  const unit = await cuToken.computeUnit(cuId);
  log(
    `  4. verified by a 2-of-3 attestation: CU #${cuId} (${unit.specs.cpuCores} cores), ` +
      `minted ${formatEther(await sstb.balanceOf(provider))} sSTB (gas ${receipt!.gasUsed})`,
  );

  const userKeys = generateAccessKeyPair();
  log("");
  log(`User ${user}:`);
  await (await sstb.connect(providerSigner).transfer(user, parseEther("10"))).wait();
  log("  5. bought 10 sSTB from the provider");
  const { redemptionId } = await redeem(manager, sstb, userSigner, parseEther("5"), provider);
  const stored = await manager.redemptionOf(redemptionId);
  log(
    `  6. redeemed 5 sSTB: redemption #${redemptionId}, ${formatUnits(stored.lock, 6)} mUSDC locked, ` +
      `fulfil by ${new Date(Number(stored.deadline) * 1000).toISOString()}`,
  );
  const { envelope } = await fulfilEncrypted(
    manager,
    providerSigner,
    redemptionId,
    sampleAccessDetails(redemptionId),
    userKeys.publicKey,
    chainId,
  );
  log(`  7. provider fulfilled with a ${envelope.length}-character encrypted envelope: ${envelope.slice(0, 32)}...`);
  const details = await readAccessDetails(manager, redemptionId, userKeys.privateKey, chainId);
  log(`  8. user decrypted it: ${details.access_type} ${details.username}@${details.hostname}:${details.port}`);
  await (await manager.connect(userSigner).confirmRedemption(redemptionId)).wait();
  log(
    `  9. user confirmed: status ${statusName(await manager.redemptionStatus(redemptionId))}, lock released, ` +
      `provider reputation ${Number((await registry.accountOf(provider)).reputation) / 100}`,
  );

  const late = await redeem(manager, sstb, userSigner, parseEther("2"), provider);
  const { deadline } = await manager.redemptionOf(late.redemptionId);
  log(`  10. redeemed 2 sSTB more: redemption #${late.redemptionId}; the provider does not fulfil`);
  const wait = Number(deadline) - Number((await chain.getBlock("latest"))!.timestamp) + 1;
  await chain.send("evm_increaseTime", [wait]);
  await chain.send("evm_mine", []);
  const treasury = await manager.treasury();
  const [before, treasuryBefore] = [await collateral.balanceOf(user), await collateral.balanceOf(treasury)];
  await (await manager.connect(keeper).expireRedemption(late.redemptionId)).wait();
  const compensation = (await collateral.balanceOf(user)) - before;
  const penalty = (await collateral.balanceOf(treasury)) - treasuryBefore;
  log(
    `  11. ${wait} s later the deadline has passed: expired by a keeper, user compensated with ` +
      `${formatUnits(compensation, 6)} mUSDC (the early-exit penalty of ${formatUnits(penalty, 6)} mUSDC ` +
      `went to the treasury), provider reputation ${Number((await registry.accountOf(provider)).reputation) / 100}`,
  );
  return { provider, user, cuId, redemptionId, expiredRedemptionId: late.redemptionId, compensation };
}

/** What the in-process demo leaves behind. */
export interface DemoResult extends ScenarioResult {
  addresses: Record<string, string>;
  deployment: PrimaryDeployment;
}

/** Deploys the primary chain on `connection`'s chain with Ignition, prints it, runs the scenario. */
export async function runFoundationDemo(
  connection: IgnitionConnection,
  log: (line: string) => void,
): Promise<DemoResult> {
  const { ethers } = connection;
  const [, treasury, approver, arbitrator, guardian, provider, user, keeper] = await ethers.getSigners();
  const verifierKeys = sampleVerifierKeys("demo-verifier");
  const { chainId } = await ethers.provider.getNetwork();

  log(`Deploying the primary chain's contracts with Ignition (chain id ${chainId}, in-process)...`);
  const deployment = await deployPrimary(
    connection,
    localDeployOptions({ treasury, approver, arbitrator, guardian }, verifierKeys, {
      onStep: (step) => log(`  deployed: ${step}`),
    }),
  );
  const addresses = await addressesOf(deployment);
  log("");
  log("Contracts:");
  for (const [name, address] of Object.entries(addresses)) log(`  ${name.padEnd(20)} ${address}`);
  log("");
  const result = await runScenario(
    ethers.provider,
    deployment,
    { approver, provider, user, keeper },
    verifierKeys,
    log,
  );
  log("");
  log("Done.");
  return { ...result, addresses, deployment };
}
