import {
  DevnetCCIPRouter__factory,
  GovernanceToken__factory,
  MockStablecoin__factory,
  ProtocolGovernor__factory,
  ProtocolTimelock__factory,
  SatelliteExecutor__factory,
} from "../../../typechain-types/index.js";
import type { ContractModule } from "../module.js";
import { attestationVerifierModule } from "./attestation-verifier.js";
import { bridgeModule } from "./bridge.js";
import { cuTokenModule } from "./cu-token.js";
import { futuresMarketModule, optionsMarketModule, spotMarketModule } from "./markets.js";
import { mintingAgentModule } from "./minting-agent.js";
import { providerRegistryModule } from "./provider-registry.js";
import { redemptionManagerModule } from "./redemption-manager.js";
import { sstbModule } from "./sstb.js";

/**
 * One module per contract of a deployment file. Contracts without a projection still have their
 * events decoded and kept in `events` (governance, the governance token, the collateral token):
 * every contract of every chain is indexed. `<Contract>Implementation` entries are logic contracts
 * behind proxies and emit nothing of their own.
 */
export const MODULES: readonly ContractModule[] = [
  providerRegistryModule,
  cuTokenModule,
  mintingAgentModule,
  attestationVerifierModule,
  redemptionManagerModule,
  sstbModule,
  spotMarketModule,
  futuresMarketModule,
  optionsMarketModule,
  bridgeModule,
  { contract: "GovernanceToken", iface: GovernanceToken__factory.createInterface() },
  { contract: "CollateralToken", iface: MockStablecoin__factory.createInterface() },
  { contract: "ProtocolGovernor", iface: ProtocolGovernor__factory.createInterface() },
  { contract: "ProtocolTimelock", iface: ProtocolTimelock__factory.createInterface() },
  { contract: "SatelliteExecutor", iface: SatelliteExecutor__factory.createInterface() },
  // the devnet's stand-in for CCIP's router (its `CCIPSendRequested` is what the relayer reads)
  { contract: "DevnetCCIPRouter", iface: DevnetCCIPRouter__factory.createInterface() },
];

/** The module of a deployment file's contract name, if the gateway knows the contract. */
export function moduleOf(contract: string): ContractModule | undefined {
  return MODULES.find((m) => m.contract === contract);
}
