import { MaxUint256, formatEther, formatUnits, parseEther, parseUnits } from "ethers";
import type { Signer, Wallet } from "ethers";

import {
  approveRedemptionSync,
  attestationDomain,
  buildProof,
  cost,
  cuHashOf,
  cuValueOf,
  fulfilRedemptionSync,
  generateAccessKeyPair,
  getAccessDetails,
  hashReviewedProfile,
  initiateRedemptionSync,
  listingStatusName,
  randomNonce,
  statusName,
} from "@compute-capacity/sdk";
import type { ProtocolClient } from "@compute-capacity/sdk";
import { sampleVerifierKeys } from "../gateway/verification/keys.js";
import { addressesOf, deployPrimary } from "../deploy/deploy.js";
import type { IgnitionConnection, PrimaryDeployment } from "../deploy/deploy.js";
import { SAMPLE_SPECS, localDeployOptions, sampleAccessDetails, sampleProfile } from "./samples.js";

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
  /** The market positions: the spot listing (left active), the settled future, the exercised call. */
  listings: { spot: bigint; future: bigint; call: bigint };
}

/**
 * The protocol's story through real contracts, step by step: a provider registers, is approved,
 * deposits collateral, is verified by a 2-of-3 attestation, mints sSTB and lists 20 on the spot
 * market; a user buys 10 of them,
 * redeems, receives encrypted access details, decrypts them and confirms; a second redemption
 * expires (time travel past the premium tier's 6 h) and the user is compensated. Then the
 * futures and options markets: a forward taken and settled after a 7-day time jump, and a covered
 * call written, bought and exercised. Works on an
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

  const cuValue = cuValueOf(SAMPLE_SPECS); // the reference server: 100 sSTB
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
  const { spotMarket: spot } = d;
  const usdc = (value: bigint) => `${formatUnits(value, 6)} mUSDC`;
  await (await collateral.connect(userSigner).mint(user, parseUnits("100", 6))).wait();
  for (const market of [spot, d.futuresMarket, d.optionsMarket]) {
    const address = await market.getAddress();
    await (await sstb.connect(providerSigner).approve(address, MaxUint256)).wait();
    await (await collateral.connect(userSigner).approve(address, MaxUint256)).wait();
  }
  const spotPrice = parseUnits("1.5", 6);
  const listedAt = BigInt((await chain.getBlock("latest"))!.timestamp);
  const listing = await spot
    .connect(providerSigner)
    .createListing.staticCall(parseEther("20"), spotPrice, listedAt + DAY);
  await (await spot.connect(providerSigner).createListing(parseEther("20"), spotPrice, listedAt + DAY)).wait();
  log(`  5. listed 20 sSTB on the spot market at ${usdc(spotPrice)} each for a day: listing #${listing}`);
  log("");
  log(`User ${user}:`);
  const [paid, fee] = await spot.quoteFill(listing, parseEther("10"));
  await (await spot.connect(userSigner).buy(listing, parseEther("10"), spotPrice)).wait();
  const rest = await spot.listingOf(listing);
  log(
    `  6. bought 10 sSTB of listing #${listing} for ${usdc(paid)} (fee ${usdc(fee)} to the treasury); ` +
      `${formatEther(rest.remaining)} sSTB stay listed, status ${listingStatusName(rest.status)}`,
  );
  // the holder's and the provider's steps through the SDK's public actions, as any integrator runs them
  const addresses = await addressesOf(d);
  const userClient: ProtocolClient = { runner: userSigner, chainId, addresses };
  const providerClient: ProtocolClient = { runner: providerSigner, chainId, addresses };
  const redeem = async (amount: bigint) => {
    await approveRedemptionSync(userClient, { amount });
    return initiateRedemptionSync(userClient, { amount, provider });
  };
  const { redemptionId } = await redeem(parseEther("5"));
  const stored = await d.redemptionViews.redemptionOf(redemptionId);
  log(
    `  7. redeemed 5 sSTB: redemption #${redemptionId}, ${formatUnits(stored.lock, 6)} mUSDC locked, ` +
      `fulfil by ${new Date(Number(stored.deadline) * 1000).toISOString()}`,
  );
  const { envelope } = await fulfilRedemptionSync(providerClient, {
    redemptionId,
    details: sampleAccessDetails(redemptionId),
    userPublicKey: userKeys.publicKey,
  });
  log(`  8. provider fulfilled with a ${envelope.length}-character encrypted envelope: ${envelope.slice(0, 32)}...`);
  const details = await getAccessDetails(userClient, { redemptionId, privateKey: userKeys.privateKey });
  log(`  9. user decrypted it: ${details.access_type} ${details.username}@${details.hostname}:${details.port}`);
  await (await manager.connect(userSigner).confirmRedemption(redemptionId)).wait();
  log(
    `  10. user confirmed: status ${statusName(await d.redemptionViews.redemptionStatus(redemptionId))}, lock released, ` +
      `provider reputation ${Number((await registry.accountOf(provider)).reputation) / 100}`,
  );

  const late = await redeem(parseEther("2"));
  const { deadline } = await d.redemptionViews.redemptionOf(late.redemptionId);
  log(`  11. redeemed 2 sSTB more: redemption #${late.redemptionId}; the provider does not fulfil`);
  const wait = Number(deadline) - Number((await chain.getBlock("latest"))!.timestamp) + 1;
  await chain.send("evm_increaseTime", [wait]);
  await chain.send("evm_mine", []);
  const treasury = await d.redemptionViews.treasury();
  const [before, treasuryBefore] = [await collateral.balanceOf(user), await collateral.balanceOf(treasury)];
  await (await manager.connect(keeper).expireRedemption(late.redemptionId)).wait();
  const compensation = (await collateral.balanceOf(user)) - before;
  const penalty = (await collateral.balanceOf(treasury)) - treasuryBefore;
  log(
    `  12. ${wait} s later the deadline has passed: expired by a keeper, user compensated with ` +
      `${formatUnits(compensation, 6)} mUSDC (the early-exit penalty of ${formatUnits(penalty, 6)} mUSDC ` +
      `went to the treasury), provider reputation ${Number((await registry.accountOf(provider)).reputation) / 100}`,
  );

  const { future, call } = await tradeForwardAndOption(chain, d, providerSigner, userSigner, keeper, log);
  return {
    provider,
    user,
    cuId,
    redemptionId,
    expiredRedemptionId: late.redemptionId,
    compensation,
    listings: { spot: listing, future, call },
  };
}

/**
 * The futures and options markets: the provider sells 5 sSTB forward for settlement in a week, the
 * user takes it, a keeper settles after the time jump; then the provider writes a covered call on
 * 5 sSTB, the user buys it and exercises it whole.
 */
async function tradeForwardAndOption(
  chain: ScenarioChain,
  d: PrimaryDeployment,
  providerSigner: Signer,
  userSigner: Signer,
  keeper: Signer,
  log: (line: string) => void,
): Promise<{ future: bigint; call: bigint }> {
  const { futuresMarket: futures, optionsMarket: options, sstb } = d;
  const user = await userSigner.getAddress();
  const usdc = (value: bigint) => `${formatUnits(value, 6)} mUSDC`;
  const now = async () => BigInt((await chain.getBlock("latest"))!.timestamp);
  const amount = parseEther("5");

  log("");
  log("Markets:");
  const forwardPrice = parseUnits("1.6", 6);
  const settlement = (await now()) + 7n * DAY;
  const future = await futures.connect(providerSigner).offerToSell.staticCall(amount, forwardPrice, settlement);
  await (await futures.connect(providerSigner).offerToSell(amount, forwardPrice, settlement)).wait();
  await (await futures.connect(userSigner).take(future, forwardPrice)).wait();
  log(
    `  13. future #${future}: the provider sells 5 sSTB at ${usdc(forwardPrice)} for delivery in 7 days; ` +
      `the user took it and escrowed ${usdc(cost(amount, forwardPrice))}`,
  );
  await chain.send("evm_increaseTime", [Number(settlement - (await now()))]);
  await chain.send("evm_mine", []);
  const before = await sstb.balanceOf(user);
  await (await futures.connect(keeper).settle(future)).wait();
  log(
    `  14. 7 days later a keeper settled future #${future}: user received ${formatEther((await sstb.balanceOf(user)) - before)} sSTB, ` +
      `status ${listingStatusName((await futures.listingOf(future)).status)}`,
  );

  const strike = parseUnits("1.8", 6);
  const premium = parseUnits("0.1", 6);
  const expiry = (await now()) + 30n * DAY;
  const call = await options.connect(providerSigner).writeCall.staticCall(amount, strike, premium, expiry);
  await (await options.connect(providerSigner).writeCall(amount, strike, premium, expiry)).wait();
  log(
    `  15. option #${call}: the provider wrote a covered call on 5 sSTB, strike ${usdc(strike)}, premium ${usdc(premium)} each`,
  );
  await (await options.connect(userSigner).buyOption(call, premium)).wait();
  log(`  16. user bought the call for ${usdc(cost(amount, premium))} and holds it`);
  await (await options.connect(userSigner).exercise(call, amount)).wait();
  log(
    `  17. user exercised the call: paid ${usdc(cost(amount, strike))} for 5 sSTB, ` +
      `status ${listingStatusName((await options.listingOf(call)).status)}`,
  );
  return { future, call };
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
