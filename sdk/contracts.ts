import { contractAbis } from "./abis/index.js";
import type { ContractName } from "./abis/index.js";
import type { TypedContract } from "./abi-types.js";
import { addressOf } from "./client.js";
import type { ProtocolClient } from "./client.js";
import { contractAt } from "./contract-calls.js";

export type { ContractName };

/** The typed contract of a name (`ContractOf<"RedemptionManager">`), its methods typed from the generated ABI. */
export type ContractOf<N extends ContractName> = TypedContract<(typeof contractAbis)[N]>;

/**
 * A typed handle of one of the deployment's contracts, connected to the client's runner. It holds
 * every contract's ABI in one map, which suits a script or a server; browser code calls the
 * actions (or `contractAt` with the one ABI it needs) so that a bundle carries only the ABIs used.
 *
 * @example
 * const views = getContract(client, "RedemptionViews");
 * const [fee, total] = await views.quoteFee(parseEther("5"));
 */
export function getContract<N extends ContractName>(client: ProtocolClient, name: N): ContractOf<N> {
  return contractAt(client, contractAbis[name], addressOf(client, name)) as ContractOf<N>;
}
