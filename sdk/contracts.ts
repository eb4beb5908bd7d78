import {
  AttestationVerifier__factory,
  Bridge__factory,
  CUToken__factory,
  FuturesMarket__factory,
  GovernanceToken__factory,
  MintingAgent__factory,
  OptionsMarket__factory,
  ProtocolGovernor__factory,
  ProtocolTimelock__factory,
  ProviderRegistry__factory,
  RedemptionManager__factory,
  SSTB__factory,
  SatelliteExecutor__factory,
  SpotMarket__factory,
} from "../typechain-types/index.js";
import { addressOf } from "./client.js";
import type { ProtocolClient } from "./client.js";

/** The TypeChain factory of each contract, by the name a deployments file lists it under. */
const FACTORIES = {
  AttestationVerifier: AttestationVerifier__factory,
  Bridge: Bridge__factory,
  CUToken: CUToken__factory,
  FuturesMarket: FuturesMarket__factory,
  GovernanceToken: GovernanceToken__factory,
  MintingAgent: MintingAgent__factory,
  OptionsMarket: OptionsMarket__factory,
  ProtocolGovernor: ProtocolGovernor__factory,
  ProtocolTimelock: ProtocolTimelock__factory,
  ProviderRegistry: ProviderRegistry__factory,
  RedemptionManager: RedemptionManager__factory,
  SSTB: SSTB__factory,
  SatelliteExecutor: SatelliteExecutor__factory,
  SpotMarket: SpotMarket__factory,
} as const;

/** A protocol contract's name in a deployments file. */
export type ContractName = keyof typeof FACTORIES;

/** The TypeChain type of a contract by name (`ContractOf<"RedemptionManager">` is `RedemptionManager`). */
export type ContractOf<N extends ContractName> = ReturnType<(typeof FACTORIES)[N]["connect"]>;

/**
 * A typed handle of one of the deployment's contracts, connected to the client's runner.
 *
 * @example
 * const manager = getContract(client, "RedemptionManager");
 * const [fee, total] = await manager.quoteFee(parseEther("5"));
 */
export function getContract<N extends ContractName>(client: ProtocolClient, name: N): ContractOf<N> {
  const factory = FACTORIES[name] as { connect(address: string, runner: ProtocolClient["runner"]): unknown };
  return factory.connect(addressOf(client, name), client.runner) as ContractOf<N>;
}
