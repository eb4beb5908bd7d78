// Two bridges on one in-process chain (test support: the bridge's contract tests and the gas benchmark).
// A real or devnet deployment goes through deployLocalNetwork (devnet/network.ts) or deploy-protocol.
import { routeTo } from "@compute-capacity/sdk";
import { deployPrimary, deploySatellite, governancePeersOf } from "../deploy/deploy.js";
import type { IgnitionConnection, PrimaryDeployment, SatelliteDeployment } from "../deploy/deploy.js";
import type { LocalNetworkOptions } from "../devnet/network.js";
import { localDeployOptions } from "../devnet/samples.js";

/** Two bridges on one chain, as {deployBridgePair} returns them. */
export interface BridgePairDeployment {
  primary: PrimaryDeployment & { router: NonNullable<PrimaryDeployment["router"]> };
  satellite: SatelliteDeployment & { router: NonNullable<SatelliteDeployment["router"]> };
}

/**
 * A primary chain and one satellite on a single (in-process) chain, on two CCIP selectors, each
 * with its own devnet router, routed to each other with `limits`, their governance channels peers
 * of each other. The deployer keeps governance on both sides (no hand-off): for unit tests and the
 * gas benchmark.
 */
export async function deployBridgePair(
  connection: IgnitionConnection,
  options: Omit<LocalNetworkOptions, "onStep"> & { selectors: readonly [bigint, bigint] },
): Promise<BridgePairDeployment> {
  const [primarySelector, satelliteSelector] = options.selectors;
  const bridge = (chainSelector: bigint, remote: bigint) => ({
    chainSelector,
    relayer: options.relayer,
    transportFee: options.transportFee,
    remoteSelectors: [remote],
  });
  const primary = await deployPrimary(connection, {
    ...localDeployOptions(options.accounts, options.verifierKeys, { handOff: false }),
    bridge: bridge(primarySelector, satelliteSelector),
  });
  const address = (a: string | { address: string }) => (typeof a === "string" ? a : a.address);
  const satellite = await deploySatellite(connection, {
    treasury: address(options.accounts.treasury),
    guardian: address(options.accounts.guardian),
    cuTokenUri: "https://api.compute.example/api/v1/cu/{id}",
    primaryChainSelector: primarySelector,
    primaryTimelock: await primary.timelock.getAddress(),
    handOff: false,
    bridge: bridge(satelliteSelector, primarySelector),
  });
  await (
    await primary.bridge.setRoutes([routeTo(satelliteSelector, await satellite.bridge.getAddress(), options.limits)])
  ).wait();
  await (
    await satellite.bridge.setRoutes([routeTo(primarySelector, await primary.bridge.getAddress(), options.limits)])
  ).wait();
  const channels = [await primary.governanceChannel.getAddress(), await satellite.governanceChannel.getAddress()];
  await (await primary.governanceChannel.setPeers(governancePeersOf(0, options.selectors, channels))).wait();
  await (await satellite.governanceChannel.setPeers(governancePeersOf(1, options.selectors, channels))).wait();
  return { primary, satellite } as BridgePairDeployment;
}
