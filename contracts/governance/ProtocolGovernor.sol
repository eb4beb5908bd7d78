// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Governor} from "@openzeppelin/contracts/governance/Governor.sol";
import {GovernorCountingSimple} from "@openzeppelin/contracts/governance/extensions/GovernorCountingSimple.sol";
import {GovernorSettings} from "@openzeppelin/contracts/governance/extensions/GovernorSettings.sol";
import {GovernorTimelockControl} from "@openzeppelin/contracts/governance/extensions/GovernorTimelockControl.sol";
import {GovernorVotes} from "@openzeppelin/contracts/governance/extensions/GovernorVotes.sol";
import {GovernorVotesQuorumFraction} from "@openzeppelin/contracts/governance/extensions/GovernorVotesQuorumFraction.sol";
import {TimelockController} from "@openzeppelin/contracts/governance/TimelockController.sol";
import {IVotes} from "@openzeppelin/contracts/governance/utils/IVotes.sol";

/// @title ProtocolGovernor
/// @notice Token holders' governor: proposals pass by vote of the governance token (simple
/// counting, quorum as a fraction of the circulating supply) and execute through the timelock,
/// which holds every admin, upgrade and parameter role of the protocol.
/// @dev OpenZeppelin's Governor with settings, simple counting, votes, quorum fraction and
/// timelock control. One change: the quorum is a fraction of {circulatingSupply}, the supply less
/// what the token excludes from voting (the arbitrum bridge's escrow of tokens bridged out, which
/// no one can vote with here), so bridging does not raise the share of the voting tokens a
/// proposal needs. The token's clock is timestamps, so the voting delay and period are seconds.
/// Not upgradeable: the timelock can hand the proposer role to a new governor.
contract ProtocolGovernor is
    Governor,
    GovernorSettings,
    GovernorCountingSimple,
    GovernorVotes,
    GovernorVotesQuorumFraction,
    GovernorTimelockControl
{
    /// @notice Deploys the governor of `token`, executing through `timelock`.
    /// @param votingDelay_ Seconds from proposal to the start of voting (vote weights are taken then).
    /// @param votingPeriod_ Seconds voting stays open.
    /// @param proposalThreshold_ Votes needed to propose, in token base units.
    /// @param quorumPercent Share of the token supply that must vote for or abstain, in percent.
    constructor(
        IVotes token,
        TimelockController timelock,
        uint48 votingDelay_,
        uint32 votingPeriod_,
        uint256 proposalThreshold_,
        uint256 quorumPercent
    )
        Governor("ProtocolGovernor")
        GovernorSettings(votingDelay_, votingPeriod_, proposalThreshold_)
        GovernorVotes(token)
        GovernorVotesQuorumFraction(quorumPercent)
        GovernorTimelockControl(timelock)
    {}

    /// @notice The quorum at `timepoint`: the quorum fraction of {circulatingSupply} then.
    function quorum(uint256 timepoint) public view override(Governor, GovernorVotesQuorumFraction) returns (uint256) {
        return (circulatingSupply(timepoint) * quorumNumerator(timepoint)) / quorumDenominator();
    }

    /// @notice The governance tokens that could vote at `timepoint` (a past time): the total
    /// supply less the token's excluded supply, the votes checkpointed for the token's own address
    /// (see {GovernanceToken}; 0 for a token without exclusions).
    function circulatingSupply(uint256 timepoint) public view returns (uint256) {
        IVotes votes = token();
        return votes.getPastTotalSupply(timepoint) - votes.getPastVotes(address(votes), timepoint);
    }

    /// @inheritdoc GovernorTimelockControl
    function state(uint256 proposalId) public view override(Governor, GovernorTimelockControl) returns (ProposalState) {
        return super.state(proposalId);
    }

    /// @inheritdoc GovernorTimelockControl
    function proposalNeedsQueuing(
        uint256 proposalId
    ) public view override(Governor, GovernorTimelockControl) returns (bool) {
        return super.proposalNeedsQueuing(proposalId);
    }

    /// @inheritdoc GovernorSettings
    function proposalThreshold() public view override(Governor, GovernorSettings) returns (uint256) {
        return super.proposalThreshold();
    }

    function _queueOperations(
        uint256 proposalId,
        address[] memory targets,
        uint256[] memory values,
        bytes[] memory calldatas,
        bytes32 descriptionHash
    ) internal override(Governor, GovernorTimelockControl) returns (uint48) {
        return super._queueOperations(proposalId, targets, values, calldatas, descriptionHash);
    }

    function _executeOperations(
        uint256 proposalId,
        address[] memory targets,
        uint256[] memory values,
        bytes[] memory calldatas,
        bytes32 descriptionHash
    ) internal override(Governor, GovernorTimelockControl) {
        super._executeOperations(proposalId, targets, values, calldatas, descriptionHash);
    }

    function _cancel(
        address[] memory targets,
        uint256[] memory values,
        bytes[] memory calldatas,
        bytes32 descriptionHash
    ) internal override(Governor, GovernorTimelockControl) returns (uint256) {
        return super._cancel(targets, values, calldatas, descriptionHash);
    }

    function _executor() internal view override(Governor, GovernorTimelockControl) returns (address) {
        return super._executor();
    }
}
