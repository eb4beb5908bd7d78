// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
import {ERC20Votes} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Votes.sol";
import {Nonces} from "@openzeppelin/contracts/utils/Nonces.sol";

/// @title GovernanceToken
/// @notice The governance token: fixed supply minted once, at deployment, to the treasury.
/// Holders delegate votes to govern every protocol parameter and upgrade.
/// @dev ERC-20 + Votes + Permit. Checkpoints are keyed by timestamp (ERC-6372 `mode=timestamp`)
/// because block numbers on Arbitrum track L1 loosely and differ per chain.
contract GovernanceToken is ERC20, ERC20Permit, ERC20Votes {
    /// @notice The treasury must be a real account.
    error GovernanceTokenZeroTreasury();

    /// @notice Mints the fixed supply to the treasury.
    /// @param treasury Receives the whole supply.
    /// @param supply The fixed total supply, in base units (18 decimals).
    constructor(
        address treasury,
        uint256 supply
    ) ERC20("STB Governance Token", "STBGOV") ERC20Permit("STB Governance Token") {
        if (treasury == address(0)) revert GovernanceTokenZeroTreasury();
        _mint(treasury, supply);
    }

    /// @notice Votes are checkpointed by block timestamp.
    function clock() public view override returns (uint48) {
        return uint48(block.timestamp);
    }

    // solhint-disable func-name-mixedcase
    /// @notice ERC-6372 clock description: timestamps.
    function CLOCK_MODE() public pure override returns (string memory) {
        return "mode=timestamp";
    }
    // solhint-enable func-name-mixedcase

    /// @inheritdoc ERC20Permit
    function nonces(address owner) public view override(ERC20Permit, Nonces) returns (uint256) {
        return super.nonces(owner);
    }

    function _update(address from, address to, uint256 value) internal override(ERC20, ERC20Votes) {
        super._update(from, to, value);
    }
}
