// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "forge-std/Test.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";

import {IProviderRegistry} from "../../contracts/interfaces/IProviderRegistry.sol";
import {ProviderAccountWords as Words} from "../../contracts/libraries/ProviderAccountWords.sol";

/// @dev External entry points to the library, so that a refusal is a revert the test can expect.
contract ProviderAccountWordsHarness {
    function registration(uint256 status, uint256 tier, uint256 at, uint256 totalCU) external pure returns (uint256) {
        return Words.registration(IProviderRegistry.ProviderStatus(status), IProviderRegistry.Tier(tier), at, totalCU);
    }

    function withTotalCU(uint256 word, uint256 totalCU) external pure returns (uint256) {
        return Words.withTotalCU(word, totalCU);
    }

    function capacity(uint256 available, uint256 collateral, uint256 stakedUntil) external pure returns (uint256) {
        return Words.capacity(available, collateral, stakedUntil);
    }

    function redemptions(
        uint256 locked,
        uint256 reputation,
        uint256 total,
        uint256 successful,
        uint256 responseTime
    ) external pure returns (uint256) {
        return Words.redemptions(locked, reputation, total, successful, responseTime);
    }

    function addLock(uint256 word, uint256 lock) external pure returns (uint256) {
        return Words.addLock(word, lock);
    }

    function countFinished(uint256 word, bool successful, uint256 responseTime) external pure returns (uint256) {
        return Words.countFinished(word, successful, responseTime);
    }
}

/// @title ProviderAccountWordsTest
/// @notice The registry's three words per provider under fuzzing: every field reads back what was
/// packed, each update changes its own field and nothing else (no carry or borrow into the fields
/// above), every bound refuses with SafeCast's error instead of truncating, and the ABI's view of
/// the words is the account they encode (free collateral = collateral - locks).
contract ProviderAccountWordsTest is Test {
    ProviderAccountWordsHarness internal harness = new ProviderAccountWordsHarness();

    uint256 internal constant MAX_REPUTATION = 10_000;

    // --- registration ---

    function testFuzz_registration_roundTrips(
        uint8 status,
        uint8 tier,
        uint40 at,
        uint128 totalCU,
        uint8 newStatus,
        uint128 newTotalCU
    ) public pure {
        status = uint8(bound(status, 0, 3));
        tier = uint8(bound(tier, 0, 2));
        newStatus = uint8(bound(newStatus, 0, 3));
        uint256 word = Words.registration(
            IProviderRegistry.ProviderStatus(status),
            IProviderRegistry.Tier(tier),
            at,
            totalCU
        );
        assertEq(uint8(Words.status(word)), status);
        assertEq(uint8(Words.tier(word)), tier);
        assertEq(Words.totalCU(word), totalCU);
        assertEq(uint40(word >> 16), at);
        assertEq(word >> 184, 0, "nothing above totalCU");

        uint256 moved = Words.withStatus(word, IProviderRegistry.ProviderStatus(newStatus));
        assertEq(uint8(Words.status(moved)), newStatus);
        assertEq(moved >> 8, word >> 8, "only the status changed");

        uint256 grown = Words.withTotalCU(word, newTotalCU);
        assertEq(Words.totalCU(grown), newTotalCU);
        assertEq(uint56(grown), uint56(word), "status, tier and registration time kept");
        assertEq(grown >> 184, 0);
    }

    function testFuzz_registration_refusesOutOfBounds(uint256 at, uint256 totalCU) public {
        at = bound(at, uint256(type(uint40).max) + 1, type(uint256).max);
        totalCU = bound(totalCU, uint256(type(uint128).max) + 1, type(uint256).max);
        vm.expectRevert(abi.encodeWithSelector(SafeCast.SafeCastOverflowedUintDowncast.selector, 40, at));
        harness.registration(1, 0, at, 0);
        vm.expectRevert(abi.encodeWithSelector(SafeCast.SafeCastOverflowedUintDowncast.selector, 128, totalCU));
        harness.registration(1, 0, 0, totalCU);
        vm.expectRevert(abi.encodeWithSelector(SafeCast.SafeCastOverflowedUintDowncast.selector, 128, totalCU));
        harness.withTotalCU(1, totalCU);
    }

    // --- capacity ---

    function testFuzz_capacity_roundTrips(
        uint256 available,
        uint256 collateral,
        uint40 stakedUntil,
        uint256 removedCU,
        uint256 removedCollateral
    ) public pure {
        available = bound(available, 0, (uint256(1) << 104) - 1);
        collateral = bound(collateral, 0, (uint256(1) << 112) - 1);
        removedCU = bound(removedCU, 0, available);
        removedCollateral = bound(removedCollateral, 0, collateral);
        uint256 word = Words.capacity(available, collateral, stakedUntil);
        assertEq(Words.availableCU(word), available);
        assertEq(Words.collateral(word), collateral);
        assertEq(Words.stakedUntil(word), stakedUntil);

        uint256 less = Words.removeCapacity(word, removedCU);
        assertEq(Words.availableCU(less), available - removedCU);
        assertEq(Words.collateral(less), collateral, "no borrow from collateral");
        assertEq(Words.stakedUntil(less), stakedUntil);

        less = Words.removeCollateral(word, removedCollateral);
        assertEq(Words.collateral(less), collateral - removedCollateral);
        assertEq(Words.availableCU(less), available);
        assertEq(Words.stakedUntil(less), stakedUntil, "no borrow from the stake's end");
    }

    function testFuzz_capacity_refusesOutOfBounds(uint256 available, uint256 collateral, uint256 stakedUntil) public {
        available = bound(available, uint256(1) << 104, type(uint256).max);
        collateral = bound(collateral, uint256(1) << 112, type(uint256).max);
        stakedUntil = bound(stakedUntil, uint256(1) << 40, type(uint256).max);
        vm.expectRevert(abi.encodeWithSelector(SafeCast.SafeCastOverflowedUintDowncast.selector, 104, available));
        harness.capacity(available, 0, 0);
        vm.expectRevert(abi.encodeWithSelector(SafeCast.SafeCastOverflowedUintDowncast.selector, 112, collateral));
        harness.capacity(0, collateral, 0);
        vm.expectRevert(abi.encodeWithSelector(SafeCast.SafeCastOverflowedUintDowncast.selector, 40, stakedUntil));
        harness.capacity(0, 0, stakedUntil);
    }

    // --- redemptions ---

    function _redemptions(
        uint256 locked,
        uint256 reputation,
        uint32 total,
        uint32 successful,
        uint64 responseTime
    ) private pure returns (uint256 word, uint256, uint256) {
        locked = bound(locked, 0, (uint256(1) << 104) - 1);
        reputation = bound(reputation, 0, MAX_REPUTATION);
        word = Words.redemptions(locked, reputation, total, successful, responseTime);
        return (word, locked, reputation);
    }

    function _assertCounters(uint256 word, uint256 total, uint256 successful, uint256 responseTime) private pure {
        assertEq(uint32(word >> 120), total, "total redemptions");
        assertEq(uint32(word >> 152), successful, "successful redemptions");
        assertEq(uint64(word >> 184), responseTime, "total response time");
        assertTrue(Words.isCurrent(word), "current-layout mark kept");
    }

    function testFuzz_redemptions_roundTrips(
        uint256 locked,
        uint256 reputation,
        uint32 total,
        uint32 successful,
        uint64 responseTime,
        uint256 newReputation
    ) public pure {
        (uint256 word, uint256 locked_, uint256 reputation_) = _redemptions(
            locked,
            reputation,
            total,
            successful,
            responseTime
        );
        assertEq(Words.locked(word), locked_);
        assertEq(Words.reputation(word), reputation_);
        _assertCounters(word, total, successful, responseTime);
        assertEq(word >> 248, 1, "the mark is the top byte's 1");

        newReputation = bound(newReputation, 0, MAX_REPUTATION);
        uint256 moved = Words.withReputation(word, newReputation);
        assertEq(Words.reputation(moved), newReputation);
        assertEq(Words.locked(moved), locked_);
        _assertCounters(moved, total, successful, responseTime);
    }

    function testFuzz_locks_addAndRemoveOnlyTheLock(
        uint256 locked,
        uint256 reputation,
        uint32 total,
        uint32 successful,
        uint64 responseTime,
        uint256 lock
    ) public pure {
        (uint256 word, uint256 locked_, uint256 reputation_) = _redemptions(
            locked,
            reputation,
            total,
            successful,
            responseTime
        );
        lock = bound(lock, 0, (uint256(1) << 104) - 1 - locked_);
        uint256 more = Words.addLock(word, lock);
        assertEq(Words.locked(more), locked_ + lock);
        assertEq(Words.reputation(more), reputation_, "no carry into reputation");
        _assertCounters(more, total, successful, responseTime);

        uint256 back = Words.removeLock(more, lock);
        assertEq(back, word, "releasing the same lock restores the word");
        uint256 none = Words.removeLock(more, locked_ + lock);
        assertEq(Words.locked(none), 0);
        assertEq(Words.reputation(none), reputation_, "no borrow from reputation");
        _assertCounters(none, total, successful, responseTime);
    }

    function testFuzz_addLock_refusesAbove104Bits(uint256 locked, uint256 lock) public {
        locked = bound(locked, 0, (uint256(1) << 104) - 1);
        lock = bound(lock, (uint256(1) << 104) - locked, (uint256(1) << 200));
        uint256 word = Words.redemptions(locked, 0, 0, 0, 0);
        vm.expectRevert(abi.encodeWithSelector(SafeCast.SafeCastOverflowedUintDowncast.selector, 104, locked + lock));
        harness.addLock(word, lock);
    }

    function testFuzz_redemptions_refusesOutOfBounds(uint256 locked, uint256 reputation, uint256 counter) public {
        locked = bound(locked, uint256(1) << 104, type(uint256).max);
        reputation = bound(reputation, uint256(1) << 16, type(uint256).max);
        counter = bound(counter, uint256(1) << 64, type(uint256).max);
        vm.expectRevert(abi.encodeWithSelector(SafeCast.SafeCastOverflowedUintDowncast.selector, 104, locked));
        harness.redemptions(locked, 0, 0, 0, 0);
        vm.expectRevert(abi.encodeWithSelector(SafeCast.SafeCastOverflowedUintDowncast.selector, 16, reputation));
        harness.redemptions(0, reputation, 0, 0, 0);
        vm.expectRevert(abi.encodeWithSelector(SafeCast.SafeCastOverflowedUintDowncast.selector, 32, counter));
        harness.redemptions(0, 0, counter, 0, 0);
        vm.expectRevert(abi.encodeWithSelector(SafeCast.SafeCastOverflowedUintDowncast.selector, 32, counter));
        harness.redemptions(0, 0, 0, counter, 0);
        vm.expectRevert(abi.encodeWithSelector(SafeCast.SafeCastOverflowedUintDowncast.selector, 64, counter));
        harness.redemptions(0, 0, 0, 0, counter);
    }

    function testFuzz_countFinished_countsEachFieldAlone(
        uint256 locked,
        uint256 reputation,
        uint32 total,
        uint32 successful,
        uint64 responseTime,
        bool succeeded,
        uint256 elapsed
    ) public pure {
        total = uint32(bound(total, 0, type(uint32).max - 1));
        successful = uint32(bound(successful, 0, type(uint32).max - 1));
        elapsed = bound(elapsed, 0, type(uint64).max - responseTime);
        (uint256 word, uint256 locked_, uint256 reputation_) = _redemptions(
            locked,
            reputation,
            total,
            successful,
            responseTime
        );
        uint256 counted = Words.countFinished(word, succeeded, elapsed);
        assertEq(Words.locked(counted), locked_);
        assertEq(Words.reputation(counted), reputation_);
        if (succeeded) _assertCounters(counted, uint256(total) + 1, uint256(successful) + 1, responseTime + elapsed);
        else _assertCounters(counted, uint256(total) + 1, successful, responseTime);
    }

    function testFuzz_countFinished_refusesToWrap(uint256 responseTime, uint256 elapsed) public {
        uint256 full = Words.redemptions(0, 0, type(uint32).max, 0, 0);
        vm.expectRevert(abi.encodeWithSelector(SafeCast.SafeCastOverflowedUintDowncast.selector, 32, 1 << 32));
        harness.countFinished(full, false, 0);

        full = Words.redemptions(0, 0, 0, type(uint32).max, 0);
        vm.expectRevert(abi.encodeWithSelector(SafeCast.SafeCastOverflowedUintDowncast.selector, 32, 1 << 32));
        harness.countFinished(full, true, 0);
        // an unsuccessful redemption does not count as a success, so it still fits
        assertEq(uint32(harness.countFinished(full, false, 0) >> 120), 1);

        responseTime = bound(responseTime, 0, type(uint64).max);
        elapsed = bound(elapsed, type(uint64).max - responseTime + 1, type(uint128).max);
        uint256 word = Words.redemptions(0, 0, 0, 0, responseTime);
        vm.expectRevert(
            abi.encodeWithSelector(SafeCast.SafeCastOverflowedUintDowncast.selector, 64, responseTime + elapsed)
        );
        harness.countFinished(word, true, elapsed);
    }

    // --- the ABI's view ---

    function testFuzz_toAccount_isTheAccountTheWordsEncode(
        uint8 status,
        uint8 tier,
        uint40 at,
        uint128 totalCU,
        uint256 available,
        uint256 collateral,
        uint40 stakedUntil,
        uint256 locked,
        uint256 reputation,
        uint32 total,
        uint32 successful,
        uint64 responseTime
    ) public pure {
        status = uint8(bound(status, 1, 3));
        tier = uint8(bound(tier, 0, 2));
        available = bound(available, 0, (uint256(1) << 104) - 1);
        collateral = bound(collateral, 0, (uint256(1) << 112) - 1);
        locked = bound(locked, 0, collateral < (uint256(1) << 104) - 1 ? collateral : (uint256(1) << 104) - 1);
        reputation = bound(reputation, 0, MAX_REPUTATION);
        IProviderRegistry.ProviderAccount memory a = Words.toAccount(
            Words.registration(IProviderRegistry.ProviderStatus(status), IProviderRegistry.Tier(tier), at, totalCU),
            Words.capacity(available, collateral, stakedUntil),
            Words.redemptions(locked, reputation, total, successful, responseTime)
        );
        assertEq(uint8(a.status), status);
        assertEq(uint8(a.tier), tier);
        assertEq(a.registeredAt, at);
        assertEq(a.totalCU, totalCU);
        assertEq(a.availableCU, available);
        assertEq(a.stakedUntil, stakedUntil);
        assertEq(a.lockedCollateral, locked);
        assertEq(a.freeCollateral, collateral - locked);
        assertEq(a.reputation, reputation);
        assertEq(a.totalRedemptions, total);
        assertEq(a.successfulRedemptions, successful);
        assertEq(a.totalResponseTime, responseTime);
    }
}
