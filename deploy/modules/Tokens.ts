import { buildModule } from "@nomicfoundation/hardhat-ignition/modules";

import { uupsProxy } from "./uups.js";

/**
 * The tokens every chain has (DESIGN.md section 3): the CU token, sSTB behind a UUPS proxy, and
 * the governance token (its fixed supply on the primary chain; zero on satellites, where only the
 * bridge will mint it).
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
