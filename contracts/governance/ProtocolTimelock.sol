// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TimelockController} from "@openzeppelin/contracts/governance/TimelockController.sol";

/// @title ProtocolTimelock
/// @notice Holds every admin, upgrade and parameter role of the protocol and executes what the
/// governor passed, after a delay that gives users time to react (or leave).
/// @dev OpenZeppelin's TimelockController, unchanged; a named contract so deployments and tests
/// have its artifact and types. Deployed with no admin besides itself once set up: the
/// deployment grants the governor the proposer and canceller roles, opens execution to anyone,
/// and the deployer renounces the temporary admin role.
contract ProtocolTimelock is TimelockController {
    /// @notice Deploys the timelock.
    /// @param minDelay Seconds between queueing and execution.
    /// @param proposers Accounts that may queue (the governor, granted after its deployment).
    /// @param executors Accounts that may execute; `address(0)` opens execution to anyone.
    /// @param admin Temporary admin for the set-up, renounced at the hand-off; `address(0)` for none.
    constructor(
        uint256 minDelay,
        address[] memory proposers,
        address[] memory executors,
        address admin
    ) TimelockController(minDelay, proposers, executors, admin) {}
}
