// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "forge-std/Test.sol";

import {IMarket} from "../../../contracts/interfaces/IMarket.sol";
import {MarketMath} from "../../../contracts/libraries/MarketMath.sol";
import {FuturesMarket} from "../../../contracts/markets/FuturesMarket.sol";
import {MarketSetup} from "./utils/MarketSetup.sol";

/// @title FuturesHandler
/// @notice Drives random offers to sell and to buy, takes, settlements, cancels, expiries, fee
/// changes, time, and calls by the wrong party, through a real FuturesMarket proxy.
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
        vm.prank(_actor(actor));
        if (toSell) futures.offerToSell(amount, price, settlement);
        else futures.offerToBuy(amount, price, settlement);
    }

    function take(uint256 actor, uint256 idSeed) external observed {
        uint256 count = futures.listingCount();
        if (count == 0) return;
        uint256 id = _idOf(idSeed, count, 2);
        FuturesMarket.Future memory f = futures.futureOf(id);
        if (f.status != IMarket.ListingStatus.Active || block.timestamp >= f.settlementTime) return;
        vm.prank(_actor(actor));
        futures.take(id, f.price);
    }

    function settle(uint256 idSeed) external observed {
        uint256 count = futures.listingCount();
        if (count == 0) return;
        uint256 id = _idOf(idSeed, count, 2);
        FuturesMarket.Future memory f = futures.futureOf(id);
        if (f.status != IMarket.ListingStatus.Matched) return;
        if (block.timestamp < f.settlementTime) vm.warp(f.settlementTime);
        uint256 before = usdc.balanceOf(treasury);
        futures.settle(id);
        _checkFee(futures, MarketMath.cost(f.amount, f.price), before);
    }

    function cancel(uint256 idSeed) external observed {
        uint256 count = futures.listingCount();
        if (count == 0) return;
        uint256 id = _idOf(idSeed, count, 2);
        FuturesMarket.Future memory f = futures.futureOf(id);
        if (f.status != IMarket.ListingStatus.Active) return;
        vm.prank(f.maker);
        futures.cancel(id);
    }

    function expire(uint256 idSeed) external observed {
        uint256 count = futures.listingCount();
        if (count == 0) return;
        uint256 id = _idOf(idSeed, count, 2);
        FuturesMarket.Future memory f = futures.futureOf(id);
        if (f.status != IMarket.ListingStatus.Active) return;
        if (block.timestamp < f.settlementTime) vm.warp(f.settlementTime);
        futures.expire(id);
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
}

/// @title FuturesMarketInvariantsTest
/// @notice The futures market holds exactly both sides of every matched future and the maker's side
/// of every open offer; ended futures never change; the fee never exceeds its bps.
contract FuturesMarketInvariantsTest is Test {
    FuturesHandler internal handler;

    function setUp() public {
        handler = new FuturesHandler();
        bytes4[] memory selectors = new bytes4[](10);
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
        targetSelector(FuzzSelector({addr: address(handler), selectors: selectors}));
        targetContract(address(handler));
    }

    /// @notice Token balances equal the open escrow: no dust lost, no dust stuck.
    function invariant_balancesEqualOpenEscrow() public view {
        FuturesMarket m = handler.market();
        (uint256 sstbHeld, uint256 paymentHeld) = handler.openEscrow();
        assertEq(m.sstb().balanceOf(address(m)), sstbHeld);
        assertEq(m.paymentToken().balanceOf(address(m)), paymentHeld);
    }

    /// @notice A future in an end state never changes again.
    function invariant_endStatesAreFinal() public view {
        assertEq(handler.endStateChanges(), 0);
    }

    /// @notice No settlement's fee exceeds ceil(payment x bps), and none is free while the fee is on.
    function invariant_feeNeverAboveItsBps() public view {
        assertEq(handler.feeViolations(), 0);
    }

    /// @notice The handler's paths work end to end.
    function test_handlerRunsEveryPath() public {
        handler.offer(0, true, 5e18, 3e6, 1 days); // 2: taken and settled
        handler.offer(1, false, 5e18, 3e6, 1 days); // 5: taken and settled
        handler.offer(2, true, 1e18, 1e6, 1 days); // 8: cancelled
        handler.offer(2, false, 1e18, 1e6, 1 hours); // 11: expired
        handler.take(1, 0);
        handler.take(2, 1);
        handler.cancel(2);
        handler.expire(3);
        handler.settle(0);
        handler.settle(1);
        assertEq(handler.trades(), 2);
        assertEq(handler.ended(), 4);
        invariant_balancesEqualOpenEscrow();
    }

    /// @notice Sequences do real work.
    function afterInvariant() external view {
        assertGt(handler.market().listingCount(), 0);
        assertGt(handler.trades() + handler.ended(), 0);
    }
}
