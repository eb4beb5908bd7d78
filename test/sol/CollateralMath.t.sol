// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "forge-std/Test.sol";

import {CollateralMath} from "../../contracts/libraries/CollateralMath.sol";

/// @title CollateralMathTest
/// @notice Fuzzes the collateral pricing: rounding direction, tightness, monotonicity, and that
/// locking for a redemption keeps the requirement of what remains exactly covered.
contract CollateralMathTest is Test {
    uint256 internal constant MAX_VALUE = type(uint128).max;
    uint256 internal constant MAX_PRICE = 1e30;

    function _bounded(uint256 value, uint256 ratio, uint256 price) internal pure returns (uint256, uint256, uint256) {
        return (bound(value, 0, MAX_VALUE), bound(ratio, 10_000, 30_000), bound(price, 1, MAX_PRICE));
    }

    /// hardhat-config: default.fuzz.runs = 2000
    function testFuzz_required_roundsUpByLessThanOneUnit(uint256 value, uint256 ratio, uint256 price) public pure {
        (value, ratio, price) = _bounded(value, ratio, price);
        uint256 required = CollateralMath.required(value, ratio, price);
        // exact ceiling of value * ratio * price / 1e22 (no overflow within these bounds)
        uint256 denominator = 10_000 * 1e18;
        uint256 floor = (value * ratio * price) / denominator;
        uint256 remainder = mulmod(value, ratio * price, denominator);
        assertEq(required, remainder == 0 ? floor : floor + 1);
    }

    /// hardhat-config: default.fuzz.runs = 2000
    function testFuzz_required_isMonotonic(uint256 a, uint256 b, uint256 ratio, uint256 price) public pure {
        (a, ratio, price) = _bounded(a, ratio, price);
        b = bound(b, a, MAX_VALUE);
        assertLe(CollateralMath.required(a, ratio, price), CollateralMath.required(b, ratio, price));
    }

    /// hardhat-config: default.fuzz.runs = 2000
    function testFuzz_required_atLeastValueTimesPrice(uint256 value, uint256 ratio, uint256 price) public pure {
        (value, ratio, price) = _bounded(value, ratio, price);
        // never below 100% of the value at the price: the ratio floor is 10_000 bps
        assertGe(CollateralMath.required(value, ratio, price) * 1e18, value * price);
    }

    /// hardhat-config: default.fuzz.runs = 2000
    function testFuzz_lockFor_keepsRemainderExactlyCovered(
        uint256 available,
        uint256 amount,
        uint256 ratio,
        uint256 price
    ) public pure {
        (available, ratio, price) = _bounded(available, ratio, price);
        amount = bound(amount, 0, available);
        uint256 lock = CollateralMath.lockFor(available, amount, ratio, price);
        assertEq(
            CollateralMath.required(available - amount, ratio, price) + lock,
            CollateralMath.required(available, ratio, price)
        );
        // and the lock covers the redeemed value at the ratio, up to one unit of rounding
        assertGe(lock + 1, CollateralMath.required(amount, ratio, price));
        assertLe(lock, CollateralMath.required(amount, ratio, price));
    }

    function test_required_examples() public pure {
        // 100 sSTB at 120% and 1 USDC per sSTB: 120 USDC
        assertEq(CollateralMath.required(100e18, 12_000, 1e6), 120e6);
        // one wei of capacity still needs one unit of collateral
        assertEq(CollateralMath.required(1, 12_000, 1e6), 1);
        assertEq(CollateralMath.required(0, 12_000, 1e6), 0);
    }
}
