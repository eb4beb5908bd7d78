import { buildModule } from "@nomicfoundation/hardhat-ignition/modules";

import { Roles } from "@compute-capacity/sdk/constants";
import { UPGRADEABLE_ROLES, handOff } from "./handoff.js";
import PrimaryBridgeModule from "./PrimaryBridge.js";

/**
 * The primary chain as it goes live: `PrimaryBridge`, the bridge's routes to the satellites
 * (`bridgeRoutes`, built by the deployment from the satellites' bridges) and the governance
 * channel's peers (`governancePeers`: the satellites' channels), then the hand-off as the last
 * step. The timelock receives every admin, upgrade and parameter role; the deployer renounces its
 * own and its temporary admin role on the timelock. Afterwards only a passed proposal changes
 * anything, on arbitrum and, through the governance channel, on the satellites.
 */
export default buildModule("Primary", (m) => {
  const deployments = m.useModule(PrimaryBridgeModule);
  const { timelock, bridge, governanceChannel } = deployments;
  const routes = m.call(bridge, "setRoutes", [m.getParameter("bridgeRoutes", [])], { id: "Bridge_setRoutes" });
  const peers = m.call(governanceChannel, "setPeers", [m.getParameter("governancePeers", [])], {
    id: "GovernanceChannel_setPeers",
  });

  const renounces = handOff(
    m,
    timelock,
    [
      ["SSTB", deployments.sstb, UPGRADEABLE_ROLES],
      ["ProviderRegistry", deployments.registry, UPGRADEABLE_ROLES],
      ["MintingAgent", deployments.mintingAgent, UPGRADEABLE_ROLES],
      ["RedemptionManager", deployments.redemptionManager, UPGRADEABLE_ROLES],
      ["SpotMarket", deployments.spotMarket, UPGRADEABLE_ROLES],
      ["FuturesMarket", deployments.futuresMarket, UPGRADEABLE_ROLES],
      ["OptionsMarket", deployments.optionsMarket, UPGRADEABLE_ROLES],
      ["Bridge", bridge, UPGRADEABLE_ROLES],
      ["GovernanceChannel", governanceChannel, UPGRADEABLE_ROLES],
      ["AttestationVerifier", deployments.verifier, [Roles.GOVERNANCE, Roles.DEFAULT_ADMIN]],
      ["CUToken", deployments.cuToken, [Roles.DEFAULT_ADMIN]],
      ["GovernanceToken", deployments.governanceToken, [Roles.GOVERNANCE, Roles.DEFAULT_ADMIN]],
    ],
    [PrimaryBridgeModule, routes, peers] as never,
  );
  m.call(timelock, "renounceRole", [Roles.DEFAULT_ADMIN, m.getAccount(0)], {
    id: "handOff_renounce_Timelock_DEFAULT_ADMIN",
    after: renounces,
  });

  return deployments;
});
