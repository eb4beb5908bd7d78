// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {MockStablecoin} from "./MockStablecoin.sol";

/// @title MockBlacklistStablecoin
/// @notice TEST ONLY: a 6-decimal USDC stand-in that, like native USDC (`Blacklistable`), refuses
/// every transfer to or from a blacklisted account, and every transfer or approval made by one
/// (`msg.sender`), with a revert. Anyone can mint; only the deployer blacklists.
contract MockBlacklistStablecoin is MockStablecoin {
    /// @notice The account allowed to blacklist (the deployer).
    address public immutable blacklister;

    mapping(address account => bool) private _blacklisted;

    /// @notice `account` was blacklisted.
    event Blacklisted(address indexed account);
    /// @notice `account` was taken off the blacklist.
    event UnBlacklisted(address indexed account);

    /// @notice `account` is blacklisted: it can neither send, receive, spend nor approve.
    error AccountBlacklisted(address account);
    /// @notice Only the blacklister may do this.
    error NotBlacklister(address caller);

    constructor() {
        blacklister = msg.sender;
    }

    /// @notice Blacklists `account` (blacklister only).
    function blacklist(address account) external {
        _checkBlacklister();
        _blacklisted[account] = true;
        emit Blacklisted(account);
    }

    /// @notice Takes `account` off the blacklist (blacklister only).
    function unBlacklist(address account) external {
        _checkBlacklister();
        _blacklisted[account] = false;
        emit UnBlacklisted(account);
    }

    /// @notice Whether `account` is blacklisted.
    function isBlacklisted(address account) external view returns (bool) {
        return _blacklisted[account];
    }

    /// @dev Every balance change: the sender, the recipient and the caller must not be blacklisted.
    function _update(address from, address to, uint256 value) internal override {
        _checkNotBlacklisted(msg.sender);
        _checkNotBlacklisted(from);
        _checkNotBlacklisted(to);
        super._update(from, to, value);
    }

    /// @dev Approvals (including permits): neither the owner nor the spender may be blacklisted.
    function _approve(address owner, address spender, uint256 value, bool emitEvent) internal override {
        _checkNotBlacklisted(owner);
        _checkNotBlacklisted(spender);
        super._approve(owner, spender, value, emitEvent);
    }

    function _checkNotBlacklisted(address account) private view {
        if (_blacklisted[account]) revert AccountBlacklisted(account);
    }

    function _checkBlacklister() private view {
        if (msg.sender != blacklister) revert NotBlacklister(msg.sender);
    }
}
