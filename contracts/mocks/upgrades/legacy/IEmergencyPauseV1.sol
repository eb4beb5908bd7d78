// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// TEST DOUBLE for the upgrade tests (test/contracts/upgrades/Reinitialize.test.ts); never deployed on a chain.
// A frozen copy of `contracts/interfaces/IEmergencyPause.sol` at commit 2c890a0, the last implementation before
// `guardianPauseDuration`, `disputeResolutionPeriod`, `minRedemptionAmount` and `reputationUnit`
// existed. Changed only so that it compiles beside today's code: contracts and interfaces renamed
// with a `V1` suffix, import paths adjusted. Storage namespaces are the originals, on purpose.
/// @title IEmergencyPauseV1
/// @notice The emergency brake of the contracts that create new obligations (minting, redemption
/// initiation). The pause guardian or governance pulls it; only governance releases it. A pause
/// never blocks what lets users and providers get their funds out: confirmation, finalization,
/// expiry payouts, disputes, retirement and withdrawal of free collateral keep working.
interface IEmergencyPauseV1 {
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
