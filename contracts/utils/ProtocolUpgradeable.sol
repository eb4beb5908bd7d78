// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControlUpgradeable} from "@openzeppelin/contracts-upgradeable/access/AccessControlUpgradeable.sol";
import {Initializable} from "@openzeppelin/contracts-upgradeable/proxy/utils/Initializable.sol";
import {UUPSUpgradeable} from "@openzeppelin/contracts-upgradeable/proxy/utils/UUPSUpgradeable.sol";

import {Roles} from "../libraries/Roles.sol";

/// @title ProtocolUpgradeable
/// @notice Base of every stateful protocol contract: a UUPS proxy implementation whose upgrades
/// and parameters are governed through roles, and which says which initializer version it brings a
/// proxy to ({latestInitializerVersion}) and which one a proxy is at ({initializedVersion}).
/// @dev `admin` receives `DEFAULT_ADMIN_ROLE`, `GOVERNANCE_ROLE` and `UPGRADER_ROLE` at
/// initialization; the deployment hands all three to the timelock and renounces them.
/// Implementations are locked by the constructor so nobody can initialize them directly.
///
/// Versions: a contract without reinitializers initializes with OpenZeppelin's `initializer`
/// (version 1). A contract with reinitializers up to version n initializes with
/// `notInitialized reinitializer(n)`, so a proxy its current code set up is at version n and none
/// of the reinitializers (each written for proxies an older implementation set up) can run on it,
/// and overrides {latestInitializerVersion} to return n.
abstract contract ProtocolUpgradeable is Initializable, AccessControlUpgradeable, UUPSUpgradeable {
    /// @notice The zero address was given where an account or contract is required.
    error ZeroAddress();

    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor() {
        _disableInitializers();
    }

    /// @dev Put before `reinitializer(n)` on `initialize`: refuses a proxy that any code has
    /// initialized before (version above 0), as OpenZeppelin's `initializer` does, so that
    /// `reinitializer(n)` only ever leaves a new proxy at n rather than at 1. The implementation
    /// itself is locked (its version is the maximum) and refused too.
    modifier notInitialized() {
        if (_getInitializedVersion() != 0) revert InvalidInitialization();
        _;
    }

    // solhint-disable-next-line func-name-mixedcase
    function __ProtocolUpgradeable_init(address admin) internal onlyInitializing {
        if (admin == address(0)) revert ZeroAddress();
        __AccessControl_init();
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(Roles.GOVERNANCE_ROLE, admin);
        _grantRole(Roles.UPGRADER_ROLE, admin);
    }

    /// @notice The initializer version this proxy is at: what `initialize` or the latest
    /// reinitializer that ran on it set (OpenZeppelin `Initializable`); the maximum on a locked
    /// implementation. A proxy is up to date when it equals {latestInitializerVersion}.
    function initializedVersion() external view returns (uint64) {
        return _getInitializedVersion();
    }

    /// @notice The version this implementation's `initialize` leaves a new proxy at, which is also
    /// the number of its latest reinitializer (1 when it has none).
    function latestInitializerVersion() public pure virtual returns (uint64) {
        return 1;
    }

    /// @dev Only the upgrader role (the timelock after deployment) may upgrade.
    function _authorizeUpgrade(address) internal view override onlyRole(Roles.UPGRADER_ROLE) {}
}
