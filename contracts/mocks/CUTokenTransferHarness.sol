// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {CUToken} from "../tokens/CUToken.sol";

// TEST ONLY: opens ERC-1155's internal transfer paths, which no public function of CUToken reaches.
/// @title CUTokenTransferHarness
/// @notice TEST ONLY: CUToken plus calls into ERC-1155's internal `_safeTransferFrom` and
/// `_safeBatchTransferFrom`, to show that CUToken's `_update` refuses a transfer on any path.
contract CUTokenTransferHarness is CUToken {
    /// @notice Deploys the token with `admin` as its admin.
    constructor(address admin) CUToken(admin, "") {}

    /// @notice Transfers through ERC-1155's internal single transfer.
    function internalTransfer(address from, address to, uint256 id, uint256 value) external {
        _safeTransferFrom(from, to, id, value, "");
    }

    /// @notice Transfers through ERC-1155's internal batch transfer.
    function internalBatchTransfer(
        address from,
        address to,
        uint256[] calldata ids,
        uint256[] calldata values
    ) external {
        _safeBatchTransferFrom(from, to, ids, values, "");
    }
}
