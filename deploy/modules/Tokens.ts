import { buildModule } from "@nomicfoundation/hardhat-ignition/modules";

import { uupsProxy } from "./uups.js";

/**
 * The primary chain's tokens (DESIGN.md section 3): the CU token, sSTB behind a UUPS proxy, and
 * the governance token with its fixed supply. Satellites deploy their own set in `SatelliteCore`,
 * with the bridged governance token that only the bridge mints.
 *
 * Parameters (`$global` in the parameter files): `treasury`, `governanceSupply`, `cuTokenUri`.
 */
export default buildModule("Tokens", (m) => {
  const admin = m.getAccount(0);
  const treasury = m.getParameter<string>("treasury");
  const governanceSupply = m.getParameter<bigint>("governanceSupply");
  const cuTokenUri = m.getParameter<string>("cuTokenUri");

  const cuToken = m.contract("CUToken", [admin, cuTokenUri]);
  const sstb = uupsProxy(m, "SSTB", [admin]);
  const governanceToken = m.contract("GovernanceToken", [treasury, governanceSupply]);
  return { cuToken, sstb, governanceToken };
});
