// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MintingAgent} from "../../core/MintingAgent.sol";
import {ProviderRegistry} from "../../core/ProviderRegistry.sol";
import {RedemptionManager} from "../../core/RedemptionManager.sol";
import {ICUToken} from "../../interfaces/ICUToken.sol";
import {IProviderRegistry} from "../../interfaces/IProviderRegistry.sol";
import {ISSTB} from "../../interfaces/ISSTB.sol";
import {SSTB} from "../../tokens/SSTB.sol";

// TEST ONLY. Second versions of every UUPS contract, each adding one view, so the upgrade tests
// can show that an upgrade keeps all state and that the new code runs.

/// @title SSTBV2
/// @notice TEST ONLY: SSTB plus a version view. An upgrade with no new state needs no
/// initializer of its own.
/// @custom:oz-upgrades-unsafe-allow missing-initializer
contract SSTBV2 is SSTB {
    /// @notice The implementation's version.
    function version() external pure returns (uint256) {
        return 2;
    }
}

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

/// @title MintingAgentV2
/// @notice TEST ONLY: MintingAgent plus a version view. An upgrade with no new state needs no
/// initializer of its own.
/// @custom:oz-upgrades-unsafe-allow missing-initializer
contract MintingAgentV2 is MintingAgent {
    /// @notice Deploys the implementation with the deployment's collaborators.
    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor(
        IProviderRegistry registry_,
        ICUToken cuToken_,
        ISSTB sstb_
    ) MintingAgent(registry_, cuToken_, sstb_) {}

    /// @notice The implementation's version.
    function version() external pure returns (uint256) {
        return 2;
    }
}

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
