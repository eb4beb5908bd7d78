// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";

import {IBridgedToken} from "../interfaces/IBridgedToken.sol";
import {Roles} from "../libraries/Roles.sol";

/// @title BridgedGovernanceToken
/// @notice The governance token on a satellite chain (ethereum, polygon): a representation of tokens
/// escrowed by the bridge on arbitrum. Only the bridge mints it (on delivery) and burns it (on the way
/// back), so its supply on all satellites together equals what the arbitrum bridge holds in escrow.
/// @dev ERC-20 + Permit, without votes: only the fixed-supply token on arbitrum votes in the
/// Governor. Not upgradeable, like the token it represents; its admin is the satellite executor.
contract BridgedGovernanceToken is ERC20, ERC20Permit, AccessControl, IBridgedToken {
    /// @notice Deploys the representation with no supply.
    /// @param admin Receives `DEFAULT_ADMIN_ROLE` (handed to the satellite executor after deployment).
    constructor(address admin) ERC20("STB Governance Token", "STBGOV") ERC20Permit("STB Governance Token") {
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
    }

    /// @inheritdoc IBridgedToken
    function mint(address to, uint256 amount) external onlyRole(Roles.MINTER_ROLE) {
        _mint(to, amount);
    }

    /// @inheritdoc IBridgedToken
    function burnFrom(address account, uint256 amount) external onlyRole(Roles.BURNER_ROLE) {
        _spendAllowance(account, _msgSender(), amount);
        _burn(account, amount);
    }
}
