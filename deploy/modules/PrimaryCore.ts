import { buildModule } from "@nomicfoundation/hardhat-ignition/modules";

import { Roles } from "@compute-capacity/sdk/constants";
import TokensModule from "./Tokens.js";
import { uupsProxy } from "./uups.js";

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

/**
 * Every contract of the primary chain (Arbitrum), wired, with the deployer still holding the
 * admin roles. `Primary` adds the hand-off to the timelock; only unit-test fixtures stop here.
 *
 * Parameters (`$global`): `treasury`, `collateralToken` (USDC; the mock on local chains),
 * `collateralPerCU`, `verifiers`, `verifierThreshold`, `approver`, `arbitrator`, `guardian`,
 * `votingDelay`, `votingPeriod`, `proposalThreshold`, `quorumPercent`, `timelockDelay`, and the
 * `Tokens` parameters.
 */
export default buildModule("PrimaryCore", (m) => {
  const admin = m.getAccount(0);
  const { cuToken, sstb, governanceToken } = m.useModule(TokensModule);

  const registry = uupsProxy(m, "ProviderRegistry", [
    admin,
    m.getParameter<string>("collateralToken"),
    m.getParameter<bigint>("collateralPerCU"),
  ]);
  const verifier = m.contract("AttestationVerifier", [
    admin,
    m.getParameter<string[]>("verifiers"),
    m.getParameter<number>("verifierThreshold"),
  ]);
  const mintingAgent = uupsProxy(m, "MintingAgent", [admin, verifier], [registry, cuToken, sstb]);
  const redemptionManager = uupsProxy(
    m,
    "RedemptionManager",
    [admin, m.getParameter<string>("treasury")],
    [registry, sstb],
  );
  // the manager's derived reads (issue 23): stateless, bound to the manager's proxy
  const redemptionViews = m.contract("RedemptionViews", [redemptionManager]);
  // the three markets trade sSTB against the chain's collateral stablecoin (USDC); fees to the treasury
  const [spotMarket, futuresMarket, optionsMarket] = (["SpotMarket", "FuturesMarket", "OptionsMarket"] as const).map(
    (name) =>
      uupsProxy(
        m,
        name,
        [admin, m.getParameter<string>("treasury")],
        [sstb, m.getParameter<string>("collateralToken")],
      ),
  );
  const timelock = m.contract("ProtocolTimelock", [
    m.getParameter<bigint>("timelockDelay"),
    [],
    [ZERO_ADDRESS], // anyone executes a passed proposal once its delay is over
    admin, // temporary, renounced by the hand-off
  ]);
  const governor = m.contract("ProtocolGovernor", [
    governanceToken,
    timelock,
    m.getParameter<bigint>("votingDelay"),
    m.getParameter<bigint>("votingPeriod"),
    m.getParameter<bigint>("proposalThreshold"),
    m.getParameter<bigint>("quorumPercent"),
  ]);

  const approver = m.getParameter<string>("approver");
  const arbitrator = m.getParameter<string>("arbitrator");
  const guardian = m.getParameter<string>("guardian");
  const grants = [
    ["CUToken_MINTER_MintingAgent", cuToken, Roles.MINTER, mintingAgent],
    ["SSTB_MINTER_MintingAgent", sstb, Roles.MINTER, mintingAgent],
    ["SSTB_BURNER_MintingAgent", sstb, Roles.BURNER, mintingAgent],
    ["SSTB_BURNER_RedemptionManager", sstb, Roles.BURNER, redemptionManager],
    ["Registry_MINTING_AGENT", registry, Roles.MINTING_AGENT, mintingAgent],
    ["Registry_REDEMPTION_MANAGER", registry, Roles.REDEMPTION_MANAGER, redemptionManager],
    ["Verifier_CONSUMER_MintingAgent", verifier, Roles.CONSUMER, mintingAgent],
    ["Timelock_PROPOSER_Governor", timelock, Roles.TIMELOCK_PROPOSER, governor],
    ["Timelock_CANCELLER_Governor", timelock, Roles.TIMELOCK_CANCELLER, governor],
    ["Registry_APPROVER", registry, Roles.APPROVER, approver],
    ["Registry_ARBITRATOR", registry, Roles.ARBITRATOR, arbitrator],
    ["RedemptionManager_ARBITRATOR", redemptionManager, Roles.ARBITRATOR, arbitrator],
    ["MintingAgent_GUARDIAN", mintingAgent, Roles.GUARDIAN, guardian],
    ["RedemptionManager_GUARDIAN", redemptionManager, Roles.GUARDIAN, guardian],
    ["SpotMarket_GUARDIAN", spotMarket, Roles.GUARDIAN, guardian],
    ["FuturesMarket_GUARDIAN", futuresMarket, Roles.GUARDIAN, guardian],
    ["OptionsMarket_GUARDIAN", optionsMarket, Roles.GUARDIAN, guardian],
  ] as const;
  for (const [id, contract, role, account] of grants) {
    m.call(contract, "grantRole", [role, account], { id: `grant_${id}` });
  }

  return {
    cuToken,
    sstb,
    governanceToken,
    registry,
    verifier,
    mintingAgent,
    redemptionManager,
    redemptionViews,
    spotMarket,
    futuresMarket,
    optionsMarket,
    timelock,
    governor,
  };
});
