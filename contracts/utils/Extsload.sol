// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IExtsload} from "../interfaces/IExtsload.sol";

/// @title Extsload
/// @notice {IExtsload} for a protocol contract: anyone may read any of its storage words. Storage
/// on a public chain is public anyway (`eth_getStorageAt`); this makes it readable from contracts
/// too, so that derived reads can live in a read contract of their own instead of in the
/// contract's bytecode.
abstract contract Extsload is IExtsload {
    /// @inheritdoc IExtsload
    function extsload(bytes32 slot) external view returns (bytes32 value) {
        assembly ("memory-safe") {
            value := sload(slot)
        }
    }

    /// @inheritdoc IExtsload
    function extsload(bytes32 startSlot, uint256 nSlots) external view returns (bytes32[] memory values) {
        values = new bytes32[](nSlots);
        for (uint256 i = 0; i < nSlots; ++i) {
            bytes32 slot = bytes32(uint256(startSlot) + i);
            bytes32 value;
            assembly ("memory-safe") {
                value := sload(slot)
            }
            values[i] = value;
        }
    }
}
