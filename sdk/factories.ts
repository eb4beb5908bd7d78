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

/** The TypeChain factory of each contract, by the name a deployments file lists it under. */
export const FACTORIES = {
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
