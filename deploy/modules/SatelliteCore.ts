import { buildModule } from "@nomicfoundation/hardhat-ignition/modules";

import { Roles } from "@compute-capacity/sdk/constants";
import { bridgeProxy, governanceChannelProxy } from "./bridge.js";
import { uupsProxy } from "./uups.js";

/**
 * Every contract of a satellite chain (Ethereum, Polygon), wired, with the deployer still holding
 * the admin roles: the CU token, sSTB, the bridged governance token (no supply: only the bridge
 * mints it), the bridge, the governance channel, and the executor that runs the arbitrum
 * timelock's calls the channel delivers. `Satellite` adds the routes, the channel's peer and the
 * hand-off to the executor.
 *
 * Parameters (`$global`): `treasury`, `guardian`, `cuTokenUri`, `collateralToken` (USDC, for the
 * bridge's `default` fee option), `ccipRouter`, `chainSelector`, `bridgeSstbPrice`,
 * `bridgeGovernancePrice`, `primaryChainSelector`, `primaryTimelock`.
 */
export default buildModule("SatelliteCore", (m) => {
  const admin = m.getAccount(0);
  const cuToken = m.contract("CUToken", [admin, m.getParameter<string>("cuTokenUri")]);
  const sstb = uupsProxy(m, "SSTB", [admin]);
  const governanceToken = m.contract("BridgedGovernanceToken", [admin]);
  const bridge = bridgeProxy(m, { sstb, governanceToken }, false);
  const governanceChannel = governanceChannelProxy(m);
  const executor = m.contract("SatelliteExecutor", [
    governanceChannel,
    m.getParameter<bigint>("primaryChainSelector"),
    m.getParameter<string>("primaryTimelock"),
  ]);
  m.call(governanceChannel, "setExecutor", [executor]);

  const grants = [
    ["SSTB_MINTER_Bridge", sstb, Roles.MINTER, bridge],
    ["SSTB_BURNER_Bridge", sstb, Roles.BURNER, bridge],
    ["BridgedGovernanceToken_MINTER_Bridge", governanceToken, Roles.MINTER, bridge],
    ["BridgedGovernanceToken_BURNER_Bridge", governanceToken, Roles.BURNER, bridge],
    ["Bridge_GUARDIAN", bridge, Roles.GUARDIAN, m.getParameter<string>("guardian")],
  ] as const;
  for (const [id, contract, role, account] of grants) {
    m.call(contract, "grantRole", [role, account], { id: `grant_${id}` });
  }
  return { cuToken, sstb, governanceToken, bridge, governanceChannel, executor };
});
