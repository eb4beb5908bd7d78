// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IEmergencyPause} from "../interfaces/IEmergencyPause.sol";
import {Roles} from "../libraries/Roles.sol";
import {ProtocolUpgradeable} from "./ProtocolUpgradeable.sol";

/// @title EmergencyPausable
/// @notice The pause of {IEmergencyPause} for protocol contracts: the guardian or governance
/// pauses, only governance unpauses, and the contract decides which operations check it.
/// @dev The flag lives in the inheriting contract's own namespaced storage, packed into a slot its
/// guarded operation reads anyway, so the check costs no extra cold access.
abstract contract EmergencyPausable is ProtocolUpgradeable, IEmergencyPause {
    /// @inheritdoc IEmergencyPause
    function pause() external {
        if (!hasRole(Roles.GUARDIAN_ROLE, msg.sender) && !hasRole(Roles.GOVERNANCE_ROLE, msg.sender)) {
            revert AccessControlUnauthorizedAccount(msg.sender, Roles.GUARDIAN_ROLE);
        }
        if (_isPaused()) revert EnforcedPause();
        _setPaused(true);
        emit Paused(msg.sender);
    }

    /// @inheritdoc IEmergencyPause
    function unpause() external onlyRole(Roles.GOVERNANCE_ROLE) {
        if (!_isPaused()) revert ExpectedPause();
        _setPaused(false);
        emit Unpaused(msg.sender);
    }

    /// @inheritdoc IEmergencyPause
    function paused() external view returns (bool) {
        return _isPaused();
    }

    /// @dev The stored flag.
    function _isPaused() internal view virtual returns (bool);

    /// @dev Stores the flag.
    function _setPaused(bool value) internal virtual;
}
