import { parseEther } from "ethers";

/**
 * Governance settings of a deployment. The governance token's clock is timestamps, so delays and
 * periods are seconds.
 */
export interface GovernanceSettings {
  /** Seconds from a proposal to the start of voting; vote weights are read at that moment. */
  votingDelay: bigint;
  /** Seconds voting stays open. */
  votingPeriod: bigint;
  /** Votes needed to make a proposal, in token base units. */
  proposalThreshold: bigint;
  /** Share of the supply that must vote for (or abstain) for a proposal to pass, in percent. */
  quorumPercent: bigint;
  /** Seconds between queueing a passed proposal in the timelock and executing it. */
  timelockDelay: bigint;
}

/**
 * Defaults for a real chain: a day to notice a proposal and delegate, five days to vote, a
 * quorum of 4% of the supply, 0.1% of a 100M supply to propose, and two days between a passed
 * proposal and its effect, so users who disagree can leave first.
 */
export const PRODUCTION_GOVERNANCE: GovernanceSettings = {
  votingDelay: 86_400n,
  votingPeriod: 5n * 86_400n,
  proposalThreshold: parseEther("100000"),
  quorumPercent: 4n,
  timelockDelay: 2n * 86_400n,
};
