import { buildModule } from "@nomicfoundation/hardhat-ignition/modules";

import { Roles } from "@compute-capacity/sdk/constants";
import { UPGRADEABLE_ROLES, handOff } from "./handoff.js";
import SatelliteCoreModule from "./SatelliteCore.js";

/**
 * A satellite chain as it goes live: `SatelliteCore`, the bridge's routes (`bridgeRoutes`) and the
 * governance channel's peer (`governancePeers`: the primary chain's channel), then the same
 * hand-off as the primary chain, to the satellite executor: afterwards only a proposal passed on
 * arbitrum and carried over the governance channel changes anything here.
 */
export default buildModule("Satellite", (m) => {
  const deployments = m.useModule(SatelliteCoreModule);
  const { bridge, governanceChannel, executor } = deployments;
  const routes = m.call(bridge, "setRoutes", [m.getParameter("bridgeRoutes", [])], { id: "Bridge_setRoutes" });
  const peers = m.call(governanceChannel, "setPeers", [m.getParameter("governancePeers", [])], {
    id: "GovernanceChannel_setPeers",
  });
  handOff(
    m,
    executor,
    [
      ["SSTB", deployments.sstb, UPGRADEABLE_ROLES],
      ["Bridge", bridge, UPGRADEABLE_ROLES],
      ["GovernanceChannel", governanceChannel, UPGRADEABLE_ROLES],
      ["CUToken", deployments.cuToken, [Roles.DEFAULT_ADMIN]],
      ["BridgedGovernanceToken", deployments.governanceToken, [Roles.DEFAULT_ADMIN]],
    ],
    [SatelliteCoreModule, routes, peers] as never,
  );
  return deployments;
});
