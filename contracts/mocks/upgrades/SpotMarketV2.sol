// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

import {SpotMarket} from "../../markets/SpotMarket.sol";

// TEST ONLY: a second version for the upgrade tests (state kept, new code runs).
/// @title SpotMarketV2
/// @notice TEST ONLY: SpotMarket plus a version view. An upgrade with no new state needs no
/// initializer of its own.
/// @custom:oz-upgrades-unsafe-allow missing-initializer
contract SpotMarketV2 is SpotMarket {
    /// @notice Deploys the implementation with the deployment's tokens.
    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor(IERC20 sstb_, IERC20 paymentToken_) SpotMarket(sstb_, paymentToken_) {}

    /// @notice The implementation's version.
    function version() external pure returns (uint256) {
        return 2;
    }
}
