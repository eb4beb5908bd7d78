import type { NetworkConnection } from "hardhat/types/network";

import MockCollateralModule from "../../deploy/modules/MockCollateral.js";
import PrimaryModule from "../../deploy/modules/Primary.js";
import PrimaryCoreModule from "../../deploy/modules/PrimaryCore.js";
import SatelliteModule from "../../deploy/modules/Satellite.js";
import {
  AttestationVerifier__factory,
  CUToken__factory,
  FuturesMarket__factory,
  GovernanceToken__factory,
  MintingAgent__factory,
  MockStablecoin__factory,
  OptionsMarket__factory,
  ProtocolGovernor__factory,
  ProtocolTimelock__factory,
  ProviderRegistry__factory,
  RedemptionManager__factory,
  SSTB__factory,
  SpotMarket__factory,
} from "../../typechain-types/index.js";
import type {
  AttestationVerifier,
  CUToken,
  FuturesMarket,
  GovernanceToken,
  MintingAgent,
  MockStablecoin,
  OptionsMarket,
  ProtocolGovernor,
  ProtocolTimelock,
  ProviderRegistry,
  RedemptionManager,
  SSTB,
  SpotMarket,
} from "../../typechain-types/index.js";
import type { GovernanceSettings } from "./governance.js";

/**
 * Deployment goes through the Ignition modules in `deploy/modules/` everywhere: real chains (with
 * a parameter file, `scripts/deploy.ts`), the devnet, the demo, the benchmark and the tests. These
 * helpers turn typed options into the modules' parameters and the results into typed contracts.
 */

/** A network connection with Ignition and ethers (`await network.create(...)`). */
export type IgnitionConnection = Pick<NetworkConnection, "ethers" | "ignition">;

/** What a primary-chain deployment needs to know: the modules' `$global` parameters, typed. */
export interface PrimaryDeployOptions {
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
  /** Operational roles: approves providers; rules on disputes; pauses in an emergency (multisigs). */
  approver: string;
  arbitrator: string;
  guardian: string;
  /** Governor and timelock settings. */
  governance: GovernanceSettings;
  /**
   * Hand every admin, upgrade and parameter role to the timelock as the last step (default true;
   * always true on a real chain). Only unit-test fixtures that drive governed setters directly
   * pass false.
   */
  handOff?: boolean;
  /** Ignition deployment id (the journal's folder on non-simulated networks). */
  deploymentId?: string;
  /** Called as steps complete, for progress output. */
  onStep?: (step: string) => void;
}

/** A deployed primary chain, as typed contracts connected to the deployer. */
export interface PrimaryDeployment {
  collateral: MockStablecoin;
  cuToken: CUToken;
  sstb: SSTB;
  governanceToken: GovernanceToken;
  registry: ProviderRegistry;
  verifier: AttestationVerifier;
  mintingAgent: MintingAgent;
  redemptionManager: RedemptionManager;
  spotMarket: SpotMarket;
  futuresMarket: FuturesMarket;
  optionsMarket: OptionsMarket;
  timelock: ProtocolTimelock;
  governor: ProtocolGovernor;
}

/** A deployed satellite chain. */
export interface SatelliteDeployment {
  cuToken: CUToken;
  sstb: SSTB;
  governanceToken: GovernanceToken;
}

/** The Ignition parameters of a primary deployment (the shape of `deploy/parameters/*.json`). */
export function primaryParameters(options: PrimaryDeployOptions & { collateralToken: string }) {
  const g = options.governance;
  return {
    $global: {
      treasury: options.treasury,
      governanceSupply: options.governanceSupply,
      cuTokenUri: options.cuTokenUri,
      collateralToken: options.collateralToken,
      collateralPerCU: options.collateralPerCU,
      verifiers: [...options.verifiers],
      verifierThreshold: options.verifierThreshold,
      approver: options.approver,
      arbitrator: options.arbitrator,
      guardian: options.guardian,
      votingDelay: g.votingDelay,
      votingPeriod: g.votingPeriod,
      proposalThreshold: g.proposalThreshold,
      quorumPercent: g.quorumPercent,
      timelockDelay: g.timelockDelay,
    },
  };
}

/**
 * Deploys the primary chain with the `Primary` module (or `PrimaryCore` when `handOff` is false),
 * deploying the mock stablecoin first when no collateral token is given. Idempotent on networks
 * with a journal: a second run with the same deployment id sends nothing.
 */
export async function deployPrimary(
  connection: IgnitionConnection,
  options: PrimaryDeployOptions,
): Promise<PrimaryDeployment> {
  const step = options.onStep ?? (() => {});
  const [deployer] = await connection.ethers.getSigners();
  let collateralToken = options.collateralToken;
  if (collateralToken === undefined) {
    const { collateral } = await connection.ignition.deploy(MockCollateralModule, {
      deploymentId: options.deploymentId,
    });
    collateralToken = await collateral.getAddress();
    step("mock stablecoin");
  }
  const handOff = options.handOff ?? true;
  const deployed = await connection.ignition.deploy(handOff ? PrimaryModule : PrimaryCoreModule, {
    parameters: primaryParameters({ ...options, collateralToken }),
    deploymentId: options.deploymentId,
  });
  step(handOff ? "primary contracts, roles wired and handed to the timelock" : "primary contracts, roles wired");

  const at = async (c: { getAddress(): Promise<string> }) => c.getAddress();
  return {
    collateral: MockStablecoin__factory.connect(collateralToken, deployer),
    cuToken: CUToken__factory.connect(await at(deployed.cuToken), deployer),
    sstb: SSTB__factory.connect(await at(deployed.sstb), deployer),
    governanceToken: GovernanceToken__factory.connect(await at(deployed.governanceToken), deployer),
    registry: ProviderRegistry__factory.connect(await at(deployed.registry), deployer),
    verifier: AttestationVerifier__factory.connect(await at(deployed.verifier), deployer),
    mintingAgent: MintingAgent__factory.connect(await at(deployed.mintingAgent), deployer),
    redemptionManager: RedemptionManager__factory.connect(await at(deployed.redemptionManager), deployer),
    spotMarket: SpotMarket__factory.connect(await at(deployed.spotMarket), deployer),
    futuresMarket: FuturesMarket__factory.connect(await at(deployed.futuresMarket), deployer),
    optionsMarket: OptionsMarket__factory.connect(await at(deployed.optionsMarket), deployer),
    timelock: ProtocolTimelock__factory.connect(await at(deployed.timelock), deployer),
    governor: ProtocolGovernor__factory.connect(await at(deployed.governor), deployer),
  };
}

/** Deploys a satellite chain with the `Satellite` module. */
export async function deploySatellite(
  connection: IgnitionConnection,
  options: Pick<PrimaryDeployOptions, "treasury" | "cuTokenUri" | "deploymentId">,
): Promise<SatelliteDeployment> {
  const [deployer] = await connection.ethers.getSigners();
  const deployed = await connection.ignition.deploy(SatelliteModule, {
    parameters: { $global: { treasury: options.treasury, governanceSupply: 0n, cuTokenUri: options.cuTokenUri } },
    deploymentId: options.deploymentId,
  });
  return {
    cuToken: CUToken__factory.connect(await deployed.cuToken.getAddress(), deployer),
    sstb: SSTB__factory.connect(await deployed.sstb.getAddress(), deployer),
    governanceToken: GovernanceToken__factory.connect(await deployed.governanceToken.getAddress(), deployer),
  };
}

/** Addresses of a deployment, by contract name. */
export async function addressesOf(deployment: object): Promise<Record<string, string>> {
  const names: Record<string, string> = {
    collateral: "CollateralToken",
    cuToken: "CUToken",
    sstb: "SSTB",
    governanceToken: "GovernanceToken",
    registry: "ProviderRegistry",
    verifier: "AttestationVerifier",
    mintingAgent: "MintingAgent",
    redemptionManager: "RedemptionManager",
    spotMarket: "SpotMarket",
    futuresMarket: "FuturesMarket",
    optionsMarket: "OptionsMarket",
    timelock: "ProtocolTimelock",
    governor: "ProtocolGovernor",
  };
  const out: Record<string, string> = {};
  for (const [key, contract] of Object.entries(deployment)) {
    out[names[key] ?? key] = await (contract as { getAddress(): Promise<string> }).getAddress();
  }
  return out;
}
