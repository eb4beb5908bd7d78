import { DEFAULT_DELIVERY_GAS_LIMIT, chainSelectorOf, routeTo } from "@compute-capacity/sdk";
import type { RouteLimits } from "@compute-capacity/sdk";
import { deployPrimary, deploySatellite, governancePeersOf, primaryParameters } from "../deploy/deploy.js";
import type { IgnitionConnection, PrimaryDeployment, SatelliteDeployment } from "../deploy/deploy.js";
import { localDeployOptions } from "./samples.js";
import type { LocalRoleAccounts } from "./samples.js";
import type { Wallet } from "ethers";

/** One chain of a local three-chain network: a node (or an in-process chain with a journal). */
export interface NetworkChain {
  chain: string;
  connection: IgnitionConnection;
  /** Ignition deployment id: the journal that lets the second phase continue the first. */
  deploymentId: string;
}

/** How a local network is deployed. */
export interface LocalNetworkOptions {
  accounts: { [K in keyof LocalRoleAccounts]: string | { address: string } };
  verifierKeys: readonly Wallet[];
  /** The account that executes messages on every devnet router. */
  relayer: string;
  /** Native fee per message on every devnet router. */
  transportFee: bigint;
  /** Rate limits of every route, both directions. */
  limits: RouteLimits;
  onStep?: (chain: string, step: string) => void;
  /** The primary chain's collateral (and the markets' payment) token; none: a mock stablecoin is deployed. */
  collateralToken?: string;
}

/** A chain of a deployed local network, with its CCIP chain selector. */
export type Deployed<T> = T & { chain: string; selector: bigint };

/** A deployed local network: the primary chain and the satellites. */
export interface LocalNetwork {
  primary: Deployed<PrimaryDeployment>;
  satellites: Array<Deployed<SatelliteDeployment>>;
}

/**
 * Deploys the protocol on a primary chain and its satellites, each with a devnet CCIP router, as a
 * real deployment runs (`deploy-protocol`): first every chain's contracts with the deployer still in
 * charge (the satellites' executors need the primary's timelock), then on every chain the routes to
 * the other chains' bridges, the governance channel's peers and the hand-off (timelock on the
 * primary, executor on satellites).
 * The second phase continues the first through each chain's Ignition journal, so the chains must
 * be JSON-RPC nodes (an in-process chain keeps no journal: tests and the gas bench use
 * `deployBridgePair` of testing/bridge-pair.ts there).
 */
export async function deployLocalNetwork(
  primaryChain: NetworkChain,
  satelliteChains: readonly NetworkChain[],
  options: LocalNetworkOptions,
): Promise<LocalNetwork> {
  const all = [primaryChain, ...satelliteChains];
  const selectors = await Promise.all(
    all.map(async (c) => chainSelectorOf((await c.connection.ethers.provider.getNetwork()).chainId)),
  );
  const address = (a: string | { address: string }) => (typeof a === "string" ? a : a.address);
  const bridgeOptions = (i: number) => ({
    relayer: options.relayer,
    transportFee: options.transportFee,
    remoteSelectors: selectors.filter((_, j) => j !== i),
  });
  const primaryOptions = (handOff: boolean) =>
    localDeployOptions(options.accounts, options.verifierKeys, {
      deploymentId: primaryChain.deploymentId,
      handOff,
      onStep: (s) => options.onStep?.(primaryChain.chain, s),
      ...(options.collateralToken === undefined ? {} : { collateralToken: options.collateralToken }),
    });
  const step = (chain: string, s: string) => options.onStep?.(chain, s);

  // phase 1: every chain's contracts, wired, the deployer still in charge
  const core = await deployPrimary(primaryChain.connection, { ...primaryOptions(false), bridge: bridgeOptions(0) });
  const timelock = await core.timelock.getAddress();
  const satelliteOptions = (i: number, handOff: boolean) => ({
    treasury: address(options.accounts.treasury),
    guardian: address(options.accounts.guardian),
    cuTokenUri: "https://api.compute.example/api/v1/cu/{id}",
    primaryChainSelector: selectors[0],
    primaryTimelock: timelock,
    deploymentId: satelliteChains[i].deploymentId,
    handOff,
  });
  const bridges = [await core.bridge.getAddress()];
  const channels = [await core.governanceChannel.getAddress()];
  for (const [i, c] of satelliteChains.entries()) {
    const d = await deploySatellite(c.connection, { ...satelliteOptions(i, false), bridge: bridgeOptions(i + 1) });
    bridges.push(await d.bridge.getAddress());
    channels.push(await d.governanceChannel.getAddress());
    step(c.chain, "satellite contracts, devnet CCIP router, roles wired");
  }

  // phase 2: routes to every other chain's bridge, then the hand-off
  const routes = (i: number) =>
    all.flatMap((_, j) => (j === i ? [] : [routeTo(selectors[j], bridges[j], options.limits)]));
  const primary = await deployPrimary(primaryChain.connection, {
    ...primaryOptions(true),
    bridge: { ...bridgeOptions(0), routes: routes(0), governancePeers: governancePeersOf(0, selectors, channels) },
  });
  const satellites: Array<Deployed<SatelliteDeployment>> = [];
  for (const [i, c] of satelliteChains.entries()) {
    const d = await deploySatellite(c.connection, {
      ...satelliteOptions(i, true),
      bridge: {
        ...bridgeOptions(i + 1),
        routes: routes(i + 1),
        governancePeers: governancePeersOf(i + 1, selectors, channels),
      },
    });
    step(c.chain, "routes set, every role handed to the satellite executor");
    satellites.push({ ...d, chain: c.chain, selector: selectors[i + 1] });
  }
  return { primary: { ...primary, chain: primaryChain.chain, selector: selectors[0] }, satellites };
}

/**
 * What a local network's chains are set to, in the parameter files' shape (`$global`, bigints as
 * bigints), for the post-deployment check: the sample settings {@link deployLocalNetwork} deployed
 * with, each chain's own mock stablecoin and devnet router (from `record`), the default prices and
 * delivery gas, and `options.limits` on every route in both directions.
 */
export function localNetworkParameters(
  options: Pick<LocalNetworkOptions, "accounts" | "verifierKeys" | "limits">,
  chains: ReadonlyArray<{ chain: string; chainId: bigint; role: "primary" | "satellite" }>,
  record: Record<string, Record<string, string>>,
): Record<string, Record<string, unknown>> {
  const address = (a: string | { address: string }) => (typeof a === "string" ? a : a.address);
  const primary = primaryParameters({
    ...localDeployOptions(options.accounts, options.verifierKeys),
    collateralToken: "",
  }).$global;
  const { sstb, governance } = options.limits;
  return Object.fromEntries(
    chains.map(({ chain, chainId, role }) => {
      const shared = {
        treasury: address(options.accounts.treasury),
        guardian: address(options.accounts.guardian),
        collateralToken: record[chain].CollateralToken,
        cuTokenUri: primary.cuTokenUri,
        ccipRouter: record[chain].DevnetCCIPRouter,
        chainSelector: chainSelectorOf(chainId),
        bridgeSstbPrice: 1_000_000n,
        bridgeGovernancePrice: 1_000_000n,
        bridgeGasLimit: DEFAULT_DELIVERY_GAS_LIMIT,
        bridgeSstbCapacity: sstb.capacity,
        bridgeSstbRate: sstb.rate,
        bridgeGovernanceCapacity: governance.capacity,
        bridgeGovernanceRate: governance.rate,
        bridgeSstbInboundCapacity: sstb.capacity,
        bridgeSstbInboundRate: sstb.rate,
        bridgeGovernanceInboundCapacity: governance.capacity,
        bridgeGovernanceInboundRate: governance.rate,
      };
      return [chain, role === "primary" ? { ...primary, ...shared } : shared];
    }),
  );
}
