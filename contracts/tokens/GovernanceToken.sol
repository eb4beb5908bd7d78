// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
import {ERC20Votes} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Votes.sol";
import {Nonces} from "@openzeppelin/contracts/utils/Nonces.sol";

import {Roles} from "../libraries/Roles.sol";

/// @title GovernanceToken
/// @notice The governance token: fixed supply minted once, at deployment, to the treasury.
/// Holders delegate votes to govern every protocol parameter and upgrade. Governance may exclude
/// an undelegated holder that can never vote, the arbitrum bridge's escrow, from the voting supply,
/// so that the Governor's quorum counts only tokens that can vote on this chain.
/// @dev ERC-20 + Votes + Permit. Checkpoints are keyed by timestamp (ERC-6372 `mode=timestamp`)
/// because block numbers on Arbitrum track L1 loosely and differ per chain.
/// An excluded holder is one delegated to this contract, which never votes: its balance moves
/// with every transfer in the votes checkpointed for this contract's address, so
/// `getPastVotes(address(this), t)` is the excluded supply at any past `t`, exact and at no cost to
/// ordinary transfers (which read each side's delegate anyway). Holders cannot delegate to this
/// contract themselves. Only an account without a delegate can be excluded, and an excluded
/// account that delegates is included again: exclusion never takes votes from a holder.
contract GovernanceToken is ERC20, ERC20Permit, ERC20Votes, AccessControl {
    /// @notice Governance excluded `account` from the voting supply, or included it again.
    event VotingSupplyExclusionUpdated(address indexed account, bool excluded);

    /// @notice The treasury must be a real account.
    error GovernanceTokenZeroTreasury();
    /// @notice Only an account without a delegate can be excluded (`delegatee` is its delegate;
    /// this contract when it is excluded already).
    error GovernanceTokenDelegated(address account, address delegatee);
    /// @notice The account is not excluded from the voting supply.
    error GovernanceTokenNotExcluded(address account);
    /// @notice Votes cannot be delegated to this contract: that is how exclusion is recorded.
    error GovernanceTokenInvalidDelegate();

    /// @notice Mints the fixed supply to the treasury; the deployer may exclude holders until it
    /// hands {Roles.GOVERNANCE_ROLE} and the admin role to the timelock.
    /// @param treasury Receives the whole supply.
    /// @param supply The fixed total supply, in base units (18 decimals).
    constructor(
        address treasury,
        uint256 supply
    ) ERC20("STB Governance Token", "STBGOV") ERC20Permit("STB Governance Token") {
        if (treasury == address(0)) revert GovernanceTokenZeroTreasury();
        _grantRole(DEFAULT_ADMIN_ROLE, _msgSender());
        _grantRole(Roles.GOVERNANCE_ROLE, _msgSender());
        _mint(treasury, supply);
    }

    /// @notice Excludes `account` (an escrow such as the arbitrum bridge) from the voting supply
    /// from now on: its balance no longer counts toward the Governor's quorum.
    /// @dev Governance role. Requirements: `account` has no delegate.
    function excludeFromVotingSupply(address account) external onlyRole(Roles.GOVERNANCE_ROLE) {
        address delegatee = delegates(account);
        if (delegatee != address(0)) revert GovernanceTokenDelegated(account, delegatee);
        super._delegate(account, address(this));
        emit VotingSupplyExclusionUpdated(account, true);
    }

    /// @notice Counts `account`'s balance in the voting supply again, undelegated.
    /// @dev Governance role. Requirements: `account` is excluded.
    function includeInVotingSupply(address account) external onlyRole(Roles.GOVERNANCE_ROLE) {
        if (delegates(account) != address(this)) revert GovernanceTokenNotExcluded(account);
        super._delegate(account, address(0));
        emit VotingSupplyExclusionUpdated(account, false);
    }

    /// @notice Whether `account` is excluded from the voting supply.
    function isExcludedFromVotingSupply(address account) external view returns (bool) {
        return delegates(account) == address(this);
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

    /// @dev Refuses this contract as a delegate for {delegate} and {delegateBySig}; exclusion goes
    /// through governance only.
    function _delegate(address account, address delegatee) internal override {
        if (delegatee == address(this)) revert GovernanceTokenInvalidDelegate();
        super._delegate(account, delegatee);
    }
}
