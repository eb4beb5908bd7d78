// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IGovernanceChannel} from "../interfaces/IGovernanceChannel.sol";
import {ISatelliteExecutor} from "../interfaces/ISatelliteExecutor.sol";

/// @title SatelliteExecutor
/// @notice Governance on a satellite chain (ethereum, polygon): it holds every admin, governance and
/// upgrade role there, and it runs only the calls that the arbitrum timelock sends over the
/// governance channel. So a proposal passed on arbitrum is the only way to change anything on a
/// satellite.
/// @dev Not upgradeable and has no admin of its own: its channel, the primary chain and the
/// timelock are fixed at deployment. Replacing it is a governance message that has it grant its
/// roles to a successor. The channel checks router and peer; this contract checks the channel, the
/// source chain and the origin, so a compromised satellite peer could not pass governance off as
/// the timelock.
contract SatelliteExecutor is ISatelliteExecutor {
    address private immutable _channel;
    uint64 private immutable _primaryChainSelector;
    address private immutable _primaryTimelock;

    /// @notice Deploys the executor of one satellite chain.
    /// @param channel_ The governance channel of this chain.
    /// @param primaryChainSelector_ CCIP chain selector of arbitrum.
    /// @param primaryTimelock_ The timelock on arbitrum.
    constructor(address channel_, uint64 primaryChainSelector_, address primaryTimelock_) {
        if (channel_ == address(0) || primaryChainSelector_ == 0 || primaryTimelock_ == address(0)) {
            revert ExecutorZeroArgument();
        }
        _channel = channel_;
        _primaryChainSelector = primaryChainSelector_;
        _primaryTimelock = primaryTimelock_;
    }

    /// @notice Accepts native gas for calls that carry value.
    receive() external payable {}

    /// @inheritdoc ISatelliteExecutor
    function executeFromPrimary(
        uint64 sourceChainSelector,
        address origin,
        IGovernanceChannel.Call[] calldata calls
    ) external {
        if (msg.sender != _channel) revert ExecutorOnlyChannel(msg.sender);
        if (sourceChainSelector != _primaryChainSelector || origin != _primaryTimelock) {
            revert ExecutorUnauthorizedOrigin(sourceChainSelector, origin);
        }
        for (uint256 i = 0; i < calls.length; ++i) {
            IGovernanceChannel.Call calldata c = calls[i];
            // solhint-disable-next-line avoid-low-level-calls
            (bool ok, bytes memory result) = c.target.call{value: c.value}(c.data);
            if (!ok) {
                if (result.length == 0) revert ExecutorCallFailed(i);
                assembly {
                    revert(add(result, 32), mload(result))
                }
            }
        }
        emit CallsExecuted(origin, calls.length);
    }

    /// @inheritdoc ISatelliteExecutor
    function channel() external view returns (address) {
        return _channel;
    }

    /// @inheritdoc ISatelliteExecutor
    function primaryChainSelector() external view returns (uint64) {
        return _primaryChainSelector;
    }

    /// @inheritdoc ISatelliteExecutor
    function primaryTimelock() external view returns (address) {
        return _primaryTimelock;
    }
}
