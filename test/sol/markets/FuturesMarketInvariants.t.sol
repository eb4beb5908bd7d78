// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "forge-std/Test.sol";

import {IMarket} from "../../../contracts/interfaces/IMarket.sol";
import {MarketMath} from "../../../contracts/libraries/MarketMath.sol";
import {FuturesMarket} from "../../../contracts/markets/FuturesMarket.sol";
import {MarketSetup} from "./utils/MarketSetup.sol";

/// @title FuturesHandler
/// @notice Drives random offers to sell and to buy, takes, settlements, cancels, expiries, fee
/// changes, time, blacklisting of either token for any party or the treasury, withdrawals of
/// claimable balances, and calls by the wrong party, through a real FuturesMarket proxy.
contract FuturesHandler is MarketSetup {
    constructor() {
        _deployMarkets();
    }

    modifier observed() {
        _;
        uint256 count = futures.listingCount();
        for (uint256 i = 0; i < count; ++i) {
            uint256 id = 3 * i + 2;
            FuturesMarket.Future memory f = futures.futureOf(id);
            _observeEnd(id, _isFinal(f.status), keccak256(abi.encode(f)));
        }
    }

    function offer(uint256 actor, bool toSell, uint256 amount, uint256 price, uint256 delay) external observed {
        amount = _bound(amount, 1, 1e24);
        price = _bound(price, 1, 1e12);
        uint256 settlement = block.timestamp + _bound(delay, 1, 30 days);
        address maker = _actor(actor);
        vm.prank(maker);
        if (toSell) {
            try futures.offerToSell(amount, price, settlement) {} catch {
                _expect(false, _clear(sstb, maker));
            }
        } else {
            try futures.offerToBuy(amount, price, settlement) {} catch {
                _expect(false, _clear(usdc, maker));
            }
        }
    }

    function take(uint256 actor, uint256 idSeed) external observed {
        uint256 count = futures.listingCount();
        if (count == 0) return;
        uint256 id = _idOf(idSeed, count, 2);
        FuturesMarket.Future memory f = futures.futureOf(id);
        if (f.status != IMarket.ListingStatus.Active || block.timestamp >= f.settlementTime) return;
        address taker = _actor(actor);
        vm.prank(taker);
        try futures.take(id, f.price) {} catch {
            _expect(false, _clear(f.kind == IMarket.PositionKind.FutureSell ? usdc : sstb, taker));
        }
    }

    /// @dev A matched future settles at its time whoever is blacklisted: the buyer's side never
    /// depends on the seller's, nor on the treasury.
    function settle(uint256 idSeed) external observed {
        uint256 count = futures.listingCount();
        if (count == 0) return;
        uint256 id = _idOf(idSeed, count, 2);
        FuturesMarket.Future memory f = futures.futureOf(id);
        if (f.status != IMarket.ListingStatus.Matched) return;
        if (block.timestamp < f.settlementTime) vm.warp(f.settlementTime);
        uint256 before = _treasuryHolding(futures);
        try futures.settle(id) {
            _checkFee(futures, MarketMath.cost(f.amount, f.price), before);
        } catch {
            _expect(false, true);
        }
    }

    function cancel(uint256 idSeed) external observed {
        uint256 count = futures.listingCount();
        if (count == 0) return;
        uint256 id = _idOf(idSeed, count, 2);
        FuturesMarket.Future memory f = futures.futureOf(id);
        if (f.status != IMarket.ListingStatus.Active) return;
        vm.prank(f.maker);
        try futures.cancel(id) {} catch {
            _expect(false, _clear(f.kind == IMarket.PositionKind.FutureSell ? sstb : usdc, f.maker));
        }
    }

    function expire(uint256 idSeed) external observed {
        uint256 count = futures.listingCount();
        if (count == 0) return;
        uint256 id = _idOf(idSeed, count, 2);
        FuturesMarket.Future memory f = futures.futureOf(id);
        if (f.status != IMarket.ListingStatus.Active) return;
        if (block.timestamp < f.settlementTime) vm.warp(f.settlementTime);
        try futures.expire(id) {} catch {
            _expect(false, true);
        }
    }

    /// @dev Any operation by any actor on any future: whatever the market accepts must keep the
    /// invariants.
    function anything(uint256 idSeed, uint256 actor, uint256 op, bool generous) external observed {
        uint256 count = futures.listingCount();
        if (count == 0) return;
        uint256 id = _idOf(idSeed, count, 2);
        vm.startPrank(_actor(actor));
        op = op % 4;
        if (op == 0) try futures.take(id, generous ? type(uint256).max : 0) {} catch {}
        else if (op == 1) try futures.settle(id) {} catch {}
        else if (op == 2) try futures.cancel(id) {} catch {}
        else try futures.expire(id) {} catch {}
        vm.stopPrank();
    }

    /// @notice What open offers and matched futures hold in escrow.
    function openEscrow() external view returns (uint256 sstbHeld, uint256 paymentHeld) {
        uint256 count = futures.listingCount();
        for (uint256 i = 0; i < count; ++i) {
            FuturesMarket.Future memory f = futures.futureOf(3 * i + 2);
            bool matched = f.status == IMarket.ListingStatus.Matched;
            if (!matched && f.status != IMarket.ListingStatus.Active) continue;
            bool sell = f.kind == IMarket.PositionKind.FutureSell;
            if (sell || matched) sstbHeld += f.amount;
            if (!sell || matched) paymentHeld += MarketMath.cost(f.amount, f.price);
        }
    }

    /// @notice The market under test.
    function market() external view returns (FuturesMarket) {
        return futures;
    }

    function _market() internal view override returns (IMarket) {
        return futures;
    }
}

/// @title FuturesMarketInvariantsTest
/// @notice The futures market holds exactly both sides of every matched future, the maker's side
/// of every open offer, and what it holds for accounts whose token refused a payment; ended futures
/// never change; the fee never exceeds its bps; no settlement or end is ever blocked by a refusal
/// to someone other than the caller; withdrawals move exactly what is held.
contract FuturesMarketInvariantsTest is Test {
    FuturesHandler internal handler;

    function setUp() public {
        handler = new FuturesHandler();
        bytes4[] memory selectors = new bytes4[](13);
        selectors[0] = FuturesHandler.offer.selector;
        selectors[1] = FuturesHandler.offer.selector;
        selectors[2] = FuturesHandler.take.selector;
        selectors[3] = FuturesHandler.take.selector;
        selectors[4] = FuturesHandler.settle.selector;
        selectors[5] = FuturesHandler.cancel.selector;
        selectors[6] = FuturesHandler.expire.selector;
        selectors[7] = FuturesHandler.anything.selector;
        selectors[8] = MarketSetup.setFee.selector;
        selectors[9] = MarketSetup.passTime.selector;
        selectors[10] = MarketSetup.toggleBlacklist.selector;
        selectors[11] = MarketSetup.withdraw.selector;
        selectors[12] = MarketSetup.withdraw.selector;
        targetSelector(FuzzSelector({addr: address(handler), selectors: selectors}));
        targetContract(address(handler));
    }

    /// @notice Token balances equal the open escrow plus the claimable balances: no dust lost, no
    /// dust stuck, nothing held that nobody can withdraw.
    function invariant_balancesEqualOpenEscrowPlusClaimable() public view {
        FuturesMarket m = handler.market();
        (uint256 sstbHeld, uint256 paymentHeld) = handler.openEscrow();
        assertEq(m.sstb().balanceOf(address(m)), sstbHeld + handler.claimableTotal(m.sstb()));
        assertEq(m.paymentToken().balanceOf(address(m)), paymentHeld + handler.claimableTotal(m.paymentToken()));
    }

    /// @notice A future in an end state never changes again.
    function invariant_endStatesAreFinal() public view {
        assertEq(handler.endStateChanges(), 0);
    }

    /// @notice No settlement's fee exceeds ceil(payment x bps), and none is free while the fee is on.
    function invariant_feeNeverAboveItsBps() public view {
        assertEq(handler.feeViolations(), 0);
    }

    /// @notice Whoever is blacklisted, a settlement, an expiry, and every operation whose caller
    /// can pay and receive its own side completes; a withdrawal moves exactly what is held.
    function invariant_noRefusalBlocksAnotherParty() public view {
        assertEq(handler.blocked(), 0);
        assertEq(handler.withdrawalViolations(), 0);
    }

    /// @notice The handler's paths work end to end, blacklisting, claims and withdrawals included.
    function test_handlerRunsEveryPath() public {
        FuturesMarket m = handler.market();
        handler.offer(0, true, 5e18, 3e6, 1 days); // 2: taken by actor 1, settled
        handler.offer(1, false, 5e18, 3e6, 1 days); // 5: taken by actor 2, settled
        handler.offer(2, true, 1e18, 1e6, 1 days); // 8: cancelled
        handler.offer(2, false, 1e18, 1e6, 1 hours); // 11: expired
        handler.take(1, 0);
        handler.take(2, 1);
        handler.cancel(2);
        handler.toggleBlacklist(0, false); // actor 0, the seller of 2, in the payment token
        handler.toggleBlacklist(1, true); // actor 1, the buyer of 2 and 5, in sSTB
        handler.toggleBlacklist(3, false); // the treasury
        handler.toggleBlacklist(2, false); // actor 2, the maker of 11
        handler.expire(3);
        handler.settle(0);
        handler.settle(1);
        assertEq(handler.trades(), 2);
        assertEq(handler.ended(), 4);
        assertEq(handler.blacklistings(), 4);
        assertEq(m.claimable(address(0), m.sstb()), 0);
        assertGt(handler.claimableTotal(m.sstb()), 0); // 2's sSTB waits for actor 1
        assertGt(handler.claimableTotal(m.paymentToken()), 0); // 2's payment, 11's refund, fees
        handler.withdraw(0, false, 1); // actor 0's payment to actor 1
        handler.withdraw(1, true, 2); // actor 1's sSTB to actor 2
        handler.withdraw(3, false, 3); // the treasury to itself: refused, not counted
        handler.toggleBlacklist(3, false);
        handler.withdraw(3, false, 3); // now it can
        assertEq(handler.withdrawals(), 3);
        assertEq(handler.blocked(), 0);
        invariant_balancesEqualOpenEscrowPlusClaimable();
        invariant_noRefusalBlocksAnotherParty();
    }
}
