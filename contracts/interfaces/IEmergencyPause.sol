// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IEmergencyPause
/// @notice The emergency brake of the contracts that create new obligations (minting, redemption
/// initiation). The pause guardian or governance pulls it; only governance releases it. A pause
/// never blocks what lets users and providers get their funds out: confirmation, finalization,
/// expiry payouts, disputes, retirement and withdrawal of free collateral keep working.
interface IEmergencyPause {
    /// @notice `account` paused the contract.
    event Paused(address account);
    /// @notice `account` (governance) unpaused the contract.
    event Unpaused(address account);

    /// @notice The operation is stopped while the contract is paused.
    error EnforcedPause();
    /// @notice The contract is not paused.
    error ExpectedPause();

    /// @notice Pauses (guardian or governance role).
    function pause() external;

    /// @notice Unpauses (governance role only).
    function unpause() external;

    /// @notice Whether the contract is paused.
    function paused() external view returns (bool);
}
