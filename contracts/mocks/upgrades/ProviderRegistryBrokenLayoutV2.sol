// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ProtocolUpgradeable} from "../../utils/ProtocolUpgradeable.sol";

/// @title ProviderRegistryBrokenLayoutV2
/// @notice TEST ONLY. A would-be upgrade of ProviderRegistry that reorders its namespaced storage;
/// the storage-layout test proves the upgrades plugin refuses it.
contract ProviderRegistryBrokenLayoutV2 is ProtocolUpgradeable {
    /// @custom:storage-location erc7201:computeprotocol.storage.ProviderRegistry
    struct ProviderRegistryStorage {
        uint256 collateralPerCU;
        address collateralToken;
    }

    /// @notice Initializes a fresh proxy (the plugin requires an initializer).
    function initialize(address admin) external initializer {
        __ProtocolUpgradeable_init(admin);
    }

    /// @notice Reads the first field of the reordered namespace.
    function collateralPerCU() external view returns (uint256) {
        ProviderRegistryStorage storage $;
        assembly {
            $.slot := 0xcdfd4b6588edcf9ceab11de99e253b6f37a36ebc8a43605661f1435b33c3e800
        }
        return $.collateralPerCU;
    }
}
