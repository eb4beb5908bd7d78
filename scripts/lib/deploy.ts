import type { ContractRunner, Signer } from "ethers";

import {
  AttestationVerifier__factory,
  CUToken__factory,
  ERC1967Proxy__factory,
  GovernanceToken__factory,
  MintingAgent__factory,
  MockStablecoin__factory,
  ProtocolGovernor__factory,
  ProtocolTimelock__factory,
  ProviderRegistry__factory,
  RedemptionManager__factory,
  SSTB__factory,
} from "../../typechain-types/index.js";
import type {
  AttestationVerifier,
  CUToken,
  GovernanceToken,
  MintingAgent,
  MockStablecoin,
  ProtocolGovernor,
  ProtocolTimelock,
  ProviderRegistry,
  RedemptionManager,
  SSTB,
} from "../../typechain-types/index.js";
import type { GovernanceSettings } from "./governance.js";
import { Roles } from "./roles.js";

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

/** What a primary-chain deployment needs to know. */
export interface PrimaryDeployOptions {
  /** Deploys, and holds every admin role until the hand-off to governance. */
  deployer: Signer;
  /** Receives the governance token supply and protocol fees (redemption fees in sSTB). */
  treasury: string;
  /** The chain's collateral stablecoin; a MockStablecoin is deployed when omitted (local chains). */
  collateralToken?: string;
  /** Collateral base units per whole sSTB of capacity (1e6 = 1 USDC per sSTB). */
  collateralPerCU: bigint;
  /** Verifier keys of the attestation verifier, and how many must sign. */
  verifiers: readonly string[];
  verifierThreshold: number;
  /** Fixed supply of the governance token, in base units. */
  governanceSupply: bigint;
  /** ERC-1155 metadata URI of the CU token. */
  cuTokenUri: string;
  /** Accounts that approve providers and arbitrate (operational roles). */
  approvers?: readonly string[];
  arbitrators?: readonly string[];
  /** The pause guardian (a multisig on a real chain): may pause minting and redemption initiation. */
  guardian?: string;
  /** Governor and timelock settings. */
  governance: GovernanceSettings;
  /**
   * Hand every admin, upgrade and parameter role to the timelock and renounce the deployer's, as
   * the last step (default true; always true on a real chain). Only unit-test fixtures that drive
   * governed setters directly pass false.
   */
  handOff?: boolean;
  /** Called after each step, for progress output. */
  onStep?: (step: string) => void;
}

/** A deployed primary chain, as typed contracts. */
export interface PrimaryDeployment {
  collateral: MockStablecoin;
  cuToken: CUToken;
  sstb: SSTB;
  governanceToken: GovernanceToken;
  registry: ProviderRegistry;
  verifier: AttestationVerifier;
  mintingAgent: MintingAgent;
  redemptionManager: RedemptionManager;
  timelock: ProtocolTimelock;
  governor: ProtocolGovernor;
}

interface UpgradeableFactory<T> {
  deploy(...args: never[]): Promise<{ waitForDeployment(): Promise<unknown>; getAddress(): Promise<string> }>;
  interface: { encodeFunctionData(fn: "initialize", args: readonly unknown[]): string };
  attach(target: string): unknown;
  connect(runner: ContractRunner | null): UpgradeableFactory<T>;
}

/**
 * Deploys an implementation and an ERC-1967 proxy initialized in the same transaction, so no one
 * can front-run the initializer.
 */
export async function deployUupsProxy<T>(
  factory: UpgradeableFactory<T>,
  deployer: Signer,
  initArgs: readonly unknown[],
  constructorArgs: readonly unknown[] = [],
): Promise<T> {
  const implementation = await factory.deploy(...(constructorArgs as never[]));
  await implementation.waitForDeployment();
  const data = factory.interface.encodeFunctionData("initialize", initArgs);
  const proxy = await new ERC1967Proxy__factory(deployer).deploy(await implementation.getAddress(), data);
  await proxy.waitForDeployment();
  return factory.attach(await proxy.getAddress()) as T;
}

/** Deploys every contract built so far on the primary chain and wires their roles. */
export async function deployPrimary(options: PrimaryDeployOptions): Promise<PrimaryDeployment> {
  const { deployer } = options;
  const step = options.onStep ?? (() => {});
  const admin = await deployer.getAddress();

  const collateralIsMock = options.collateralToken === undefined;
  const collateral = collateralIsMock
    ? await (await new MockStablecoin__factory(deployer).deploy()).waitForDeployment()
    : MockStablecoin__factory.connect(options.collateralToken!, deployer);
  step(collateralIsMock ? "mock stablecoin" : "collateral token (existing)");

  const cuToken = await (await new CUToken__factory(deployer).deploy(admin, options.cuTokenUri)).waitForDeployment();
  step("CU token");

  const sstb = await deployUupsProxy<SSTB>(new SSTB__factory(deployer), deployer, [admin]);
  step("sSTB (UUPS proxy)");

  const governanceToken = await (
    await new GovernanceToken__factory(deployer).deploy(options.treasury, options.governanceSupply)
  ).waitForDeployment();
  step("governance token");

  const registry = await deployUupsProxy<ProviderRegistry>(new ProviderRegistry__factory(deployer), deployer, [
    admin,
    await collateral.getAddress(),
    options.collateralPerCU,
  ]);
  step("provider registry (UUPS proxy)");

  const verifier = await (
    await new AttestationVerifier__factory(deployer).deploy(admin, [...options.verifiers], options.verifierThreshold)
  ).waitForDeployment();
  step("attestation verifier");

  const mintingAgent = await deployUupsProxy<MintingAgent>(
    new MintingAgent__factory(deployer),
    deployer,
    [admin, await verifier.getAddress()],
    [await registry.getAddress(), await cuToken.getAddress(), await sstb.getAddress()],
  );
  step("minting agent (UUPS proxy)");

  const redemptionManager = await deployUupsProxy<RedemptionManager>(
    new RedemptionManager__factory(deployer),
    deployer,
    [admin, options.treasury],
    [await registry.getAddress(), await sstb.getAddress()],
  );
  step("redemption manager (UUPS proxy)");

  const timelock = await (
    await new ProtocolTimelock__factory(deployer).deploy(options.governance.timelockDelay, [], [ZERO_ADDRESS], admin)
  ).waitForDeployment();
  const governor = await (
    await new ProtocolGovernor__factory(deployer).deploy(
      await governanceToken.getAddress(),
      await timelock.getAddress(),
      options.governance.votingDelay,
      options.governance.votingPeriod,
      options.governance.proposalThreshold,
      options.governance.quorumPercent,
    )
  ).waitForDeployment();
  step("timelock and governor");

  const agent = await mintingAgent.getAddress();
  const manager = await redemptionManager.getAddress();
  const governorAddress = await governor.getAddress();
  const grants: Array<
    [{ grantRole(role: string, account: string): Promise<{ wait(): Promise<unknown> }> }, string, string]
  > = [
    [cuToken, Roles.MINTER, agent],
    [sstb, Roles.MINTER, agent],
    [sstb, Roles.BURNER, agent],
    [registry, Roles.MINTING_AGENT, agent],
    [verifier, Roles.CONSUMER, agent],
    [sstb, Roles.BURNER, manager],
    [registry, Roles.REDEMPTION_MANAGER, manager],
    [timelock, Roles.TIMELOCK_PROPOSER, governorAddress],
    [timelock, Roles.TIMELOCK_CANCELLER, governorAddress],
    ...(options.guardian === undefined
      ? []
      : ([
          [mintingAgent, Roles.GUARDIAN, options.guardian],
          [redemptionManager, Roles.GUARDIAN, options.guardian],
        ] as Array<[typeof mintingAgent, string, string]>)),
    ...(options.approvers ?? []).map((a) => [registry, Roles.APPROVER, a] as [typeof registry, string, string]),
    ...(options.arbitrators ?? []).flatMap((a) => [
      [registry, Roles.ARBITRATOR, a] as [typeof registry, string, string],
      [redemptionManager, Roles.ARBITRATOR, a] as [typeof redemptionManager, string, string],
    ]),
  ];
  for (const [contract, role, account] of grants) {
    await (await contract.grantRole(role, account)).wait();
  }
  step("roles wired");

  const deployment = {
    collateral,
    cuToken,
    sstb,
    governanceToken,
    registry,
    verifier,
    mintingAgent,
    redemptionManager,
    timelock,
    governor,
  };
  if (options.handOff ?? true) {
    await handOffToTimelock(deployment, deployer);
    step("admin, upgrade and parameter roles handed to the timelock");
  }
  return deployment;
}

interface RoleAdministered {
  getAddress(): Promise<string>;
  connect(runner: Signer): RoleAdministered;
  grantRole(role: string, account: string): Promise<{ wait(): Promise<unknown> }>;
  renounceRole(role: string, account: string): Promise<{ wait(): Promise<unknown> }>;
}

/**
 * The privileged roles of each contract: all of them go to the timelock at the hand-off. The
 * default admin comes last in each list, so the deployer can still grant until it renounces.
 */
export function governedRoles(d: PrimaryDeployment): Array<[RoleAdministered, string[]]> {
  const upgradeable = [Roles.GOVERNANCE, Roles.UPGRADER, Roles.DEFAULT_ADMIN];
  return [
    [d.sstb, upgradeable],
    [d.registry, upgradeable],
    [d.mintingAgent, upgradeable],
    [d.redemptionManager, upgradeable],
    [d.verifier, [Roles.GOVERNANCE, Roles.DEFAULT_ADMIN]],
    [d.cuToken, [Roles.DEFAULT_ADMIN]],
  ];
}

/**
 * The last step of a primary deployment: the timelock receives every admin, upgrade and parameter
 * role, the deployer renounces its own, and finally its temporary admin role on the timelock.
 * Afterwards only a passed proposal can change a parameter, a role or an implementation.
 */
export async function handOffToTimelock(d: PrimaryDeployment, deployer: Signer): Promise<void> {
  const admin = await deployer.getAddress();
  const timelock = await d.timelock.getAddress();
  for (const [contract, roles] of governedRoles(d)) {
    const c = contract.connect(deployer) as RoleAdministered;
    for (const role of roles) await (await c.grantRole(role, timelock)).wait();
    for (const role of roles) await (await c.renounceRole(role, admin)).wait();
  }
  await (await d.timelock.connect(deployer).renounceRole(Roles.DEFAULT_ADMIN, admin)).wait();
}

/** Addresses of a deployment, by contract name. */
export async function addressesOf(deployment: PrimaryDeployment): Promise<Record<string, string>> {
  return {
    CollateralToken: await deployment.collateral.getAddress(),
    CUToken: await deployment.cuToken.getAddress(),
    SSTB: await deployment.sstb.getAddress(),
    GovernanceToken: await deployment.governanceToken.getAddress(),
    ProviderRegistry: await deployment.registry.getAddress(),
    AttestationVerifier: await deployment.verifier.getAddress(),
    MintingAgent: await deployment.mintingAgent.getAddress(),
    RedemptionManager: await deployment.redemptionManager.getAddress(),
    ProtocolTimelock: await deployment.timelock.getAddress(),
    ProtocolGovernor: await deployment.governor.getAddress(),
  };
}
