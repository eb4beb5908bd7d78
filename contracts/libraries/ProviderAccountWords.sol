// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";

import {IProviderRegistry} from "../interfaces/IProviderRegistry.sol";

/// @title ProviderAccountWords
/// @notice The provider registry's accounting of one provider in three storage words, arranged so
/// that each hook of the redemption manager writes as few words as it can: a released lock (every
/// confirmation) writes only the `redemptions` word, a reservation (every initiation) and a payout
/// the `capacity` and `redemptions` words.
/// @dev Free collateral is not stored: the vault holds `collateral` (free plus locked) for the
/// provider, and free is `collateral - locked`. So a released lock changes `locked` alone, in the
/// word that also holds reputation and statistics. Bit layouts, from the low end:
///   registration: status [0,8) | tier [8,16) | registeredAt [16,56) | totalCU [56,184)
///   capacity:     availableCU [0,104) | collateral [104,216) | stakedUntil [216,256)
///   redemptions:  locked [0,104) | reputation [104,120) | totalRedemptions [120,152) |
///                 successfulRedemptions [152,184) | totalResponseTime [184,248) | CURRENT [248,256)
/// Bounds: capacity below 2^104 sSTB base units (20 trillion sSTB), collateral below 2^112 base
/// units and locks below 2^104 (2 x 10^31); larger values are refused by `SafeCast`, never
/// truncated. Every registered provider's `redemptions` word carries CURRENT, so a word without it
/// belongs to an account still in the first layout (or to no provider).
library ProviderAccountWords {
    using SafeCast for uint256;

    /// @dev Marks a `redemptions` word written in this layout.
    uint256 internal constant CURRENT = uint256(1) << 248;

    uint256 private constant MASK_104 = (uint256(1) << 104) - 1;
    uint256 private constant MASK_112 = (uint256(1) << 112) - 1;
    uint256 private constant TOTAL_ONE = uint256(1) << 120;
    uint256 private constant SUCCESSFUL_ONE = uint256(1) << 152;

    // --- registration ---

    function registration(
        IProviderRegistry.ProviderStatus status_,
        IProviderRegistry.Tier tier_,
        uint256 registeredAt,
        uint256 totalCU_
    ) internal pure returns (uint256) {
        return
            uint256(status_) |
            (uint256(tier_) << 8) |
            (uint256(registeredAt.toUint40()) << 16) |
            (uint256(totalCU_.toUint128()) << 56);
    }

    function status(uint256 word) internal pure returns (IProviderRegistry.ProviderStatus) {
        return IProviderRegistry.ProviderStatus(uint8(word));
    }

    function tier(uint256 word) internal pure returns (IProviderRegistry.Tier) {
        return IProviderRegistry.Tier(uint8(word >> 8));
    }

    function totalCU(uint256 word) internal pure returns (uint256) {
        return uint128(word >> 56);
    }

    /// @dev `word` with its status replaced.
    function withStatus(uint256 word, IProviderRegistry.ProviderStatus status_) internal pure returns (uint256) {
        return (word & ~uint256(0xff)) | uint256(status_);
    }

    /// @dev `word` with its total capacity replaced.
    function withTotalCU(uint256 word, uint256 totalCU_) internal pure returns (uint256) {
        return (word & ~(uint256(type(uint128).max) << 56)) | (uint256(totalCU_.toUint128()) << 56);
    }

    // --- capacity ---

    function capacity(uint256 availableCU_, uint256 collateral_, uint256 stakedUntil_) internal pure returns (uint256) {
        return
            uint256(availableCU_.toUint104()) |
            (uint256(collateral_.toUint112()) << 104) |
            (uint256(stakedUntil_.toUint40()) << 216);
    }

    function availableCU(uint256 word) internal pure returns (uint256) {
        return word & MASK_104;
    }

    function collateral(uint256 word) internal pure returns (uint256) {
        return (word >> 104) & MASK_112;
    }

    function stakedUntil(uint256 word) internal pure returns (uint256) {
        return word >> 216;
    }

    /// @dev `word` with `amount` less available capacity. Requirement: `amount <= availableCU(word)`
    /// (checked by the caller), so the subtraction never borrows from the fields above.
    function removeCapacity(uint256 word, uint256 amount) internal pure returns (uint256) {
        unchecked {
            return word - amount;
        }
    }

    /// @dev `word` with `amount` less collateral. Requirement: `amount <= collateral(word)`.
    function removeCollateral(uint256 word, uint256 amount) internal pure returns (uint256) {
        unchecked {
            return word - (amount << 104);
        }
    }

    // --- redemptions ---

    function redemptions(
        uint256 locked_,
        uint256 reputation_,
        uint256 totalRedemptions,
        uint256 successfulRedemptions,
        uint256 totalResponseTime
    ) internal pure returns (uint256) {
        return
            uint256(locked_.toUint104()) |
            (uint256(reputation_.toUint16()) << 104) |
            (uint256(totalRedemptions.toUint32()) << 120) |
            (uint256(successfulRedemptions.toUint32()) << 152) |
            (uint256(totalResponseTime.toUint64()) << 184) |
            CURRENT;
    }

    function isCurrent(uint256 word) internal pure returns (bool) {
        return word & CURRENT != 0;
    }

    function locked(uint256 word) internal pure returns (uint256) {
        return word & MASK_104;
    }

    function reputation(uint256 word) internal pure returns (uint256) {
        return uint16(word >> 104);
    }

    /// @dev `word` with `lock` more locked (refused above 2^104).
    function addLock(uint256 word, uint256 lock) internal pure returns (uint256) {
        (locked(word) + lock).toUint104();
        return word + lock;
    }

    /// @dev `word` with `lock` less locked. Requirement: `lock <= locked(word)` (checked by the
    /// caller), so the subtraction never borrows from the fields above.
    function removeLock(uint256 word, uint256 lock) internal pure returns (uint256) {
        unchecked {
            return word - lock;
        }
    }

    /// @dev `word` with reputation `reputation_` (at most 10,000, from the registry's clamp).
    function withReputation(uint256 word, uint256 reputation_) internal pure returns (uint256) {
        return (word & ~(uint256(type(uint16).max) << 104)) | (reputation_ << 104);
    }

    /// @dev `word` counting one more finished redemption, successful or not; a counter at its
    /// 32-bit maximum, or a total response time at its 64-bit maximum, refuses to wrap.
    function countFinished(uint256 word, bool successful, uint256 responseTime) internal pure returns (uint256) {
        if (uint32(word >> 120) == type(uint32).max) revert SafeCast.SafeCastOverflowedUintDowncast(32, 1 << 32);
        if (!successful) {
            unchecked {
                return word + TOTAL_ONE;
            }
        }
        if (uint32(word >> 152) == type(uint32).max) revert SafeCast.SafeCastOverflowedUintDowncast(32, 1 << 32);
        uint256 totalResponseTime = uint64(word >> 184) + responseTime;
        if (totalResponseTime > type(uint64).max) {
            revert SafeCast.SafeCastOverflowedUintDowncast(64, totalResponseTime);
        }
        // each field stays within its bits (checked above), so no addition carries into the next
        unchecked {
            return word + TOTAL_ONE + SUCCESSFUL_ONE + (responseTime << 184);
        }
    }

    // --- the ABI's view ---

    /// @dev The three words as {IProviderRegistry.ProviderAccount}.
    function toAccount(
        uint256 registration_,
        uint256 capacity_,
        uint256 redemptions_
    ) internal pure returns (IProviderRegistry.ProviderAccount memory a) {
        a.status = status(registration_);
        a.tier = tier(registration_);
        a.registeredAt = uint40(registration_ >> 16);
        a.totalCU = uint128(totalCU(registration_));
        a.availableCU = uint128(availableCU(capacity_));
        a.stakedUntil = uint40(stakedUntil(capacity_));
        uint256 locked_ = locked(redemptions_);
        a.lockedCollateral = uint128(locked_);
        a.freeCollateral = uint128(collateral(capacity_) - locked_);
        a.reputation = uint16(reputation(redemptions_));
        a.totalRedemptions = uint32(redemptions_ >> 120);
        a.successfulRedemptions = uint32(redemptions_ >> 152);
        a.totalResponseTime = uint64(redemptions_ >> 184);
    }
}
