// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "forge-std/Test.sol";

import {MarketMath} from "../../../contracts/libraries/MarketMath.sol";

/// @title MarketMathTest
/// @notice Fuzzes the markets' arithmetic: cost rounds up by less than one unit, fills telescope to
/// the total whatever the split, the fee rounds up, never exceeds its bps by a unit or the payment,
/// and splitting never lowers it.
contract MarketMathTest is Test {
    uint256 internal constant MAX_AMOUNT = type(uint96).max;
    uint256 internal constant MAX_PRICE = type(uint64).max;

    /// hardhat-config: default.fuzz.runs = 2000
    function testFuzz_cost_roundsUpByLessThanOneUnit(uint256 amount, uint256 price) public pure {
        amount = bound(amount, 0, MAX_AMOUNT);
        price = bound(price, 0, MAX_PRICE);
        uint256 c = MarketMath.cost(amount, price);
        assertGe(c * 1e18, amount * price);
        if (c > 0) assertLt((c - 1) * 1e18, amount * price);
    }

    /// hardhat-config: default.fuzz.runs = 2000
    function testFuzz_fillPayment_telescopesOverAnySplit(
        uint256 amount,
        uint256 price,
        uint256 cut1,
        uint256 cut2
    ) public pure {
        amount = bound(amount, 0, MAX_AMOUNT);
        price = bound(price, 1, MAX_PRICE);
        cut1 = bound(cut1, 0, amount);
        cut2 = bound(cut2, cut1, amount);
        uint256 sum =
            MarketMath.fillPayment(0, cut1, price) +
                MarketMath.fillPayment(cut1, cut2 - cut1, price) +
                MarketMath.fillPayment(cut2, amount - cut2, price);
        assertEq(sum, MarketMath.cost(amount, price));
        // and what is left after filling `cut2` is exactly what the escrow still holds
        assertEq(
            MarketMath.cost(amount, price) - MarketMath.fillPayment(0, cut2, price),
            MarketMath.cost(amount, price) - MarketMath.cost(cut2, price)
        );
    }

    /// hardhat-config: default.fuzz.runs = 2000
    function testFuzz_fillPayment_withinOneUnitOfExact(uint256 filled, uint256 amount, uint256 price) public pure {
        filled = bound(filled, 0, MAX_AMOUNT);
        amount = bound(amount, 0, MAX_AMOUNT - filled);
        price = bound(price, 0, MAX_PRICE);
        uint256 payment = MarketMath.fillPayment(filled, amount, price);
        uint256 exactFloor = (amount * price) / 1e18;
        assertGe(payment + 1, exactFloor);
        assertLe(payment, exactFloor + 1);
    }

    /// hardhat-config: default.fuzz.runs = 2000
    function testFuzz_fee_roundsUpNeverAboveBpsByAUnitNorAbovePayment(uint256 payment, uint256 bps) public pure {
        payment = bound(payment, 0, type(uint128).max);
        bps = bound(bps, 0, 10_000);
        uint256 fee = MarketMath.fee(payment, bps);
        assertGe(fee * 10_000, payment * bps);
        assertLt(fee * 10_000, payment * bps + 10_000);
        assertLe(fee, payment);
        if (payment > 0 && bps > 0) assertGt(fee, 0);
    }

    /// hardhat-config: default.fuzz.runs = 2000
    function testFuzz_fee_splittingNeverLowersIt(uint256 a, uint256 b, uint256 bps) public pure {
        a = bound(a, 0, type(uint128).max);
        b = bound(b, 0, type(uint128).max);
        bps = bound(bps, 0, 100);
        assertGe(MarketMath.fee(a, bps) + MarketMath.fee(b, bps), MarketMath.fee(a + b, bps));
    }

    function test_cost_examples() public pure {
        assertEq(MarketMath.cost(1e18, 2e6), 2e6);
        assertEq(MarketMath.cost(1, 1e6), 1); // one base unit still costs one unit
        assertEq(MarketMath.cost(0, 1e6), 0);
        assertEq(MarketMath.fee(1, 30), 1);
        assertEq(MarketMath.fee(10_000, 30), 30);
        assertEq(MarketMath.fee(10_001, 30), 31);
    }
}
