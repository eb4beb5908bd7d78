// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IGovernanceChannel} from "./IGovernanceChannel.sol";

/// @title ISatelliteExecutor
/// @notice Governance on a satellite chain: runs the calls the arbitrum timelock sends over the
/// governance channel, and nothing else. It holds every admin, governance and upgrade role on its
/// chain.
interface ISatelliteExecutor {
    /// @notice The executor ran the calls of a governance message.
    event CallsExecuted(address indexed origin, uint256 calls);

    /// @notice Only the governance channel delivers governance messages.
    error ExecutorOnlyChannel(address caller);
    /// @notice The message did not come from the primary chain's timelock.
    error ExecutorUnauthorizedOrigin(uint64 sourceChainSelector, address origin);
    /// @notice A call reverted without a reason.
    error ExecutorCallFailed(uint256 index);
    /// @notice A constructor argument is zero.
    error ExecutorZeroArgument();

    /// @notice Runs `calls` in order, reverting all of them if one reverts (the channel then records
    /// the governance message as failed: it never runs again, and the proposal must be made anew).
    /// Channel only; the message must come from the primary chain's timelock.
    function executeFromPrimary(
        uint64 sourceChainSelector,
        address origin,
        IGovernanceChannel.Call[] calldata calls
    ) external;

    /// @notice The governance channel that delivers governance messages.
    function channel() external view returns (address);

    /// @notice The CCIP chain selector of the primary chain (arbitrum).
    function primaryChainSelector() external view returns (uint64);

    /// @notice The primary chain's timelock, the only origin whose calls run.
    function primaryTimelock() external view returns (address);
}
