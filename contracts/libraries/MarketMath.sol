// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title MarketMath
/// @notice The arithmetic every market shares: what an amount of sSTB costs at a price, what one
/// fill of a position pays, and the market fee. Amounts are sSTB base units (18 decimals); a price
/// is payment base units (USDC, 6 decimals) per whole sSTB.
/// @dev Rounding is chosen so that escrow always covers what it owes and nothing is left behind:
/// - {cost} rounds up, so a position's total price is never below the exact product;
/// - {fillPayment} is the difference of two costs, so the payments of any sequence of partial
///   fills telescope to exactly {cost} of what was filled: an escrow of `cost(amount)` pays every
///   fill and is empty when the position is filled, and splitting a trade changes nothing;
/// - {fee} rounds up on every fill, so a fill that moves any payment pays a fee while the rate is
///   above zero, and splitting a trade into smaller fills can only raise the total fee
///   (`ceil(a) + ceil(b) >= ceil(a + b)`).
library MarketMath {
    /// @notice sSTB base units in one sSTB (prices are per whole sSTB).
    uint256 internal constant PRICE_UNIT = 1e18;
    /// @notice Basis points in one whole.
    uint256 internal constant BPS = 10_000;

    /// @notice Payment for `amount` sSTB at `price` per whole sSTB, rounded up.
    function cost(uint256 amount, uint256 price) internal pure returns (uint256) {
        return Math.mulDiv(amount, price, PRICE_UNIT, Math.Rounding.Ceil);
    }

    /// @notice Payment for filling `amount` more of a position of which `filled` is already filled:
    /// `cost(filled + amount) - cost(filled)`.
    function fillPayment(uint256 filled, uint256 amount, uint256 price) internal pure returns (uint256) {
        return cost(filled + amount, price) - cost(filled, price);
    }

    /// @notice The fee of `feeBps` on `payment`, rounded up; never above `payment` (`feeBps <= BPS`).
    function fee(uint256 payment, uint256 feeBps) internal pure returns (uint256) {
        return Math.mulDiv(payment, feeBps, BPS, Math.Rounding.Ceil);
    }
}
