// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IBridgePre23} from "./IBridgePre23.sol";

// TEST DOUBLE for the upgrade tests (test/contracts/upgrades/UpgradeFromPre23.test.ts); never deployed on a chain.
// A frozen copy of `contracts/interfaces/ISatelliteExecutor.sol` at commit e40cbba, the implementation before issue 23 (the
// redemption manager's read contract, the bridge's governance channel, the forgotten peers'
// queued deliveries, renewal periods, reinitializers that keep governed values). Changed only so
// that it compiles beside today's code: contracts and interfaces renamed with a `Pre23` suffix,
// import paths adjusted. Storage namespaces are the originals, on purpose.
/// @title ISatelliteExecutorPre23
/// @notice Governance on a satellite chain: runs the calls the arbitrum timelock sends over the
/// bridge, and nothing else. It holds every admin, governance and upgrade role on its chain.
interface ISatelliteExecutorPre23 {
    /// @notice The executor ran the calls of a governance message.
    event CallsExecuted(address indexed origin, uint256 calls);

    /// @notice Only the bridge delivers governance messages.
    error ExecutorOnlyBridge(address caller);
    /// @notice The message did not come from the primary chain's timelock.
    error ExecutorUnauthorizedOrigin(uint64 sourceChainSelector, address origin);
    /// @notice A call reverted without a reason.
    error ExecutorCallFailed(uint256 index);
    /// @notice A constructor argument is zero.
    error ExecutorZeroArgument();

    /// @notice Runs `calls` in order, reverting all of them if one reverts (the bridge then records
    /// the governance message as failed: it never runs again, and the proposal must be made anew).
    /// BridgePre23 only; the message must come from the primary chain's timelock.
    function executeFromPrimary(
        uint64 sourceChainSelector,
        address origin,
        IBridgePre23.Call[] calldata calls
    ) external;

    /// @notice The bridge that delivers governance messages.
    function bridge() external view returns (address);

    /// @notice The CCIP chain selector of the primary chain (arbitrum).
    function primaryChainSelector() external view returns (uint64);

    /// @notice The primary chain's timelock, the only origin whose calls run.
    function primaryTimelock() external view returns (address);
}
