import type { ContractFuture, IgnitionModuleBuilder } from "@nomicfoundation/ignition-core";

import { uupsProxy } from "./uups.js";

/**
 * The chain's governance channel behind a UUPS proxy, bound to the chain's CCIP router and selector
 * (parameters `ccipRouter`, `chainSelector`): it carries the arbitrum timelock's calls to the
 * satellites' executors (issue 23: out of the bridge). Its peers come with the routes, its
 * executor (satellites) with `SatelliteCore`.
 */
export function governanceChannelProxy(m: IgnitionModuleBuilder) {
  return uupsProxy(
    m,
    "GovernanceChannel",
    [m.getAccount(0)],
    [m.getParameter<string>("ccipRouter"), m.getParameter<bigint>("chainSelector")],
  );
}

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
