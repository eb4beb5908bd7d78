import { buildModule } from "@nomicfoundation/hardhat-ignition/modules";

import { Roles } from "@compute-capacity/sdk/constants";
import { bridgeProxy, governanceChannelProxy } from "./bridge.js";
import PrimaryCoreModule from "./PrimaryCore.js";

/**
 * `PrimaryCore` plus the arbitrum bridge (it mints and burns sSTB and escrows the governance
 * token; the guardian may pause it) and the governance channel the timelock sends the satellites'
 * calls over. Routes, the channel's peers and the hand-off follow in `Primary`, once the
 * satellites' bridges and channels exist.
 */
export default buildModule("PrimaryBridge", (m) => {
  const core = m.useModule(PrimaryCoreModule);
  const bridge = bridgeProxy(m, core, true);
  const governanceChannel = governanceChannelProxy(m);
  const grants = [
    ["SSTB_MINTER_Bridge", core.sstb, Roles.MINTER, bridge],
    ["SSTB_BURNER_Bridge", core.sstb, Roles.BURNER, bridge],
    ["Bridge_GUARDIAN", bridge, Roles.GUARDIAN, m.getParameter<string>("guardian")],
  ] as const;
  for (const [id, contract, role, account] of grants) {
    m.call(contract, "grantRole", [role, account], { id: `grant_${id}` });
  }
  // STBGOV in the bridge's escrow was bridged out and cannot vote here: out of the quorum's base
  m.call(core.governanceToken, "excludeFromVotingSupply", [bridge], { id: "GovernanceToken_exclude_Bridge" });
  return { ...core, bridge, governanceChannel };
});
