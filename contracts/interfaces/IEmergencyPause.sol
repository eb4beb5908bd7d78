// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IEmergencyPause
/// @notice The emergency brake of the contracts that create new obligations (minting, redemption
/// initiation, new market positions). Governance pulls it for as long as it decides; the pause
/// guardian (a multisig that can act faster than a proposal) pulls it once, for a bounded time,
/// after which it lapses by itself. The guardian may pull it again only after governance re-arms
/// it. Only governance releases a pause early. A pause never blocks what lets users and providers
/// get their funds out: confirmation, finalization, expiry payouts, disputes, retirement,
/// withdrawal of free collateral, and every market path that returns escrow keep working.
interface IEmergencyPause {
    /// @notice `account` paused the contract until `until` (Unix seconds; `type(uint40).max` for a
    /// governance pause, which lasts until governance unpauses).
    event Paused(address account, uint256 until);
    /// @notice `account` (governance) unpaused the contract.
    event Unpaused(address account);
    /// @notice Governance re-armed the guardian, which may pause once more.
    event GuardianPauseRearmed(address account);
    /// @notice Governance changed how long a guardian pause lasts.
    event GuardianPauseDurationUpdated(uint256 previous, uint256 current);

    /// @notice The operation is stopped while the contract is paused.
    error EnforcedPause();
    /// @notice The contract is not paused.
    error ExpectedPause();
    /// @notice The guardian has used its pause; governance must re-arm it first.
    error GuardianPauseSpent();
    /// @notice A guardian pause duration outside [MIN_GUARDIAN_PAUSE, MAX_GUARDIAN_PAUSE].
    error GuardianPauseDurationOutOfBounds(uint256 duration);

    /// @notice Pauses. Governance: until it unpauses (also turning a running guardian pause into
    /// one). Guardian: for the governed guardian pause duration, once per arming.
    function pause() external;

    /// @notice Unpauses (governance role only).
    function unpause() external;

    /// @notice Lets the guardian pause once more (governance role only).
    function rearmGuardian() external;

    /// @notice Sets how long a guardian pause lasts (governance role only), within bounds.
    function setGuardianPauseDuration(uint256 duration) external;

    /// @notice Whether the contract is paused now.
    function paused() external view returns (bool);

    /// @notice When the current pause lapses (Unix seconds): 0 if never paused, in the past once it
    /// ended, `type(uint40).max` for a governance pause.
    function pausedUntil() external view returns (uint256);

    /// @notice How long a guardian pause lasts, in seconds.
    function guardianPauseDuration() external view returns (uint256);

    /// @notice Whether the guardian may pause (it has not used its pause since governance armed it).
    function guardianArmed() external view returns (bool);
}
