// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title CollateralMath
/// @notice Prices compute capacity in collateral. Capacity is measured in sSTB base units
/// (18 decimals, 1 sSTB = 1 unit of CU value); collateral in the collateral token's base units.
/// @dev required(value) = ceil(value * ratioBps * collateralPerCU / (10_000 * 1e18)).
/// Rounding is always up, in the protocol's favour: a provider never backs capacity with
/// less than the ratio asks for.
library CollateralMath {
    /// @notice Basis points in one whole (100%).
    uint256 internal constant BPS = 10_000;
    /// @notice sSTB base units in one sSTB.
    uint256 internal constant SSTB_UNIT = 1e18;

    /// @notice Collateral needed to back `value` sSTB of capacity.
    /// @param value Capacity in sSTB base units.
    /// @param ratioBps Collateral ratio in basis points (12_000 = 120%).
    /// @param collateralPerCU Collateral base units per whole sSTB.
    function required(uint256 value, uint256 ratioBps, uint256 collateralPerCU) internal pure returns (uint256) {
        return Math.mulDiv(value, ratioBps * collateralPerCU, BPS * SSTB_UNIT, Math.Rounding.Ceil);
    }

    /// @notice Collateral to lock when `amount` of a provider's `available` capacity is redeemed.
    /// @dev The difference of the two requirements rather than required(amount): rounding up both
    /// terms separately could lock one unit more than the free collateral covers, and locking the
    /// difference keeps `free >= required(available)` exactly true after the move.
    /// Requirements: `amount <= available`.
    function lockFor(
        uint256 available,
        uint256 amount,
        uint256 ratioBps,
        uint256 collateralPerCU
    ) internal pure returns (uint256) {
        return required(available, ratioBps, collateralPerCU) - required(available - amount, ratioBps, collateralPerCU);
    }
}
