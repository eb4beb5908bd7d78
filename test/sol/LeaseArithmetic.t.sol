// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";

import {CollateralMath} from "../../contracts/libraries/CollateralMath.sol";
import {IRedemptionManager} from "../../contracts/interfaces/IRedemptionManager.sol";
import {ProtocolSetup} from "./utils/ProtocolSetup.sol";

/// @title LeaseArithmeticTest
/// @notice Issue 19's arithmetic under fuzzing: a packed record keeps every field it was given
/// (96-bit amounts and locks, 32-bit times, the deadline as an offset, a renewal's lease id), the
/// bounds of the packing refuse what does not fit, a stated lease end is taken exactly when it
/// lies in (now, now + maximum term], and an offer's extension exactly when the new end stays
/// within the maximum term from now.
contract LeaseArithmeticTest is ProtocolSetup {
    address internal provider = makeAddr("provider");
    address internal user = makeAddr("user");
    uint256 private _units;

    function setUp() public {
        _deployProtocol();
        _registerActive(provider);
        _addCapacity(1_000e18);
        vm.prank(provider);
        sstb.transfer(user, 500e18);
        vm.prank(user);
        sstb.approve(address(manager), type(uint256).max);
    }

    /// @dev Proves `cuValue` more capacity for the provider, with exactly the collateral it needs,
    /// in units of at most 2^95 (a compute unit's value has 96 bits).
    function _addCapacity(uint256 cuValue) private {
        while (cuValue > 0) {
            uint256 value = cuValue > 2 ** 95 ? 2 ** 95 : cuValue;
            cuValue -= value;
            uint256 needed = registry.requiredCollateral(registry.accountOf(provider).availableCU + value);
            uint256 free = registry.accountOf(provider).freeCollateral;
            bytes memory proof = _proof(provider, keccak256(abi.encode("unit", ++_units)), value);
            vm.prank(provider);
            agent.verifyAndMintSSTB(proof, needed > free ? needed - free : 0, 30 days);
        }
    }

    /// @notice A packed record reads back every field: amount, lock, times, deadline, weight,
    /// ratio, and the fulfilment time written later.
    function testFuzz_packedRecord_roundTrips(uint256 amount, uint256 at, uint256 delay) public {
        amount = bound(amount, views.minRedemptionAmount(), 400e18);
        at = bound(at, block.timestamp, type(uint32).max - 30 days);
        delay = bound(delay, 0, 20 hours);
        vm.warp(at);
        uint256 available = registry.accountOf(provider).availableCU;
        uint256 lock = CollateralMath.lockFor(available, amount, 12_000, COLLATERAL_PER_CU);
        vm.prank(user);
        uint256 id = manager.initiateRedemption(amount, provider);

        IRedemptionManager.Redemption memory r = views.redemptionOf(id);
        assertEq(r.user, user);
        assertEq(r.provider, provider);
        assertEq(r.amount, amount);
        assertEq(r.lock, lock);
        assertEq(r.timestamp, at);
        assertEq(r.deadline, at + 24 hours);
        assertEq(r.weight, amount / 10e18);
        assertEq(r.lockRatioBps, 12_000);
        assertEq(r.fulfilledAt, 0);
        assertEq(uint8(r.status), uint8(IRedemptionManager.RedemptionStatus.Pending));

        vm.warp(at + delay);
        vm.prank(provider);
        manager.fulfillRedemption(id, "envelope");
        r = views.redemptionOf(id);
        assertEq(r.fulfilledAt, at + delay);
        assertEq(r.amount, amount);
        assertEq(r.lock, lock);
        assertEq(r.deadline, at + 24 hours);
        (, , uint256 timestamp, , bool fulfilled, bool confirmed) = manager.redemptions(id);
        assertEq(timestamp, at);
        assertTrue(fulfilled);
        assertFalse(confirmed);
    }

    /// @notice Amounts above 96 bits do not fit a packed record and are refused whole.
    function testFuzz_packedRecord_refusesAmountsBeyond96Bits(uint256 excess) public {
        uint256 amount = uint256(type(uint96).max) + 1 + bound(excess, 0, 1e24);
        _addCapacity(2 * amount);
        vm.prank(provider);
        sstb.transfer(user, amount + amount / 100);
        uint256 count = views.redemptionCount();
        vm.prank(user);
        vm.expectRevert(abi.encodeWithSelector(SafeCast.SafeCastOverflowedUintDowncast.selector, 96, amount));
        manager.initiateRedemption(amount, provider);
        assertEq(views.redemptionCount(), count);
        // the largest amount that fits is taken
        vm.prank(user);
        manager.initiateRedemption(type(uint96).max, provider);
        assertEq(views.redemptionOf(count + 1).amount, type(uint96).max);
        assertEq(views.redemptionOf(count + 1).weight, type(uint16).max); // capped, not wrapped
    }

    /// @notice Times are kept in 32 bits: a redemption is refused from 2106 on, never truncated.
    function testFuzz_packedRecord_refusesTimesBeyond32Bits(uint256 at) public {
        at = bound(at, uint256(type(uint32).max) + 1, type(uint40).max);
        vm.warp(at);
        vm.prank(user);
        vm.expectRevert(abi.encodeWithSelector(SafeCast.SafeCastOverflowedUintDowncast.selector, 32, at));
        manager.initiateRedemption(10e18, provider);
    }

    /// @notice A stated end is taken exactly when now < end <= now + the maximum term, and is then
    /// the lease's end.
    function testFuzz_leaseEnd_takenExactlyWithinTheTerm(uint256 term, uint256 leaseEnd) public {
        term = bound(term, 1 days, 5 * 365 days); // the governed bounds of the maximum term
        vm.prank(admin);
        manager.setMaxLeaseTerm(term);
        vm.prank(user);
        uint256 id = manager.initiateRedemption(10e18, provider);
        leaseEnd = bound(leaseEnd, 0, block.timestamp + 2 * term);
        bool inside = leaseEnd > block.timestamp && leaseEnd <= block.timestamp + term;
        if (!inside) {
            vm.expectRevert(
                abi.encodeWithSelector(
                    IRedemptionManager.LeaseEndOutOfRange.selector,
                    leaseEnd,
                    block.timestamp + 1,
                    block.timestamp + term
                )
            );
        }
        vm.prank(provider);
        manager.fulfillRedemptionWithLease(id, "envelope", leaseEnd);
        if (inside) {
            assertEq(views.leaseOf(id).end, leaseEnd);
            assertEq(uint8(views.leaseStatus(id)), uint8(IRedemptionManager.LeaseStatus.Active));
        } else {
            assertEq(uint8(views.leaseStatus(id)), uint8(IRedemptionManager.LeaseStatus.None));
        }
    }

    /// @notice An offer's extension is taken exactly when 0 < extension <= now + term - end, and an
    /// accepted renewal moves the end by exactly the extension, its price burned and its lock held.
    function testFuzz_renewal_movesTheEndByTheExtension(
        uint256 leaseTerm,
        uint256 later,
        uint256 extension,
        uint256 price
    ) public {
        uint256 maxTerm = views.maxLeaseTerm();
        leaseTerm = bound(leaseTerm, 2, maxTerm);
        vm.prank(user);
        uint256 id = manager.initiateRedemption(10e18, provider);
        uint256 end = block.timestamp + leaseTerm;
        vm.prank(provider);
        manager.fulfillRedemptionWithLease(id, "envelope", end);
        vm.warp(block.timestamp + bound(later, 0, leaseTerm - 1));
        uint256 maxExtension = block.timestamp + maxTerm - end;
        extension = bound(extension, 0, maxExtension + 10 days);
        price = bound(price, views.minRedemptionAmount(), 100e18);
        if (extension == 0 || extension > maxExtension) {
            vm.expectRevert(
                abi.encodeWithSelector(IRedemptionManager.RenewalExtensionOutOfRange.selector, extension, maxExtension)
            );
            vm.prank(provider);
            manager.offerRenewal(id, price, extension, end);
            return;
        }
        vm.prank(provider);
        manager.offerRenewal(id, price, extension, end);
        uint256 supply = sstb.totalSupply();
        uint256 locked = registry.accountOf(provider).lockedCollateral;
        vm.prank(user);
        uint256 renewalId = manager.acceptRenewal(id, price, extension);
        assertEq(views.leaseOf(id).end, end + extension);
        assertEq(views.leaseIdOf(renewalId), id);
        assertEq(sstb.totalSupply(), supply - price);
        assertEq(registry.accountOf(provider).lockedCollateral, locked + views.redemptionOf(renewalId).lock);
        IRedemptionManager.Redemption memory r = views.redemptionOf(renewalId);
        assertEq(r.amount, price);
        assertEq(r.fulfilledAt, block.timestamp);
        assertEq(r.deadline, block.timestamp);
        assertEq(r.weight, price / 10e18);
    }
}
