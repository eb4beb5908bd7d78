// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {EmergencyPausable} from "../utils/EmergencyPausable.sol";

// TEST ONLY: the pause base as a contract that guards with {_requireNotPaused} instead of packing
// the lapse time into a slot of its own (no production contract does so yet).
/// @title EmergencyPausableHarness
/// @notice TEST ONLY: the smallest EmergencyPausable; `guarded` counts calls while not paused.
contract EmergencyPausableHarness is EmergencyPausable {
    /// @custom:storage-location erc7201:computeprotocol.storage.EmergencyPausableHarness
    struct HarnessStorage {
        uint40 pausedUntil;
        uint256 guardedCalls;
    }

    // keccak256(abi.encode(uint256(keccak256("computeprotocol.storage.EmergencyPausableHarness")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant STORAGE_LOCATION = 0x8592b32a74c759ea38c597d9b7872bd59efeeebe47a63924aa390b6471c4e500;

    /// @notice Initializes the proxy with `admin` as admin and governance.
    function initialize(address admin) external initializer {
        __ProtocolUpgradeable_init(admin);
        __EmergencyPausable_init();
    }

    /// @notice Counts a call; refused while paused.
    function guarded() external {
        _requireNotPaused();
        ++_storage().guardedCalls;
    }

    /// @notice How many guarded calls went through.
    function guardedCalls() external view returns (uint256) {
        return _storage().guardedCalls;
    }

    function _pausedUntil() internal view override returns (uint40) {
        return _storage().pausedUntil;
    }

    function _setPausedUntil(uint40 until) internal override {
        _storage().pausedUntil = until;
    }

    function _storage() private pure returns (HarnessStorage storage $) {
        assembly {
            $.slot := STORAGE_LOCATION
        }
    }
}
