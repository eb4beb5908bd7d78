import type { ContractFuture, IgnitionModuleBuilder } from "@nomicfoundation/ignition-core";

import { uupsProxy } from "./uups.js";

/**
 * The chain's bridge behind a UUPS proxy, bound to the chain's CCIP router, selector, tokens and
 * stablecoin. Parameters (`$global`): `ccipRouter`, `chainSelector`, `collateralToken` (USDC, the
 * `default` fee option's stablecoin), `treasury`, `bridgeSstbPrice`, `bridgeGovernancePrice`.
 */
export function bridgeProxy(
  m: IgnitionModuleBuilder,
  tokens: { sstb: ContractFuture<string>; governanceToken: ContractFuture<string> },
  escrowsGovernance: boolean,
) {
  return uupsProxy(
    m,
    "Bridge",
    [
      m.getAccount(0),
      m.getParameter<string>("treasury"),
      m.getParameter<bigint>("bridgeSstbPrice"),
      m.getParameter<bigint>("bridgeGovernancePrice"),
    ],
    [
      m.getParameter<string>("ccipRouter"),
      m.getParameter<bigint>("chainSelector"),
      tokens.sstb,
      tokens.governanceToken,
      m.getParameter<string>("collateralToken"),
      escrowsGovernance,
    ],
  );
}
