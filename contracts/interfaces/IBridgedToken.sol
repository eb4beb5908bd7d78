// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @title IBridgedToken
/// @notice A token the bridge mints on delivery and burns on sending: sSTB on every chain, the
/// bridged governance token on the satellites.
interface IBridgedToken is IERC20 {
    /// @notice Mints `amount` to `to` (minter role: the bridge, and on arbitrum the minting agent for sSTB).
    function mint(address to, uint256 amount) external;

    /// @notice Burns `amount` of `account`'s tokens, spending the caller's allowance from `account`
    /// (burner role).
    function burnFrom(address account, uint256 amount) external;
}
