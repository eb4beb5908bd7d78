// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "forge-std/Test.sol";

import {IMarket} from "../../../contracts/interfaces/IMarket.sol";
import {MarketMath} from "../../../contracts/libraries/MarketMath.sol";
import {SpotMarket} from "../../../contracts/markets/SpotMarket.sol";
import {MarketSetup} from "./utils/MarketSetup.sol";

/// @title SpotHandler
/// @notice Drives random listings, buy orders, fills of any size, cancels, expiries, fee changes,
/// time, and calls by the wrong party, through a real SpotMarket proxy, as three actors would.
contract SpotHandler is MarketSetup {
    constructor() {
        _deployMarkets();
    }

    modifier observed() {
        _;
        uint256 count = spot.listingCount();
        for (uint256 i = 0; i < count; ++i) {
            uint256 id = 3 * i + 1;
            SpotMarket.Position memory p = spot.positionOf(id);
            _observeEnd(id, _isFinal(p.status), keccak256(abi.encode(p)));
        }
    }

    function createListing(uint256 actor, uint256 amount, uint256 price, uint256 duration) external observed {
        vm.prank(_actor(actor));
        spot.createListing(
            _bound(amount, 1, 1e24),
            _bound(price, 1, 1e12),
            block.timestamp + _bound(duration, 1, 30 days)
        );
    }

    function createBuyOrder(uint256 actor, uint256 amount, uint256 price, uint256 duration) external observed {
        vm.prank(_actor(actor));
        spot.createBuyOrder(
            _bound(amount, 1, 1e24),
            _bound(price, 1, 1e12),
            block.timestamp + _bound(duration, 1, 30 days)
        );
    }

    function fill(uint256 actor, uint256 idSeed, uint256 amount) external observed {
        uint256 count = spot.listingCount();
        if (count == 0) return;
        uint256 id = _idOf(idSeed, count, 1);
        SpotMarket.Position memory p = spot.positionOf(id);
        if (p.status != IMarket.ListingStatus.Active || block.timestamp >= p.expiration) return;
        amount = _bound(amount, 1, p.amount - p.filled);
        uint256 payment = MarketMath.fillPayment(p.filled, amount, p.price);
        if (payment == 0) return;
        uint256 before = usdc.balanceOf(treasury);
        vm.prank(_actor(actor));
        if (p.kind == IMarket.PositionKind.SellListing) spot.buy(id, amount, p.price);
        else spot.sell(id, amount, p.price);
        _checkFee(spot, payment, before);
    }

    function cancel(uint256 idSeed) external observed {
        uint256 count = spot.listingCount();
        if (count == 0) return;
        uint256 id = _idOf(idSeed, count, 1);
        SpotMarket.Position memory p = spot.positionOf(id);
        if (p.status != IMarket.ListingStatus.Active) return;
        vm.prank(p.maker);
        spot.cancel(id);
    }

    function expire(uint256 idSeed) external observed {
        uint256 count = spot.listingCount();
        if (count == 0) return;
        uint256 id = _idOf(idSeed, count, 1);
        SpotMarket.Position memory p = spot.positionOf(id);
        if (p.status != IMarket.ListingStatus.Active) return;
        if (block.timestamp < p.expiration) vm.warp(p.expiration);
        spot.expire(id);
    }

    /// @dev Any operation by any actor on any position with any amount and limit: whatever the
    /// market accepts must keep the invariants.
    function anything(uint256 idSeed, uint256 actor, uint256 op, uint256 amount, bool generous) external observed {
        uint256 count = spot.listingCount();
        if (count == 0) return;
        uint256 id = _idOf(idSeed, count, 1);
        amount = _bound(amount, 0, 1e24);
        vm.startPrank(_actor(actor));
        op = op % 4;
        if (op == 0) try spot.buy(id, amount, generous ? type(uint256).max : 0) {} catch {}
        else if (op == 1) try spot.sell(id, amount, generous ? 0 : type(uint256).max) {} catch {}
        else if (op == 2) try spot.cancel(id) {} catch {}
        else try spot.expire(id) {} catch {}
        vm.stopPrank();
    }

    /// @notice What the open positions hold in escrow: unfilled sSTB of listings, unspent payment
    /// of buy orders.
    function openEscrow() external view returns (uint256 sstbHeld, uint256 paymentHeld) {
        uint256 count = spot.listingCount();
        for (uint256 i = 0; i < count; ++i) {
            SpotMarket.Position memory p = spot.positionOf(3 * i + 1);
            if (p.status != IMarket.ListingStatus.Active) continue;
            if (p.kind == IMarket.PositionKind.SellListing) sstbHeld += p.amount - p.filled;
            else paymentHeld += MarketMath.cost(p.amount, p.price) - MarketMath.cost(p.filled, p.price);
        }
    }

    /// @notice The market under test and its tokens.
    function contracts() external view returns (address market, address sstbToken, address usdcToken) {
        return (address(spot), address(sstb), address(usdc));
    }
}

/// @title SpotMarketInvariantsTest
/// @notice The spot market holds exactly what its open positions hold in escrow, no more, no less;
/// ended positions never change; the fee never exceeds its bps.
contract SpotMarketInvariantsTest is Test {
    SpotHandler internal handler;

    function setUp() public {
        handler = new SpotHandler();
        bytes4[] memory selectors = new bytes4[](11);
        selectors[0] = SpotHandler.createListing.selector;
        selectors[1] = SpotHandler.createBuyOrder.selector;
        selectors[2] = SpotHandler.fill.selector;
        selectors[3] = SpotHandler.fill.selector;
        selectors[4] = SpotHandler.fill.selector;
        selectors[5] = SpotHandler.cancel.selector;
        selectors[6] = SpotHandler.expire.selector;
        selectors[7] = SpotHandler.anything.selector;
        selectors[8] = MarketSetup.setFee.selector;
        selectors[9] = MarketSetup.passTime.selector;
        selectors[10] = SpotHandler.createListing.selector;
        targetSelector(FuzzSelector({addr: address(handler), selectors: selectors}));
        targetContract(address(handler));
    }

    /// @notice Token balances equal the open escrow: no dust lost, no dust stuck.
    function invariant_balancesEqualOpenEscrow() public view {
        (address market, address sstbToken, address usdcToken) = handler.contracts();
        (uint256 sstbHeld, uint256 paymentHeld) = handler.openEscrow();
        assertEq(SpotMarket(market).sstb().balanceOf(market), sstbHeld);
        assertEq(SpotMarket(market).paymentToken().balanceOf(market), paymentHeld);
        assertEq(sstbToken, address(SpotMarket(market).sstb()));
        assertEq(usdcToken, address(SpotMarket(market).paymentToken()));
    }

    /// @notice A position in an end state never changes again.
    function invariant_endStatesAreFinal() public view {
        assertEq(handler.endStateChanges(), 0);
    }

    /// @notice No trade's fee exceeds ceil(payment x bps), and none is free while the fee is on.
    function invariant_feeNeverAboveItsBps() public view {
        assertEq(handler.feeViolations(), 0);
    }

    /// @notice The handler's paths work end to end.
    function test_handlerRunsEveryPath() public {
        handler.createListing(0, 10e18, 2e6, 1 days);
        handler.createBuyOrder(1, 10e18, 2e6, 1 days);
        handler.fill(2, 0, 4e18); // listing 1
        handler.fill(2, 1, 10e18); // order 4, filled
        handler.cancel(0); // listing 1
        handler.createListing(1, 1e18, 3e6, 1 hours);
        handler.expire(2); // listing 7
        assertEq(handler.trades(), 2);
        assertEq(handler.ended(), 3);
        invariant_balancesEqualOpenEscrow();
    }

    /// @notice Sequences do real work.
    function afterInvariant() external view {
        (address market, , ) = handler.contracts();
        assertGt(SpotMarket(market).listingCount(), 0);
        assertGt(handler.trades() + handler.ended(), 0);
    }
}
