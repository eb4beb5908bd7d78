import { Interface } from "ethers";

import { interfaceOf } from "@compute-capacity/sdk";
import {
  erc20Abi,
  governanceTokenAbi,
  protocolGovernorAbi,
  protocolTimelockAbi,
  satelliteExecutorAbi,
} from "@compute-capacity/sdk/abis";
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
/**
 * The devnet's stand-in for CCIP's router is no protocol contract, so the SDK carries no ABI of it:
 * its two events, as the contract declares them (test/unit/gateway/IndexerAbis.test.ts compares
 * them with the compiled artifact).
 */
export const DEVNET_CCIP_ROUTER_EVENTS = new Interface([
  "event CCIPSendRequested(uint64 indexed destinationChainSelector, uint64 indexed sequenceNumber, bytes32 indexed messageId, address sender, address receiver, bytes data, uint256 gasLimit, uint256 fee)",
  "event ExecutionStateChanged(uint64 indexed sourceChainSelector, uint64 indexed sequenceNumber, bytes32 indexed messageId, uint8 state, bytes returnData)",
]);

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
  { contract: "GovernanceToken", iface: interfaceOf(governanceTokenAbi) },
  // any ERC-20 (the devnet's is a mock stablecoin): its Transfer and Approval events
  { contract: "CollateralToken", iface: interfaceOf(erc20Abi) },
  { contract: "ProtocolGovernor", iface: interfaceOf(protocolGovernorAbi) },
  { contract: "ProtocolTimelock", iface: interfaceOf(protocolTimelockAbi) },
  { contract: "SatelliteExecutor", iface: interfaceOf(satelliteExecutorAbi) },
  // the devnet's stand-in for CCIP's router (its `CCIPSendRequested` is what the relayer reads)
  { contract: "DevnetCCIPRouter", iface: DEVNET_CCIP_ROUTER_EVENTS },
];

/** The module of a deployment file's contract name, if the gateway knows the contract. */
export function moduleOf(contract: string): ContractModule | undefined {
  return MODULES.find((m) => m.contract === contract);
}
