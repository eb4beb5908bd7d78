// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControlUpgradeable} from "@openzeppelin/contracts-upgradeable/access/AccessControlUpgradeable.sol";
import {Initializable} from "@openzeppelin/contracts-upgradeable/proxy/utils/Initializable.sol";
import {UUPSUpgradeable} from "@openzeppelin/contracts-upgradeable/proxy/utils/UUPSUpgradeable.sol";

import {Roles} from "../libraries/Roles.sol";

/// @title ProtocolUpgradeable
/// @notice Base of every stateful protocol contract: a UUPS proxy implementation whose upgrades
/// and parameters are governed through roles.
/// @dev `admin` receives `DEFAULT_ADMIN_ROLE`, `GOVERNANCE_ROLE` and `UPGRADER_ROLE` at
/// initialization; the deployment hands all three to the timelock and renounces them.
/// Implementations are locked by the constructor so nobody can initialize them directly.
abstract contract ProtocolUpgradeable is Initializable, AccessControlUpgradeable, UUPSUpgradeable {
    /// @notice The zero address was given where an account or contract is required.
    error ZeroAddress();

    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor() {
        _disableInitializers();
    }

    // solhint-disable-next-line func-name-mixedcase
    function __ProtocolUpgradeable_init(address admin) internal onlyInitializing {
        if (admin == address(0)) revert ZeroAddress();
        __AccessControl_init();
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(Roles.GOVERNANCE_ROLE, admin);
        _grantRole(Roles.UPGRADER_ROLE, admin);
    }

    /// @dev Only the upgrader role (the timelock after deployment) may upgrade.
    function _authorizeUpgrade(address) internal view override onlyRole(Roles.UPGRADER_ROLE) {}
}
