import { buildModule } from "@nomicfoundation/hardhat-ignition/modules";

import { Roles } from "../../scripts/lib/roles.js";
import PrimaryCoreModule from "./PrimaryCore.js";

/**
 * The primary chain as it goes live: `PrimaryCore`, then the hand-off as the last step. The
 * timelock receives every admin, upgrade and parameter role; the deployer renounces its own and
 * its temporary admin role on the timelock. Afterwards only a passed proposal changes anything.
 */
export default buildModule("Primary", (m) => {
  const deployer = m.getAccount(0);
  const core = m.useModule(PrimaryCoreModule);
  const { timelock } = core;

  const upgradeable = [Roles.GOVERNANCE, Roles.UPGRADER, Roles.DEFAULT_ADMIN];
  const governed = [
    ["SSTB", core.sstb, upgradeable],
    ["ProviderRegistry", core.registry, upgradeable],
    ["MintingAgent", core.mintingAgent, upgradeable],
    ["RedemptionManager", core.redemptionManager, upgradeable],
    ["SpotMarket", core.spotMarket, upgradeable],
    ["FuturesMarket", core.futuresMarket, upgradeable],
    ["OptionsMarket", core.optionsMarket, upgradeable],
    ["AttestationVerifier", core.verifier, [Roles.GOVERNANCE, Roles.DEFAULT_ADMIN]],
    ["CUToken", core.cuToken, [Roles.DEFAULT_ADMIN]],
  ] as const;
  const roleName = (role: string) => Object.entries(Roles).find(([, id]) => id === role)![0];

  const grants = governed.flatMap(([name, contract, roles]) =>
    roles.map((role) =>
      m.call(contract, "grantRole", [role, timelock], {
        id: `handOff_grant_${name}_${roleName(role)}`,
        after: [PrimaryCoreModule],
      }),
    ),
  );
  const renounces = governed.flatMap(([name, contract, roles]) =>
    roles.map((role) =>
      m.call(contract, "renounceRole", [role, deployer], {
        id: `handOff_renounce_${name}_${roleName(role)}`,
        after: grants,
      }),
    ),
  );
  m.call(timelock, "renounceRole", [Roles.DEFAULT_ADMIN, deployer], {
    id: "handOff_renounce_Timelock_DEFAULT_ADMIN",
    after: renounces,
  });

  return core;
});
