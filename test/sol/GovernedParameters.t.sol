// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";

import {IProviderRegistry} from "../../contracts/interfaces/IProviderRegistry.sol";
import {IRedemptionManager} from "../../contracts/interfaces/IRedemptionManager.sol";
import {AttestationVerifier} from "../../contracts/verification/AttestationVerifier.sol";
import {ProtocolSetup} from "./utils/ProtocolSetup.sol";

/// @title GovernedParametersTest
/// @notice Every governed setter rejects an out-of-bounds value with `ParameterOutOfBounds` (or
/// the verifier's threshold error) and keeps the old value; every in-bounds value is taken.
contract GovernedParametersTest is ProtocolSetup {
    function setUp() public {
        _deployProtocol();
        vm.startPrank(admin);
    }

    // --- ProviderRegistry ---

    function testFuzz_collateralRatio_outOfBounds(uint256 ratio) public {
        vm.assume(ratio < 10_000 || ratio > 30_000);
        vm.expectRevert(
            abi.encodeWithSelector(
                IProviderRegistry.ParameterOutOfBounds.selector,
                bytes32("collateralRatioBps"),
                ratio
            )
        );
        registry.setCollateralRatio(ratio);
        assertEq(registry.collateralRatioBps(), 12_000);
    }

    function testFuzz_collateralRatio_inBounds(uint256 ratio) public {
        ratio = bound(ratio, 10_000, 30_000);
        registry.setCollateralRatio(ratio);
        assertEq(registry.collateralRatioBps(), ratio);
    }

    function testFuzz_collateralPerCU_outOfBounds(uint256 price) public {
        vm.assume(price == 0 || price > registry.MAX_COLLATERAL_PER_CU());
        vm.expectRevert(
            abi.encodeWithSelector(IProviderRegistry.ParameterOutOfBounds.selector, bytes32("collateralPerCU"), price)
        );
        registry.setCollateralPerCU(price);
        assertEq(registry.collateralPerCU(), COLLATERAL_PER_CU);
    }

    function testFuzz_stakingPeriodBounds_outOfBounds(uint256 minPeriod, uint256 maxPeriod) public {
        vm.assume(minPeriod < 1 hours || minPeriod > maxPeriod || maxPeriod > 5 * 365 days);
        vm.expectPartialRevert(IProviderRegistry.ParameterOutOfBounds.selector);
        registry.setStakingPeriodBounds(minPeriod, maxPeriod);
        (uint256 min_, uint256 max_) = registry.stakingPeriodBounds();
        assertEq(min_, 7 days);
        assertEq(max_, 365 days);
    }

    function testFuzz_reputationDeltas_outOfBounds(uint256 reward, uint256 penalty) public {
        vm.assume(reward == 0 || reward > 5_000 || penalty == 0 || penalty > 5_000);
        vm.expectPartialRevert(IProviderRegistry.ParameterOutOfBounds.selector);
        registry.setReputationDeltas(reward, penalty);
        (uint256 reward_, uint256 penalty_) = registry.reputationDeltas();
        assertEq(reward_, 100);
        assertEq(penalty_, 500);
    }

    // --- RedemptionManager ---

    function testFuzz_redemptionFee_outOfBounds(uint256 feeBps) public {
        vm.assume(feeBps > 100);
        vm.expectRevert(
            abi.encodeWithSelector(
                IRedemptionManager.ParameterOutOfBounds.selector,
                bytes32("redemptionFeeBps"),
                feeBps
            )
        );
        manager.setRedemptionFee(feeBps);
        assertEq(views.feeBps(), 10);
    }

    function testFuzz_redemptionFee_inBounds(uint256 feeBps) public {
        feeBps = bound(feeBps, 0, 100);
        manager.setRedemptionFee(feeBps);
        assertEq(views.feeBps(), feeBps);
    }

    function testFuzz_tierDeadline_outOfBounds(uint8 tierIndex, uint256 seconds_) public {
        vm.assume(seconds_ < 15 minutes || seconds_ > 7 days);
        IProviderRegistry.Tier tier = IProviderRegistry.Tier(tierIndex % 3);
        uint256 previous = views.tierDeadline(tier);
        vm.expectPartialRevert(IRedemptionManager.ParameterOutOfBounds.selector);
        manager.setTierDeadline(tier, seconds_);
        assertEq(views.tierDeadline(tier), previous);
    }

    function testFuzz_tierDeadline_inBounds(uint8 tierIndex, uint256 seconds_) public {
        seconds_ = bound(seconds_, 15 minutes, 7 days);
        IProviderRegistry.Tier tier = IProviderRegistry.Tier(tierIndex % 3);
        manager.setTierDeadline(tier, seconds_);
        assertEq(views.tierDeadline(tier), seconds_);
    }

    function testFuzz_disputeWindow_outOfBounds(uint256 seconds_) public {
        vm.assume(seconds_ < 1 hours || seconds_ > 30 days);
        vm.expectRevert(
            abi.encodeWithSelector(IRedemptionManager.ParameterOutOfBounds.selector, bytes32("disputeWindow"), seconds_)
        );
        manager.setDisputeWindow(seconds_);
        assertEq(views.disputeWindow(), 72 hours);
    }

    // --- AttestationVerifier ---

    function testFuzz_verifierThreshold_outOfBounds(uint256 threshold) public {
        vm.assume(threshold == 0 || threshold > 3);
        vm.expectRevert(abi.encodeWithSelector(AttestationVerifier.VerifierInvalidThreshold.selector, threshold, 3));
        verifier.setThreshold(threshold);
        assertEq(verifier.threshold(), 2);
    }

    // --- only governance ---

    function testFuzz_setters_refuseNonGovernance(address caller) public {
        vm.assume(caller != admin);
        vm.stopPrank();
        vm.startPrank(caller);
        vm.expectPartialRevert(IAccessControl.AccessControlUnauthorizedAccount.selector);
        registry.setCollateralRatio(12_000);
        vm.expectPartialRevert(IAccessControl.AccessControlUnauthorizedAccount.selector);
        manager.setRedemptionFee(10);
        vm.expectPartialRevert(IAccessControl.AccessControlUnauthorizedAccount.selector);
        manager.unpause();
        vm.expectPartialRevert(IAccessControl.AccessControlUnauthorizedAccount.selector);
        verifier.setThreshold(2);
    }
}
