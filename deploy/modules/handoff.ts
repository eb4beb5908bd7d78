import type { CallableContractFuture, Future, IgnitionModuleBuilder } from "@nomicfoundation/ignition-core";

import { Roles } from "@compute-capacity/sdk/constants";

/** A contract whose roles the hand-off moves, and which ones. */
export type Governed = readonly [name: string, contract: CallableContractFuture<string>, roles: readonly string[]];

/** Admin, upgrade and parameter roles of a UUPS protocol contract. */
export const UPGRADEABLE_ROLES = [Roles.GOVERNANCE, Roles.UPGRADER, Roles.DEFAULT_ADMIN] as const;

const roleName = (role: string) => Object.entries(Roles).find(([, id]) => id === role)![0];

/**
 * The hand-off, the last step of a chain's deployment: `governance` (the timelock on arbitrum, the
 * satellite executor elsewhere) receives every listed role, then the deployer renounces each of
 * them. Returns the renounce futures, for steps that must follow.
 */
export function handOff(
  m: IgnitionModuleBuilder,
  governance: Future | string,
  governed: readonly Governed[],
  after: Future[],
): Future[] {
  const deployer = m.getAccount(0);
  const grants = governed.flatMap(([name, contract, roles]) =>
    roles.map((role) =>
      m.call(contract, "grantRole", [role, governance as never], {
        id: `handOff_grant_${name}_${roleName(role)}`,
        after,
      }),
    ),
  );
  return governed.flatMap(([name, contract, roles]) =>
    roles.map((role) =>
      m.call(contract, "renounceRole", [role, deployer], {
        id: `handOff_renounce_${name}_${roleName(role)}`,
        after: grants,
      }),
    ),
  );
}
