import { ZeroAddress, ZeroHash, parseEther, parseUnits } from "ethers";
import type { BaseContract, BytesLike, Wallet } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { NetworkConnection } from "hardhat/types/network";

import {
  AttestationVerifier__factory,
  CUToken__factory,
  ERC1967Proxy__factory,
  MintingAgent__factory,
  MintingAgentV1__factory,
  MockStablecoin__factory,
  ProtocolTimelock__factory,
  ProviderRegistry__factory,
  ProviderRegistryV1__factory,
  RedemptionManager__factory,
  RedemptionManagerV1__factory,
  RedemptionViews__factory,
  SSTB__factory,
} from "../../typechain-types/index.js";
import type {
  AttestationVerifier,
  CUToken,
  MintingAgent,
  MintingAgentV1,
  MockStablecoin,
  ProtocolTimelock,
  ProviderRegistry,
  ProviderRegistryV1,
  RedemptionManager,
  RedemptionManagerV1,
  RedemptionViews,
  SSTB,
} from "../../typechain-types/index.js";
import { Roles, attestationDomain, buildProof, cuHashOf, randomNonce } from "@compute-capacity/sdk";
import { sampleVerifierKeys } from "../../gateway/verification/keys.js";
import type { IgnitionConnection } from "../../deploy/deploy.js";
import { LOCAL_COLLATERAL_PER_CU, SAMPLE_SPECS, sampleProfile } from "../../devnet/samples.js";

/** The timelock delay of the legacy deployment (production's 2 days). */
export const LEGACY_TIMELOCK_DELAY = 2n * 24n * 3_600n;

/**
 * A primary deployment as the first implementation left it (`contracts/mocks/upgrades/legacy/`,
 * frozen from commit 2c890a0): the registry, minting agent and redemption manager proxies were
 * initialized by that code, and today's tokens and verifier (unchanged in what that code calls)
 * surround them. Every admin, upgrade and parameter role of the three proxies is with a timelock,
 * as after the hand-off; the deployer proposes to it.
 */
export interface LegacyDeployment {
  deployer: HardhatEthersSigner;
  treasury: HardhatEthersSigner;
  approver: HardhatEthersSigner;
  arbitrator: HardhatEthersSigner;
  provider: HardhatEthersSigner;
  user: HardhatEthersSigner;
  stranger: HardhatEthersSigner;
  guardian: HardhatEthersSigner;
  collateral: MockStablecoin;
  cuToken: CUToken;
  sstb: SSTB;
  verifier: AttestationVerifier;
  timelock: ProtocolTimelock;
  /** The proxies through the first implementation's ABI. */
  v1: { registry: ProviderRegistryV1; mintingAgent: MintingAgentV1; redemptionManager: RedemptionManagerV1 };
  /** The same proxies through today's ABI (meaningful once upgraded). */
  registry: ProviderRegistry;
  mintingAgent: MintingAgent;
  redemptionManager: RedemptionManager;
  /** Today's read contract of the manager's proxy (meaningful once upgraded). */
  redemptionViews: RedemptionViews;
  /** Mints `cuValue` sSTB to `provider` through the minting agent (the first implementation's or today's). */
  mint(cuValue: bigint): Promise<void>;
}

async function proxy(deployer: HardhatEthersSigner, implementation: BaseContract, init: string): Promise<string> {
  const deployed = await new ERC1967Proxy__factory(deployer).deploy(await implementation.getAddress(), init);
  return deployed.getAddress();
}

/**
 * Deploys the legacy primary chain, hands the three proxies to a timelock, registers and approves
 * a provider with the first implementation's `approveProvider(provider)`, and mints it 100 sSTB
 * through the first implementation's minting agent; the user holds 50 sSTB and approved the manager.
 */
export async function deployLegacyProtocol(connection: IgnitionConnection): Promise<LegacyDeployment> {
  const { ethers } = connection;
  const [deployer, treasury, approver, arbitrator, provider, , user, stranger, guardian] = await ethers.getSigners();
  const verifierKeys: Wallet[] = sampleVerifierKeys("verifier");

  const collateral = await new MockStablecoin__factory(deployer).deploy();
  const cuToken = await new CUToken__factory(deployer).deploy(deployer.address, "https://cu.example/{id}");
  const sstbImplementation = await new SSTB__factory(deployer).deploy();
  const sstb = SSTB__factory.connect(
    await proxy(
      deployer,
      sstbImplementation,
      sstbImplementation.interface.encodeFunctionData("initialize", [deployer.address]),
    ),
    deployer,
  );
  const verifier = await new AttestationVerifier__factory(deployer).deploy(
    deployer.address,
    verifierKeys.map((k) => k.address),
    2,
  );

  const registryImplementation = await new ProviderRegistryV1__factory(deployer).deploy();
  const registryAddress = await proxy(
    deployer,
    registryImplementation,
    registryImplementation.interface.encodeFunctionData("initialize", [
      deployer.address,
      await collateral.getAddress(),
      LOCAL_COLLATERAL_PER_CU,
    ]),
  );
  const agentImplementation = await new MintingAgentV1__factory(deployer).deploy(
    registryAddress,
    await cuToken.getAddress(),
    await sstb.getAddress(),
  );
  const agentAddress = await proxy(
    deployer,
    agentImplementation,
    agentImplementation.interface.encodeFunctionData("initialize", [deployer.address, await verifier.getAddress()]),
  );
  const managerImplementation = await new RedemptionManagerV1__factory(deployer).deploy(
    registryAddress,
    await sstb.getAddress(),
  );
  const managerAddress = await proxy(
    deployer,
    managerImplementation,
    managerImplementation.interface.encodeFunctionData("initialize", [deployer.address, treasury.address]),
  );
  const v1 = {
    registry: ProviderRegistryV1__factory.connect(registryAddress, deployer),
    mintingAgent: MintingAgentV1__factory.connect(agentAddress, deployer),
    redemptionManager: RedemptionManagerV1__factory.connect(managerAddress, deployer),
  };

  // the wiring of that deployment (deploy/modules/PrimaryCore.ts at 2c890a0)
  const grants: [{ grantRole(role: BytesLike, account: string): Promise<unknown> }, string, string][] = [
    [cuToken, Roles.MINTER, agentAddress],
    [sstb, Roles.MINTER, agentAddress],
    [sstb, Roles.BURNER, agentAddress],
    [sstb, Roles.BURNER, managerAddress],
    [v1.registry, Roles.MINTING_AGENT, agentAddress],
    [v1.registry, Roles.REDEMPTION_MANAGER, managerAddress],
    [verifier, Roles.CONSUMER, agentAddress],
    [v1.registry, Roles.APPROVER, approver.address],
    [v1.registry, Roles.ARBITRATOR, arbitrator.address],
    [v1.redemptionManager, Roles.ARBITRATOR, arbitrator.address],
    [v1.mintingAgent, Roles.GUARDIAN, guardian.address],
    [v1.redemptionManager, Roles.GUARDIAN, guardian.address],
  ];
  for (const [contract, role, account] of grants) await contract.grantRole(role, account);

  // the hand-off: the three proxies' admin, upgrade and parameter roles go to the timelock
  const timelock = await new ProtocolTimelock__factory(deployer).deploy(
    LEGACY_TIMELOCK_DELAY,
    [deployer.address],
    [ZeroAddress],
    deployer.address,
  );
  const timelockAddress = await timelock.getAddress();
  for (const contract of [v1.registry, v1.mintingAgent, v1.redemptionManager]) {
    for (const role of [Roles.GOVERNANCE, Roles.UPGRADER, Roles.DEFAULT_ADMIN]) {
      await contract.grantRole(role, timelockAddress);
    }
    for (const role of [Roles.GOVERNANCE, Roles.UPGRADER, Roles.DEFAULT_ADMIN]) {
      await contract.renounceRole(role, deployer.address);
    }
  }

  const { chainId } = await ethers.provider.getNetwork();
  const domain = attestationDomain(chainId, await verifier.getAddress());
  await collateral.mint(provider.address, parseUnits("1000000", 6));
  await collateral.connect(provider).approve(agentAddress, ethers.MaxUint256);
  await collateral.connect(provider).approve(registryAddress, ethers.MaxUint256);
  await v1.registry.connect(provider).register(sampleProfile(), 0n);
  await v1.registry.connect(approver).approveProvider(provider.address);

  const deployment: LegacyDeployment = {
    deployer,
    treasury,
    approver,
    arbitrator,
    provider,
    user,
    stranger,
    guardian,
    collateral,
    cuToken,
    sstb,
    verifier,
    timelock,
    v1,
    registry: ProviderRegistry__factory.connect(registryAddress, deployer),
    mintingAgent: MintingAgent__factory.connect(agentAddress, deployer),
    redemptionManager: RedemptionManager__factory.connect(managerAddress, deployer),
    redemptionViews: await new RedemptionViews__factory(deployer).deploy(managerAddress),
    async mint(cuValue) {
      const now = BigInt((await ethers.provider.getBlock("latest"))!.timestamp);
      const nonce = randomNonce();
      const attestation = {
        provider: provider.address,
        cuHash: cuHashOf({ provider: provider.address, nonce: nonce.toString() }),
        cuValue,
        specs: SAMPLE_SPECS,
        expiry: now + 86_400n,
        nonce,
      };
      const proof = await buildProof(attestation, domain, verifierKeys.slice(0, 2));
      // 120% of the new capacity at 1 USDC per sSTB, rounded up; staking period 30 days
      const needed = (cuValue * 12_000n * LOCAL_COLLATERAL_PER_CU + 10n ** 22n - 1n) / 10n ** 22n;
      await v1.mintingAgent.connect(provider).verifyAndMintSSTB(proof, needed, 30n * 86_400n);
    },
  };
  await deployment.mint(parseEther("100"));
  await sstb.connect(provider).transfer(user.address, parseEther("50"));
  await sstb.connect(user).approve(managerAddress, ethers.MaxUint256);
  return deployment;
}

/**
 * Schedules `calls` on the timelock as one batch (one proposal's worth), waits out the delay and
 * executes it; returns the execution's transaction.
 */
export async function throughTimelock(
  connection: Pick<NetworkConnection, "networkHelpers">,
  d: LegacyDeployment,
  calls: readonly { target: string; data: string }[],
  salt: string = ZeroHash,
) {
  const targets = calls.map((c) => c.target);
  const values = calls.map(() => 0n);
  const datas = calls.map((c) => c.data);
  await d.timelock.scheduleBatch(targets, values, datas, ZeroHash, salt, LEGACY_TIMELOCK_DELAY);
  await connection.networkHelpers.time.increase(LEGACY_TIMELOCK_DELAY);
  return d.timelock.connect(d.stranger).executeBatch(targets, values, datas, ZeroHash, salt);
}

/**
 * Every governed parameter of the registry, the minting agent and the redemption manager, read
 * through today's ABI: what an upgrade must leave set.
 */
export async function parametersOf(d: {
  registry: ProviderRegistry;
  mintingAgent: MintingAgent;
  redemptionManager: RedemptionManager;
  redemptionViews: RedemptionViews;
}) {
  const m = d.redemptionManager;
  const [minStaking, maxStaking] = await d.registry.stakingPeriodBounds();
  const [reward, penalty] = await d.registry.reputationDeltas();
  return {
    registry: {
      collateralToken: await d.registry.collateralToken(),
      collateralRatioBps: await d.registry.collateralRatioBps(),
      collateralPerCU: await d.registry.collateralPerCU(),
      minStakingPeriod: minStaking,
      maxStakingPeriod: maxStaking,
      reputationReward: reward,
      reputationPenalty: penalty,
    },
    mintingAgent: {
      verifier: await d.mintingAgent.verifier(),
      guardianPauseDuration: await d.mintingAgent.guardianPauseDuration(),
    },
    redemptionManager: {
      treasury: await d.redemptionViews.treasury(),
      feeBps: await d.redemptionViews.feeBps(),
      standardDeadline: await d.redemptionViews.tierDeadline(0n),
      premiumDeadline: await d.redemptionViews.tierDeadline(1n),
      enterpriseDeadline: await d.redemptionViews.tierDeadline(2n),
      disputeWindow: await d.redemptionViews.disputeWindow(),
      disputeResolutionPeriod: await d.redemptionViews.disputeResolutionPeriod(),
      minRedemptionAmount: await d.redemptionViews.minRedemptionAmount(),
      reputationUnit: await d.redemptionViews.reputationUnit(),
      guardianPauseDuration: await m.guardianPauseDuration(),
      maxLeaseTerm: await d.redemptionViews.maxLeaseTerm(),
    },
  };
}

/** The names of the parameters in `parametersOf`'s result that are zero (or the zero address). */
export function zeroParameters(parameters: Awaited<ReturnType<typeof parametersOf>>): string[] {
  return Object.entries(parameters).flatMap(([contract, values]) =>
    Object.entries(values)
      .filter(([, value]) => value === 0n || value === ZeroAddress)
      .map(([name]) => `${contract}.${name}`),
  );
}
