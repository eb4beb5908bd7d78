// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {RedemptionManager} from "../../core/RedemptionManager.sol";
import {IProviderRegistry} from "../../interfaces/IProviderRegistry.sol";
import {ISSTB} from "../../interfaces/ISSTB.sol";

// TEST ONLY: a second version for the upgrade tests (state kept, new code runs).
/// @title RedemptionManagerV2
/// @notice TEST ONLY: RedemptionManager plus a version view. An upgrade with no new state needs no
/// initializer of its own.
/// @custom:oz-upgrades-unsafe-allow missing-initializer
contract RedemptionManagerV2 is RedemptionManager {
    /// @notice Deploys the implementation with the deployment's collaborators.
    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor(IProviderRegistry registry_, ISSTB sstb_) RedemptionManager(registry_, sstb_) {}

    /// @notice The implementation's version.
    function version() external pure returns (uint256) {
        return 2;
    }
}
