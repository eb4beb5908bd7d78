// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

import {FuturesMarket} from "../../markets/FuturesMarket.sol";

// TEST ONLY: a second version for the upgrade tests (state kept, new code runs).
/// @title FuturesMarketV2
/// @notice TEST ONLY: FuturesMarket plus a version view. An upgrade with no new state needs no
/// initializer of its own.
/// @custom:oz-upgrades-unsafe-allow missing-initializer
contract FuturesMarketV2 is FuturesMarket {
    /// @notice Deploys the implementation with the deployment's tokens.
    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor(IERC20 sstb_, IERC20 paymentToken_) FuturesMarket(sstb_, paymentToken_) {}

    /// @notice The implementation's version.
    function version() external pure returns (uint256) {
        return 2;
    }
}
