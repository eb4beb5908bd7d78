// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ProviderRegistry} from "../../core/ProviderRegistry.sol";

// TEST ONLY: a second version for the upgrade tests (state kept, new code runs).
/// @title ProviderRegistryV2
/// @notice TEST ONLY: ProviderRegistry plus a version view. An upgrade with no new state needs no
/// initializer of its own.
/// @custom:oz-upgrades-unsafe-allow missing-initializer
contract ProviderRegistryV2 is ProviderRegistry {
    /// @notice The implementation's version.
    function version() external pure returns (uint256) {
        return 2;
    }
}
