import type { NetworkConnection } from "hardhat/types/network";

import DevnetCCIPModule from "./modules/DevnetCCIP.js";
import MockCollateralModule from "./modules/MockCollateral.js";
import PrimaryModule from "./modules/Primary.js";
import PrimaryBridgeModule from "./modules/PrimaryBridge.js";
import SatelliteModule from "./modules/Satellite.js";
import SatelliteCoreModule from "./modules/SatelliteCore.js";
import {
  AttestationVerifier__factory,
  BridgedGovernanceToken__factory,
  Bridge__factory,
  DevnetCCIPRouter__factory,
  CUToken__factory,
  FuturesMarket__factory,
  GovernanceChannel__factory,
  GovernanceToken__factory,
  MintingAgent__factory,
  MockStablecoin__factory,
  OptionsMarket__factory,
  ProtocolGovernor__factory,
  ProtocolTimelock__factory,
  ProviderRegistry__factory,
  RedemptionManager__factory,
  RedemptionViews__factory,
  SSTB__factory,
  SatelliteExecutor__factory,
  SpotMarket__factory,
} from "../typechain-types/index.js";
import type {
  AttestationVerifier,
  Bridge,
  BridgedGovernanceToken,
  DevnetCCIPRouter,
  CUToken,
  FuturesMarket,
  GovernanceChannel,
  GovernanceToken,
  MintingAgent,
  MockStablecoin,
  OptionsMarket,
  ProtocolGovernor,
  ProtocolTimelock,
  ProviderRegistry,
  RedemptionManager,
  RedemptionViews,
  SSTB,
  SatelliteExecutor,
  SpotMarket,
} from "../typechain-types/index.js";
import { CCIP_CHAIN_SELECTORS, chainSelectorOf } from "@compute-capacity/sdk/constants";
import type { RateLimit, RouteConfig } from "@compute-capacity/sdk/constants";
import type { GovernanceSettings } from "./governance-settings.js";

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
  /** The bridge's CCIP settings and routes (defaults: a devnet router, no routes). */
  bridge?: BridgeDeployOptions;
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

/** What a chain's bridge needs: its CCIP router and selector, fee prices and routes. */
export interface BridgeDeployOptions {
  /** The chain's CCIP router; on local chains a `DevnetCCIPRouter` is deployed when omitted. */
  ccipRouter?: string;
  /** This chain's CCIP selector (default: the selector of the chain id it runs on). */
  chainSelector?: bigint;
  /** Devnet router only: the relayer account (default: the deployer), the native fee per message,
   * and the remote selectors it serves. */
  relayer?: string;
  transportFee?: bigint;
  remoteSelectors?: readonly bigint[];
  /** Stablecoin base units per whole sSTB and per whole governance token (default 1e6 each: 1 USDC). */
  sstbPrice?: bigint;
  governancePrice?: bigint;
  /** Routes to the other chains' bridges, set before the hand-off (default none). */
  routes?: readonly RouteConfig[];
  /**
   * The other chains' governance channels this chain's channel sends to and accepts from, set
   * before the hand-off (default none): the satellites' on the primary chain, the primary's on a
   * satellite.
   */
  governancePeers?: readonly GovernancePeer[];
}

/** A governance channel on another chain (`IGovernanceChannel.PeerConfig`). */
export interface GovernancePeer {
  chainSelector: bigint;
  peer: string;
}

/** A route as an Ignition parameter (`IBridge.RouteConfig`). */
export function routeParameter(route: RouteConfig) {
  const limit = (l: RateLimit) => ({ enabled: l.enabled, capacity: l.capacity, rate: l.rate });
  return {
    chainSelector: route.chainSelector,
    peer: route.peer,
    gasLimit: route.gasLimit,
    outbound: route.outbound.map(limit),
    inbound: route.inbound.map(limit),
  };
}

/**
 * The governance channels chain `i` of `selectors` peers with: every satellite's on the primary
 * chain (index 0), the primary's on a satellite (satellites never send each other governance).
 */
export function governancePeersOf(
  i: number,
  selectors: readonly bigint[],
  channels: readonly string[],
): GovernancePeer[] {
  const peers = i === 0 ? selectors.map((_, j) => j).filter((j) => j !== 0) : [0];
  return peers.map((j) => ({ chainSelector: selectors[j], peer: channels[j] }));
}

/** The Ignition parameters of a chain's bridge. */
async function bridgeParameters(
  connection: IgnitionConnection,
  options: BridgeDeployOptions = {},
  deploymentId?: string,
  localSelector?: bigint,
) {
  const { chainId } = await connection.ethers.provider.getNetwork();
  // a chain that plays none of the protocol's chains (an in-process chain, id 31337) with a devnet
  // router: the primary takes arbitrum's selector, so single-chain tests and demos need no setting
  const local = options.ccipRouter === undefined && CCIP_CHAIN_SELECTORS[String(chainId)] === undefined;
  const chainSelector =
    options.chainSelector ?? (local && localSelector !== undefined ? localSelector : chainSelectorOf(chainId));
  let ccipRouter = options.ccipRouter;
  if (ccipRouter === undefined) {
    const [deployer] = await connection.ethers.getSigners();
    const { router } = await connection.ignition.deploy(DevnetCCIPModule, {
      parameters: {
        $global: {
          chainSelector,
          ccipRelayer: options.relayer ?? deployer.address,
          ccipFee: options.transportFee ?? 0n,
          ccipRemoteSelectors: [...(options.remoteSelectors ?? [])],
        },
      },
      deploymentId,
    });
    ccipRouter = await router.getAddress();
  }
  return {
    ccipRouter,
    chainSelector,
    bridgeSstbPrice: options.sstbPrice ?? 1_000_000n,
    bridgeGovernancePrice: options.governancePrice ?? 1_000_000n,
    bridgeRoutes: (options.routes ?? []).map(routeParameter),
    governancePeers: (options.governancePeers ?? []).map((p) => ({ chainSelector: p.chainSelector, peer: p.peer })),
  };
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
  /** The manager's read contract (every read beyond the spec's `redemptions` getter). */
  redemptionViews: RedemptionViews;
  spotMarket: SpotMarket;
  futuresMarket: FuturesMarket;
  optionsMarket: OptionsMarket;
  timelock: ProtocolTimelock;
  governor: ProtocolGovernor;
  bridge: Bridge;
  /** The governance channel the timelock sends the satellites' calls over. */
  governanceChannel: GovernanceChannel;
  /** The devnet router, when one was deployed (local chains). */
  router?: DevnetCCIPRouter;
}

/** What a satellite deployment needs to know. */
export interface SatelliteDeployOptions {
  /** Receives bridge fees. */
  treasury: string;
  /** May pause the bridge for a bounded time (a multisig). */
  guardian: string;
  cuTokenUri: string;
  /** The chain's USDC, for the bridge's `default` fee option; a mock is deployed when omitted. */
  stablecoin?: string;
  /** The primary chain's selector and timelock: the only origin the executor obeys. */
  primaryChainSelector: bigint;
  primaryTimelock: string;
  bridge?: BridgeDeployOptions;
  /** Hand every role to the executor as the last step (default true). */
  handOff?: boolean;
  deploymentId?: string;
}

/** A deployed satellite chain. */
export interface SatelliteDeployment {
  stablecoin: MockStablecoin;
  cuToken: CUToken;
  sstb: SSTB;
  governanceToken: BridgedGovernanceToken;
  bridge: Bridge;
  /** Delivers the arbitrum timelock's calls to the executor. */
  governanceChannel: GovernanceChannel;
  executor: SatelliteExecutor;
  router?: DevnetCCIPRouter;
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
 * Deploys the primary chain with the `Primary` module (or `PrimaryBridge`, without routes and
 * hand-off, when `handOff` is false), deploying the mock stablecoin and a devnet CCIP router first
 * when none is given. Idempotent on networks with a journal: a second run with the same deployment
 * id sends nothing, and a run with routes after one without continues the same deployment.
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
  const bridge = await bridgeParameters(
    connection,
    options.bridge,
    options.deploymentId,
    CCIP_CHAIN_SELECTORS["42161"],
  );
  if (options.bridge?.ccipRouter === undefined) step("devnet CCIP router");
  const parameters = primaryParameters({ ...options, collateralToken });
  const deployed = await connection.ignition.deploy(handOff ? PrimaryModule : PrimaryBridgeModule, {
    parameters: { $global: { ...parameters.$global, ...bridge } },
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
    redemptionViews: RedemptionViews__factory.connect(await at(deployed.redemptionViews), deployer),
    spotMarket: SpotMarket__factory.connect(await at(deployed.spotMarket), deployer),
    futuresMarket: FuturesMarket__factory.connect(await at(deployed.futuresMarket), deployer),
    optionsMarket: OptionsMarket__factory.connect(await at(deployed.optionsMarket), deployer),
    timelock: ProtocolTimelock__factory.connect(await at(deployed.timelock), deployer),
    governor: ProtocolGovernor__factory.connect(await at(deployed.governor), deployer),
    bridge: Bridge__factory.connect(await at(deployed.bridge), deployer),
    governanceChannel: GovernanceChannel__factory.connect(await at(deployed.governanceChannel), deployer),
    ...(options.bridge?.ccipRouter === undefined
      ? { router: DevnetCCIPRouter__factory.connect(bridge.ccipRouter, deployer) }
      : {}),
  };
}

/**
 * Deploys a satellite chain with the `Satellite` module (or `SatelliteCore`, without routes and
 * hand-off, when `handOff` is false), deploying a mock stablecoin and a devnet CCIP router first
 * when none is given. Resumable like {deployPrimary}.
 */
export async function deploySatellite(
  connection: IgnitionConnection,
  options: SatelliteDeployOptions,
): Promise<SatelliteDeployment> {
  const [deployer] = await connection.ethers.getSigners();
  let stablecoin = options.stablecoin;
  if (stablecoin === undefined) {
    const { collateral } = await connection.ignition.deploy(MockCollateralModule, {
      deploymentId: options.deploymentId,
    });
    stablecoin = await collateral.getAddress();
  }
  const bridge = await bridgeParameters(connection, options.bridge, options.deploymentId);
  const handOff = options.handOff ?? true;
  const deployed = await connection.ignition.deploy(handOff ? SatelliteModule : SatelliteCoreModule, {
    parameters: {
      $global: {
        treasury: options.treasury,
        guardian: options.guardian,
        cuTokenUri: options.cuTokenUri,
        collateralToken: stablecoin,
        primaryChainSelector: options.primaryChainSelector,
        primaryTimelock: options.primaryTimelock,
        ...bridge,
      },
    },
    deploymentId: options.deploymentId,
  });
  const at = async (c: { getAddress(): Promise<string> }) => c.getAddress();
  return {
    stablecoin: MockStablecoin__factory.connect(stablecoin, deployer),
    cuToken: CUToken__factory.connect(await at(deployed.cuToken), deployer),
    sstb: SSTB__factory.connect(await at(deployed.sstb), deployer),
    governanceToken: BridgedGovernanceToken__factory.connect(await at(deployed.governanceToken), deployer),
    bridge: Bridge__factory.connect(await at(deployed.bridge), deployer),
    governanceChannel: GovernanceChannel__factory.connect(await at(deployed.governanceChannel), deployer),
    executor: SatelliteExecutor__factory.connect(await at(deployed.executor), deployer),
    ...(options.bridge?.ccipRouter === undefined
      ? { router: DevnetCCIPRouter__factory.connect(bridge.ccipRouter, deployer) }
      : {}),
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
    redemptionViews: "RedemptionViews",
    spotMarket: "SpotMarket",
    futuresMarket: "FuturesMarket",
    optionsMarket: "OptionsMarket",
    timelock: "ProtocolTimelock",
    governor: "ProtocolGovernor",
    bridge: "Bridge",
    governanceChannel: "GovernanceChannel",
    router: "DevnetCCIPRouter",
    executor: "SatelliteExecutor",
    stablecoin: "Stablecoin",
  };
  const out: Record<string, string> = {};
  for (const [key, contract] of Object.entries(deployment)) {
    // a deployment may carry facts beside its contracts (the devnet's `chain` and `selector`)
    if (typeof (contract as { getAddress?: unknown })?.getAddress !== "function") continue;
    out[names[key] ?? key] = await (contract as { getAddress(): Promise<string> }).getAddress();
  }
  return out;
}
