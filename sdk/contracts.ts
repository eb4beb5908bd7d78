import { addressOf } from "./client.js";
import { FACTORIES } from "./factories.js";
import type { ProtocolClient } from "./client.js";

/** A protocol contract's name in a deployments file. */
export type ContractName = keyof typeof FACTORIES;

/** The TypeChain type of a contract by name (`ContractOf<"RedemptionManager">` is `RedemptionManager`). */
export type ContractOf<N extends ContractName> = ReturnType<(typeof FACTORIES)[N]["connect"]>;

/**
 * A typed handle of one of the deployment's contracts, connected to the client's runner.
 *
 * @example
 * const views = getContract(client, "RedemptionViews");
 * const [fee, total] = await views.quoteFee(parseEther("5"));
 */
export function getContract<N extends ContractName>(client: ProtocolClient, name: N): ContractOf<N> {
  const factory = FACTORIES[name] as { connect(address: string, runner: ProtocolClient["runner"]): unknown };
  return factory.connect(addressOf(client, name), client.runner) as ContractOf<N>;
}
