// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @title ISSTB
/// @notice The utility token for verified compute capacity (1 sSTB = 1 unit of CU value).
interface ISSTB is IERC20 {
    /// @notice Mints `amount` to `to`. Minter role only (minting agent, bridge).
    function mint(address to, uint256 amount) external;

    /// @notice Burns `amount` of `account`'s tokens, spending the caller's allowance from `account`.
    /// @dev Burner role only (redemption manager, minting agent, bridge). Even a burner cannot burn
    /// tokens their holder has not approved to it.
    function burnFrom(address account, uint256 amount) external;

    /// @notice Burns `amount` of `account`'s tokens and moves `fee` of them to `feeRecipient`,
    /// spending the caller's allowance from `account` for both at once (a redemption: the burn and
    /// its fee in one call).
    /// @dev Burner role only (the redemption manager), as {burnFrom}.
    function burnFromWithFee(address account, uint256 amount, address feeRecipient, uint256 fee) external;
}
