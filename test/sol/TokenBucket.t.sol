// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "forge-std/Test.sol";

import {TokenBucket} from "../../contracts/libraries/TokenBucket.sol";

/// @notice Exposes one bucket's library functions to the tests.
contract BucketHarness {
    using TokenBucket for TokenBucket.Bucket;

    TokenBucket.Bucket internal _bucket;

    function configure(bool enabled, uint128 capacity, uint128 rate) external {
        _bucket.configure(TokenBucket.Config({enabled: enabled, capacity: capacity, rate: rate}));
    }

    function consume(uint256 amount) external {
        _bucket.consume(amount);
    }

    function tryConsume(uint256 amount) external returns (bool) {
        return _bucket.tryConsume(amount);
    }

    function available() external view returns (uint256) {
        return _bucket.available();
    }

    function bucket() external view returns (TokenBucket.Bucket memory) {
        return _bucket;
    }
}

contract TokenBucketTest is Test {
    BucketHarness internal h;

    function setUp() public {
        h = new BucketHarness();
        vm.warp(1_700_000_000);
    }

    function _config(uint256 capacity, uint256 rate) internal pure returns (uint128, uint128) {
        capacity = bound(capacity, 1, type(uint96).max);
        rate = bound(rate, 1, capacity);
        return (uint128(capacity), uint128(rate));
    }

    function testFuzz_configure_startsFull(uint256 capacity, uint256 rate) public {
        (uint128 c, uint128 r) = _config(capacity, rate);
        h.configure(true, c, r);
        assertEq(h.available(), c);
    }

    function testFuzz_consume_neverMoreThanAvailable(uint256 capacity, uint256 rate, uint256 amount) public {
        (uint128 c, uint128 r) = _config(capacity, rate);
        h.configure(true, c, r);
        amount = bound(amount, 0, uint256(c) * 2);
        if (amount > c) {
            vm.expectRevert(abi.encodeWithSelector(TokenBucket.TokenBucketExceeded.selector, uint256(c), amount));
            h.consume(amount);
            assertEq(h.available(), c);
        } else {
            h.consume(amount);
            assertEq(h.available(), c - amount);
        }
    }

    function testFuzz_tryConsume_changesNothingWhenRefused(uint256 capacity, uint256 rate, uint256 amount) public {
        (uint128 c, uint128 r) = _config(capacity, rate);
        h.configure(true, c, r);
        h.consume(c);
        amount = bound(amount, 1, type(uint96).max);
        TokenBucket.Bucket memory before = h.bucket();
        assertFalse(h.tryConsume(amount));
        TokenBucket.Bucket memory afterwards = h.bucket();
        assertEq(afterwards.tokens, before.tokens);
        assertEq(afterwards.lastUpdated, before.lastUpdated);
    }

    function testFuzz_refill_linearUpToCapacity(uint256 capacity, uint256 rate, uint256 elapsed) public {
        (uint128 c, uint128 r) = _config(capacity, rate);
        h.configure(true, c, r);
        h.consume(c);
        elapsed = bound(elapsed, 0, 10 * 365 days);
        vm.warp(block.timestamp + elapsed);
        uint256 expected = elapsed * r;
        assertEq(h.available(), expected < c ? expected : c);
    }

    function testFuzz_sumOfConsumptions_boundedByCapacityPlusRefill(
        uint256 capacity,
        uint256 rate,
        uint256[8] memory amounts,
        uint256[8] memory gaps
    ) public {
        capacity = bound(capacity, 1, 1e28);
        rate = bound(rate, 1, capacity);
        h.configure(true, uint128(capacity), uint128(rate));
        uint256 start = block.timestamp;
        uint256 taken;
        for (uint256 i = 0; i < 8; ++i) {
            vm.warp(block.timestamp + bound(gaps[i], 0, 1 days));
            uint256 amount = bound(amounts[i], 0, capacity);
            if (h.tryConsume(amount)) taken += amount;
        }
        assertLe(taken, capacity + (block.timestamp - start) * rate);
    }

    function testFuzz_reconfigure_capsAtNewCapacity(uint256 capacity, uint256 rate, uint256 newCapacity) public {
        (uint128 c, uint128 r) = _config(capacity, rate);
        h.configure(true, c, r);
        newCapacity = bound(newCapacity, 1, type(uint96).max);
        h.configure(true, uint128(newCapacity), 1);
        assertEq(h.available(), newCapacity < c ? newCapacity : c);
    }

    function testFuzz_disabled_limitsNothingButCounts(uint256 amount) public {
        amount = bound(amount, 0, type(uint112).max / 2);
        assertTrue(h.tryConsume(amount));
        h.consume(amount);
        assertEq(h.available(), type(uint256).max);
        assertEq(h.bucket().total, amount * 2);
    }

    function testFuzz_total_countsWhatPassedOnly(uint256 capacity, uint256 rate, uint256[6] memory amounts) public {
        (uint128 c, uint128 r) = _config(capacity, rate);
        h.configure(true, c, r);
        uint256 passed;
        for (uint256 i = 0; i < 6; ++i) {
            uint256 amount = bound(amounts[i], 0, uint256(c));
            if (h.tryConsume(amount)) passed += amount;
            vm.warp(block.timestamp + 1 hours);
        }
        assertEq(h.bucket().total, passed);
    }

    function test_total_refusesOverflow() public {
        h.consume(type(uint112).max);
        vm.expectRevert(abi.encodeWithSelector(TokenBucket.TokenBucketExceeded.selector, 0, 1));
        h.consume(1);
    }

    function test_configure_refusesCapacityAbove96Bits() public {
        uint128 tooBig = uint128(type(uint96).max) + 1;
        vm.expectRevert(abi.encodeWithSelector(TokenBucket.TokenBucketInvalidConfig.selector, true, tooBig, 1));
        h.configure(true, tooBig, 1);
    }

    function test_configure_refusesInconsistentConfigs() public {
        vm.expectRevert(abi.encodeWithSelector(TokenBucket.TokenBucketInvalidConfig.selector, true, 0, 0));
        h.configure(true, 0, 0);
        vm.expectRevert(abi.encodeWithSelector(TokenBucket.TokenBucketInvalidConfig.selector, true, 10, 11));
        h.configure(true, 10, 11);
        vm.expectRevert(abi.encodeWithSelector(TokenBucket.TokenBucketInvalidConfig.selector, false, 10, 1));
        h.configure(false, 10, 1);
    }

    function test_reenable_startsFull() public {
        h.configure(true, 100, 1);
        h.consume(100);
        h.configure(false, 0, 0);
        h.configure(true, 50, 1);
        assertEq(h.available(), 50);
    }
}
