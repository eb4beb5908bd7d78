// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "forge-std/Test.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

import {IMarket} from "../../../contracts/interfaces/IMarket.sol";
import {MarketMath} from "../../../contracts/libraries/MarketMath.sol";
import {SpotMarket} from "../../../contracts/markets/SpotMarket.sol";
import {MarketSetup} from "./utils/MarketSetup.sol";

/// @title SpotHandler
/// @notice Drives random listings, buy orders, fills of any size, cancels, expiries, fee changes,
/// time, blacklisting of either token for any party or the treasury, withdrawals of claimable
/// balances, and calls by the wrong party, through a real SpotMarket proxy, as three actors would.
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
        address maker = _actor(actor);
        vm.prank(maker);
        try
            spot.createListing(
                _bound(amount, 1, 1e24),
                _bound(price, 1, 1e12),
                block.timestamp + _bound(duration, 1, 30 days)
            )
        {} catch {
            _expect(false, _clear(sstb, maker));
        }
    }

    function createBuyOrder(uint256 actor, uint256 amount, uint256 price, uint256 duration) external observed {
        address maker = _actor(actor);
        vm.prank(maker);
        try
            spot.createBuyOrder(
                _bound(amount, 1, 1e24),
                _bound(price, 1, 1e12),
                block.timestamp + _bound(duration, 1, 30 days)
            )
        {} catch {
            _expect(false, _clear(usdc, maker));
        }
    }

    /// @dev A taker that can pay and receive its own side fills whoever else is blacklisted (the
    /// maker, the treasury).
    function fill(uint256 actor, uint256 idSeed, uint256 amount) external observed {
        uint256 count = spot.listingCount();
        if (count == 0) return;
        uint256 id = _idOf(idSeed, count, 1);
        SpotMarket.Position memory p = spot.positionOf(id);
        if (p.status != IMarket.ListingStatus.Active || block.timestamp >= p.expiration) return;
        amount = _bound(amount, 1, p.amount - p.filled);
        uint256 payment = MarketMath.fillPayment(p.filled, amount, p.price);
        if (payment == 0) return;
        uint256 before = _treasuryHolding(spot);
        address taker = _actor(actor);
        vm.prank(taker);
        bool ok;
        if (p.kind == IMarket.PositionKind.SellListing) {
            try spot.buy(id, amount, p.price) {
                ok = true;
            } catch {}
        } else {
            try spot.sell(id, amount, p.price) {
                ok = true;
            } catch {}
        }
        if (ok) _checkFee(spot, payment, before);
        else _expect(false, _clearBoth(taker));
    }

    function cancel(uint256 idSeed) external observed {
        uint256 count = spot.listingCount();
        if (count == 0) return;
        uint256 id = _idOf(idSeed, count, 1);
        SpotMarket.Position memory p = spot.positionOf(id);
        if (p.status != IMarket.ListingStatus.Active) return;
        vm.prank(p.maker);
        try spot.cancel(id) {} catch {
            _expect(false, _clear(p.kind == IMarket.PositionKind.SellListing ? sstb : usdc, p.maker));
        }
    }

    function expire(uint256 idSeed) external observed {
        uint256 count = spot.listingCount();
        if (count == 0) return;
        uint256 id = _idOf(idSeed, count, 1);
        SpotMarket.Position memory p = spot.positionOf(id);
        if (p.status != IMarket.ListingStatus.Active) return;
        if (block.timestamp < p.expiration) vm.warp(p.expiration);
        try spot.expire(id) {} catch {
            _expect(false, true);
        }
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

    function _market() internal view override returns (IMarket) {
        return spot;
    }
}

/// @title SpotMarketInvariantsTest
/// @notice The spot market holds exactly what its open positions hold in escrow plus what it holds
/// for accounts whose token refused a payment, no more, no less; ended positions never change; the
/// fee never exceeds its bps; no fill or expiry is ever blocked by a refusal to someone other than
/// the caller; withdrawals move exactly what is held.
contract SpotMarketInvariantsTest is Test {
    SpotHandler internal handler;

    function setUp() public {
        handler = new SpotHandler();
        bytes4[] memory selectors = new bytes4[](14);
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
        selectors[11] = MarketSetup.toggleBlacklist.selector;
        selectors[12] = MarketSetup.withdraw.selector;
        selectors[13] = MarketSetup.withdraw.selector;
        targetSelector(FuzzSelector({addr: address(handler), selectors: selectors}));
        targetContract(address(handler));
    }

    /// @notice Token balances equal the open escrow plus the claimable balances: no dust lost, no
    /// dust stuck, nothing held that nobody can withdraw.
    function invariant_balancesEqualOpenEscrowPlusClaimable() public view {
        (address market, address sstbToken, address usdcToken) = handler.contracts();
        (uint256 sstbHeld, uint256 paymentHeld) = handler.openEscrow();
        IERC20 s = SpotMarket(market).sstb();
        IERC20 u = SpotMarket(market).paymentToken();
        assertEq(s.balanceOf(market), sstbHeld + handler.claimableTotal(s));
        assertEq(u.balanceOf(market), paymentHeld + handler.claimableTotal(u));
        assertEq(sstbToken, address(s));
        assertEq(usdcToken, address(u));
    }

    /// @notice A position in an end state never changes again.
    function invariant_endStatesAreFinal() public view {
        assertEq(handler.endStateChanges(), 0);
    }

    /// @notice No trade's fee exceeds ceil(payment x bps), and none is free while the fee is on.
    function invariant_feeNeverAboveItsBps() public view {
        assertEq(handler.feeViolations(), 0);
    }

    /// @notice Whoever is blacklisted, an expiry, and every operation whose caller can pay and
    /// receive its own side completes; a withdrawal moves exactly what is held.
    function invariant_noRefusalBlocksAnotherParty() public view {
        assertEq(handler.blocked(), 0);
        assertEq(handler.withdrawalViolations(), 0);
    }

    /// @notice The handler's paths work end to end, blacklisting, claims and withdrawals included.
    function test_handlerRunsEveryPath() public {
        (address market, address sstbToken, address usdcToken) = handler.contracts();
        handler.createListing(0, 10e18, 2e6, 1 days); // 1
        handler.createBuyOrder(1, 10e18, 2e6, 1 days); // 4
        handler.toggleBlacklist(0, false); // actor 0, the seller of 1, in the payment token
        handler.toggleBlacklist(1, true); // actor 1, the buyer of 4, in sSTB
        handler.toggleBlacklist(3, false); // the treasury
        handler.fill(2, 0, 4e18); // listing 1: the payment waits for actor 0
        handler.fill(2, 1, 10e18); // order 4, filled: the sSTB waits for actor 1
        handler.fill(1, 0, 1e18); // actor 1 cannot receive sSTB: refused, its own side
        handler.cancel(0); // listing 1: actor 0 still accepts sSTB
        handler.createListing(1, 1e18, 3e6, 1 hours); // 7: actor 1 cannot escrow sSTB: refused
        handler.createBuyOrder(0, 1e18, 3e6, 1 hours); // 7: actor 0 cannot escrow payment: refused
        handler.createBuyOrder(2, 1e18, 3e6, 1 hours); // 7
        handler.toggleBlacklist(2, false); // actor 2, the maker of 7
        handler.expire(2); // order 7: the refund waits for actor 2
        assertEq(SpotMarket(market).listingCount(), 3);
        assertEq(handler.trades(), 2);
        assertEq(handler.ended(), 3);
        assertGt(handler.claimableTotal(IERC20(sstbToken)), 0);
        assertGt(handler.claimableTotal(IERC20(usdcToken)), 0);
        handler.withdraw(0, false, 0); // to itself, blacklisted: refused
        handler.withdraw(0, false, 1); // to actor 1
        handler.withdraw(1, true, 2); // to actor 2
        handler.withdraw(2, false, 1); // to actor 1
        handler.withdraw(3, false, 0); // to actor 0: refused
        handler.toggleBlacklist(3, false);
        handler.withdraw(3, false, 3); // to itself, no longer blacklisted
        assertEq(handler.withdrawals(), 4);
        assertEq(handler.claimableTotal(IERC20(sstbToken)) + handler.claimableTotal(IERC20(usdcToken)), 0);
        assertEq(handler.blocked(), 0);
        invariant_balancesEqualOpenEscrowPlusClaimable();
        invariant_noRefusalBlocksAnotherParty();
    }
}
