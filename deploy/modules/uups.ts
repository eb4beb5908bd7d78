import type { ArgumentType, IgnitionModuleBuilder } from "@nomicfoundation/ignition-core";

/**
 * A UUPS proxy in Ignition (which has no UUPS helper; hardhat-ignition#788): the implementation,
 * an `ERC1967Proxy` whose constructor runs `initialize` in the same transaction (nobody can
 * front-run the initializer), and the proxy seen through the implementation's ABI.
 */
export function uupsProxy(
  m: IgnitionModuleBuilder,
  contractName: string,
  initializeArgs: ArgumentType[],
  constructorArgs: ArgumentType[] = [],
) {
  const implementation = m.contract(contractName, constructorArgs, { id: `${contractName}Implementation` });
  const initialize = m.encodeFunctionCall(implementation, "initialize", initializeArgs, {
    id: `${contractName}Initialize`,
  });
  const proxy = m.contract("ERC1967Proxy", [implementation, initialize], { id: `${contractName}Proxy` });
  return m.contractAt(contractName, proxy, { id: contractName });
}
