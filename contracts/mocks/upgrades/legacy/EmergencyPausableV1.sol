// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IEmergencyPauseV1} from "./IEmergencyPauseV1.sol";
import {Roles} from "../../../libraries/Roles.sol";
import {ProtocolUpgradeable} from "../../../utils/ProtocolUpgradeable.sol";

// TEST DOUBLE for the upgrade tests (test/contracts/upgrades/Reinitialize.test.ts); never deployed on a chain.
// A frozen copy of `contracts/utils/EmergencyPausable.sol` at commit 2c890a0, the last implementation before
// `guardianPauseDuration`, `disputeResolutionPeriod`, `minRedemptionAmount` and `reputationUnit`
// existed. Changed only so that it compiles beside today's code: contracts and interfaces renamed
// with a `V1` suffix, import paths adjusted. Storage namespaces are the originals, on purpose.
/// @title EmergencyPausableV1
/// @notice The pause of {IEmergencyPauseV1} for protocol contracts: the guardian or governance
/// pauses, only governance unpauses, and the contract decides which operations check it.
/// @dev The flag lives in the inheriting contract's own namespaced storage, packed into a slot its
/// guarded operation reads anyway, so the check costs no extra cold access.
abstract contract EmergencyPausableV1 is ProtocolUpgradeable, IEmergencyPauseV1 {
    /// @inheritdoc IEmergencyPauseV1
    function pause() external {
        if (!hasRole(Roles.GUARDIAN_ROLE, msg.sender) && !hasRole(Roles.GOVERNANCE_ROLE, msg.sender)) {
            revert AccessControlUnauthorizedAccount(msg.sender, Roles.GUARDIAN_ROLE);
        }
        if (_isPaused()) revert EnforcedPause();
        _setPaused(true);
        emit Paused(msg.sender);
    }

    /// @inheritdoc IEmergencyPauseV1
    function unpause() external onlyRole(Roles.GOVERNANCE_ROLE) {
        if (!_isPaused()) revert ExpectedPause();
        _setPaused(false);
        emit Unpaused(msg.sender);
    }

    /// @inheritdoc IEmergencyPauseV1
    function paused() external view returns (bool) {
        return _isPaused();
    }

    /// @dev The stored flag.
    function _isPaused() internal view virtual returns (bool);

    /// @dev Stores the flag.
    function _setPaused(bool value) internal virtual;
}
