// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";

/// @title MockStablecoin
/// @notice A 6-decimal USDC stand-in for local chains and tests ONLY. Anyone can mint.
/// Real chains use the real USDC address from `deploy/parameters/`.
contract MockStablecoin is ERC20, ERC20Permit {
    constructor() ERC20("Mock USD Coin", "mUSDC") ERC20Permit("Mock USD Coin") {}

    /// @inheritdoc ERC20
    function decimals() public pure override returns (uint8) {
        return 6;
    }

    /// @notice Mints `amount` to `to`; unrestricted, as a faucet for local chains and tests.
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
