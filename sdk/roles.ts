import { id } from "ethers";

/** Role ids, mirroring `contracts/libraries/Roles.sol`. */
export const Roles = {
  DEFAULT_ADMIN: "0x" + "00".repeat(32),
  GOVERNANCE: id("GOVERNANCE_ROLE"),
  UPGRADER: id("UPGRADER_ROLE"),
  MINTER: id("MINTER_ROLE"),
  BURNER: id("BURNER_ROLE"),
  MINTING_AGENT: id("MINTING_AGENT_ROLE"),
  REDEMPTION_MANAGER: id("REDEMPTION_MANAGER_ROLE"),
  APPROVER: id("APPROVER_ROLE"),
  ARBITRATOR: id("ARBITRATOR_ROLE"),
  CONSUMER: id("CONSUMER_ROLE"),
  GUARDIAN: id("GUARDIAN_ROLE"),
  // TimelockController's own roles
  TIMELOCK_PROPOSER: id("PROPOSER_ROLE"),
  TIMELOCK_EXECUTOR: id("EXECUTOR_ROLE"),
  TIMELOCK_CANCELLER: id("CANCELLER_ROLE"),
} as const;

export type RoleName = keyof typeof Roles;
