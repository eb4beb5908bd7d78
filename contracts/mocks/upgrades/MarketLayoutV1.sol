// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ProtocolUpgradeable} from "../../utils/ProtocolUpgradeable.sol";

/// @title MarketLayoutV1
/// @notice TEST ONLY. The markets' shared namespace as the implementations deployed before issue 17
/// had it (before the claimable balances were appended); the storage-layout test checks with the
/// upgrades plugin that each market's layout is an upgrade of it.
contract MarketLayoutV1 is ProtocolUpgradeable {
    /// @custom:storage-location erc7201:computeprotocol.storage.Market
    struct MarketStorage {
        address treasury;
        uint16 feeBps;
        uint40 pausedUntil;
        uint40 sequence;
    }

    /// @notice Takes the sSTB and payment token, as the markets' implementations do (unused here:
    /// only the layout matters).
    /// @custom:oz-upgrades-unsafe-allow constructor
    // solhint-disable-next-line no-empty-blocks
    constructor(address, address) {}

    /// @notice Initializes a fresh proxy (the plugin requires an initializer).
    function initialize(address admin) external initializer {
        __ProtocolUpgradeable_init(admin);
    }

    /// @notice Reads the listing sequence of the previous layout.
    function listingCount() external view returns (uint256) {
        MarketStorage storage $;
        assembly {
            $.slot := 0x06be8e109137a3fdb57f088fb79d4cbe30f9f99f623625e3bcc6b6e3cf8cc800
        }
        return $.sequence;
    }
}
