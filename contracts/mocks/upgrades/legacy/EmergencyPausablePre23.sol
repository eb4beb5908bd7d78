// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IEmergencyPause} from "../../../interfaces/IEmergencyPause.sol";
import {Roles} from "../../../libraries/Roles.sol";
import {ProtocolUpgradeable} from "../../../utils/ProtocolUpgradeable.sol";

// TEST DOUBLE for the upgrade tests (test/contracts/upgrades/UpgradeFromPre23.test.ts); never deployed on a chain.
// A frozen copy of `contracts/utils/EmergencyPausable.sol` at commit e40cbba, the implementation before issue 23 (the
// redemption manager's read contract, the bridge's governance channel, the forgotten peers'
// queued deliveries, renewal periods, reinitializers that keep governed values). Changed only so
// that it compiles beside today's code: contracts and interfaces renamed with a `Pre23` suffix,
// import paths adjusted. Storage namespaces are the originals, on purpose.
/// @title EmergencyPausablePre23
/// @notice The pause of {IEmergencyPause} for protocol contracts. Governance pauses until it
/// unpauses; the guardian pauses once, for at most {guardianPauseDuration}, and then only again
/// after governance re-arms it, so a guardian can never keep the protocol stopped on its own.
/// @dev The pause is a lapse time (`pausedUntil`, 40 bits) that lives in the inheriting contract's
/// own namespaced storage, packed into a slot its guarded operation reads anyway, so the check
/// costs no extra cold access: guard with `if (block.timestamp < until) revert EnforcedPause();`
/// or {_requireNotPaused}. The guardian's arming and the duration are read only when pausing and
/// live in this contract's own namespace.
abstract contract EmergencyPausablePre23 is ProtocolUpgradeable, IEmergencyPause {
    /// @notice Shortest guardian pause governance may set.
    uint256 public constant MIN_GUARDIAN_PAUSE = 1 hours;
    /// @notice Longest guardian pause governance may set.
    uint256 public constant MAX_GUARDIAN_PAUSE = 30 days;
    /// @notice The guardian pause at initialization: longer than the production governance cycle
    /// (1 d delay + 5 d vote + 2 d timelock), so governance can decide before it lapses.
    uint256 public constant DEFAULT_GUARDIAN_PAUSE = 14 days;

    /// @dev `pausedUntil` value of a governance pause.
    uint40 internal constant PAUSED_INDEFINITELY = type(uint40).max;

    /// @custom:storage-location erc7201:computeprotocol.storage.EmergencyPausable
    struct EmergencyPausableStorage {
        uint32 guardianPauseDuration;
        bool guardianPauseSpent;
    }

    // keccak256(abi.encode(uint256(keccak256("computeprotocol.storage.EmergencyPausable")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant PAUSE_STORAGE_LOCATION =
        0x13045f5fde2a2267f848b2fa894fea140bc1bdcfc20d12643ee63e4e57cd1c00;

    // solhint-disable-next-line func-name-mixedcase
    function __EmergencyPausable_init() internal onlyInitializing {
        _setGuardianPauseDuration(DEFAULT_GUARDIAN_PAUSE);
    }

    /// @dev Version 2 of {__EmergencyPausable_init}, for a proxy that an implementation without the
    /// guardian pause duration initialized (its pause was a flag that lasted until governance
    /// unpaused): sets the duration to {DEFAULT_GUARDIAN_PAUSE} and, if the contract was paused under
    /// the flag, carries that pause over as what it was, a governance pause. Run it from the
    /// inheriting contract's `reinitializer(2)`, which reads the old flag from its own layout.
    /// @param flagPaused Whether the old flag was set.
    // solhint-disable-next-line func-name-mixedcase
    function __EmergencyPausable_initV2(bool flagPaused) internal onlyInitializing {
        _setGuardianPauseDuration(DEFAULT_GUARDIAN_PAUSE);
        if (flagPaused) {
            _setPausedUntil(PAUSED_INDEFINITELY);
            emit Paused(msg.sender, PAUSED_INDEFINITELY);
        }
    }

    /// @inheritdoc IEmergencyPause
    function pause() external {
        uint40 until;
        if (hasRole(Roles.GOVERNANCE_ROLE, msg.sender)) {
            if (_pausedUntil() == PAUSED_INDEFINITELY) revert EnforcedPause();
            until = PAUSED_INDEFINITELY;
        } else if (hasRole(Roles.GUARDIAN_ROLE, msg.sender)) {
            if (_isPaused()) revert EnforcedPause();
            EmergencyPausableStorage storage $ = _pauseStorage();
            if ($.guardianPauseSpent) revert GuardianPauseSpent();
            $.guardianPauseSpent = true;
            until = uint40(block.timestamp + $.guardianPauseDuration);
        } else {
            revert AccessControlUnauthorizedAccount(msg.sender, Roles.GUARDIAN_ROLE);
        }
        _setPausedUntil(until);
        emit Paused(msg.sender, until);
    }

    /// @inheritdoc IEmergencyPause
    function unpause() external onlyRole(Roles.GOVERNANCE_ROLE) {
        if (!_isPaused()) revert ExpectedPause();
        _setPausedUntil(uint40(block.timestamp));
        emit Unpaused(msg.sender);
    }

    /// @inheritdoc IEmergencyPause
    function rearmGuardian() external onlyRole(Roles.GOVERNANCE_ROLE) {
        _pauseStorage().guardianPauseSpent = false;
        emit GuardianPauseRearmed(msg.sender);
    }

    /// @inheritdoc IEmergencyPause
    function setGuardianPauseDuration(uint256 duration) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _setGuardianPauseDuration(duration);
    }

    /// @inheritdoc IEmergencyPause
    function paused() external view returns (bool) {
        return _isPaused();
    }

    /// @inheritdoc IEmergencyPause
    function pausedUntil() external view returns (uint256) {
        return _pausedUntil();
    }

    /// @inheritdoc IEmergencyPause
    function guardianPauseDuration() external view returns (uint256) {
        return _pauseStorage().guardianPauseDuration;
    }

    /// @inheritdoc IEmergencyPause
    function guardianArmed() external view returns (bool) {
        return !_pauseStorage().guardianPauseSpent;
    }

    /// @dev Reverts with {EnforcedPause} while paused. Contracts whose guarded path already holds
    /// the packed slot compare `block.timestamp` with it themselves.
    function _requireNotPaused() internal view {
        if (_isPaused()) revert EnforcedPause();
    }

    function _isPaused() internal view returns (bool) {
        return block.timestamp < _pausedUntil();
    }

    /// @dev The stored lapse time of the pause.
    function _pausedUntil() internal view virtual returns (uint40);

    /// @dev Stores the lapse time of the pause.
    function _setPausedUntil(uint40 until) internal virtual;

    function _setGuardianPauseDuration(uint256 duration) private {
        if (duration < MIN_GUARDIAN_PAUSE || duration > MAX_GUARDIAN_PAUSE) {
            revert GuardianPauseDurationOutOfBounds(duration);
        }
        EmergencyPausableStorage storage $ = _pauseStorage();
        emit GuardianPauseDurationUpdated($.guardianPauseDuration, duration);
        $.guardianPauseDuration = uint32(duration);
    }

    function _pauseStorage() private pure returns (EmergencyPausableStorage storage $) {
        assembly {
            $.slot := PAUSE_STORAGE_LOCATION
        }
    }
}
