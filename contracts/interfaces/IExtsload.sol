// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IExtsload
/// @notice Raw reads of a contract's storage by slot (EIP-2330's `extsload`), for read contracts
/// and clients that decode the contract's documented layout themselves, as Uniswap v4's
/// `StateLibrary` does for its pool manager.
interface IExtsload {
    /// @notice The word stored at `slot`.
    function extsload(bytes32 slot) external view returns (bytes32 value);

    /// @notice The `nSlots` words stored from `startSlot` on, in order.
    function extsload(bytes32 startSlot, uint256 nSlots) external view returns (bytes32[] memory values);
}
