// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MintingAgent} from "../../core/MintingAgent.sol";
import {ICUToken} from "../../interfaces/ICUToken.sol";
import {IProviderRegistry} from "../../interfaces/IProviderRegistry.sol";
import {ISSTB} from "../../interfaces/ISSTB.sol";

// TEST ONLY: a second version for the upgrade tests (state kept, new code runs).
/// @title MintingAgentV2
/// @notice TEST ONLY: MintingAgent plus a version view. An upgrade with no new state needs no
/// initializer of its own.
/// @custom:oz-upgrades-unsafe-allow missing-initializer
contract MintingAgentV2 is MintingAgent {
    /// @notice Deploys the implementation with the deployment's collaborators.
    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor(IProviderRegistry registry_, ICUToken cuToken_, ISSTB sstb_) MintingAgent(registry_, cuToken_, sstb_) {}

    /// @notice The implementation's version.
    function version() external pure returns (uint256) {
        return 2;
    }
}
