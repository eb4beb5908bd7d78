// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "forge-std/Test.sol";

import {IMarket} from "../../../contracts/interfaces/IMarket.sol";
import {MarketMath} from "../../../contracts/libraries/MarketMath.sol";
import {OptionsMarket} from "../../../contracts/markets/OptionsMarket.sol";
import {MarketSetup} from "./utils/MarketSetup.sol";

/// @title OptionsHandler
/// @notice Drives random covered calls and cash-secured puts, purchases, partial exercises,
/// transfers, reclaims, cancels, fee changes, time, blacklisting of either token for any party or
/// the treasury, withdrawals of claimable balances, and calls by the wrong party, through a real
/// OptionsMarket proxy.
contract OptionsHandler is MarketSetup {
    constructor() {
        _deployMarkets();
    }

    modifier observed() {
        _;
        uint256 count = options.listingCount();
        for (uint256 i = 0; i < count; ++i) {
            uint256 id = 3 * i + 3;
            OptionsMarket.Option memory o = options.optionOf(id);
            _observeEnd(id, _isFinal(o.status), keccak256(abi.encode(o)));
        }
    }

    function write(
        uint256 actor,
        bool isCall,
        uint256 amount,
        uint256 strike,
        uint256 premium,
        uint256 delay
    ) external observed {
        amount = _bound(amount, 1, 1e24);
        strike = _bound(strike, 1, 1e12);
        premium = _bound(premium, 1, 1e10);
        uint256 expiry = block.timestamp + _bound(delay, 1, 30 days);
        address writer = _actor(actor);
        vm.prank(writer);
        if (isCall) {
            try options.writeCall(amount, strike, premium, expiry) {} catch {
                _expect(false, _clear(sstb, writer));
            }
        } else {
            try options.writePut(amount, strike, premium, expiry) {} catch {
                _expect(false, _clear(usdc, writer));
            }
        }
    }

    /// @dev A buyer that can pay buys whoever else is blacklisted (the writer, the treasury).
    function buy(uint256 actor, uint256 idSeed) external observed {
        uint256 count = options.listingCount();
        if (count == 0) return;
        uint256 id = _idOf(idSeed, count, 3);
        OptionsMarket.Option memory o = options.optionOf(id);
        if (o.status != IMarket.ListingStatus.Active || block.timestamp >= o.expiry) return;
        uint256 before = _treasuryHolding(options);
        address buyer = _actor(actor);
        vm.prank(buyer);
        try options.buyOption(id, o.premium) {
            _checkFee(options, MarketMath.cost(o.amount, o.premium), before);
        } catch {
            _expect(false, _clear(usdc, buyer));
        }
    }

    /// @dev A holder that can pay and receive its own side exercises whoever else is blacklisted.
    function exercise(uint256 idSeed, uint256 amount) external observed {
        uint256 count = options.listingCount();
        if (count == 0) return;
        uint256 id = _idOf(idSeed, count, 3);
        OptionsMarket.Option memory o = options.optionOf(id);
        if (o.status != IMarket.ListingStatus.Sold || block.timestamp >= o.expiry) return;
        amount = _bound(amount, 1, o.amount - o.exercised);
        uint256 payment = MarketMath.fillPayment(o.exercised, amount, o.strike);
        if (payment == 0) return;
        uint256 before = _treasuryHolding(options);
        vm.prank(o.holder);
        try options.exercise(id, amount) {
            _checkFee(options, payment, before);
        } catch {
            _expect(false, _clearBoth(o.holder));
        }
    }

    function transfer(uint256 idSeed, uint256 to) external observed {
        uint256 count = options.listingCount();
        if (count == 0) return;
        uint256 id = _idOf(idSeed, count, 3);
        OptionsMarket.Option memory o = options.optionOf(id);
        if (o.status != IMarket.ListingStatus.Sold) return;
        vm.prank(o.holder);
        try options.transferOption(id, _actor(to)) {} catch {
            _expect(false, true);
        }
    }

    function reclaim(uint256 idSeed) external observed {
        uint256 count = options.listingCount();
        if (count == 0) return;
        uint256 id = _idOf(idSeed, count, 3);
        OptionsMarket.Option memory o = options.optionOf(id);
        if (o.status != IMarket.ListingStatus.Active && o.status != IMarket.ListingStatus.Sold) return;
        if (block.timestamp < o.expiry) vm.warp(o.expiry);
        try options.reclaim(id) {} catch {
            _expect(false, true);
        }
    }

    function cancel(uint256 idSeed) external observed {
        uint256 count = options.listingCount();
        if (count == 0) return;
        uint256 id = _idOf(idSeed, count, 3);
        OptionsMarket.Option memory o = options.optionOf(id);
        if (o.status != IMarket.ListingStatus.Active) return;
        vm.prank(o.writer);
        try options.cancel(id) {} catch {
            _expect(false, _clear(o.kind == IMarket.PositionKind.CoveredCall ? sstb : usdc, o.writer));
        }
    }

    /// @dev Any operation by any actor on any option: whatever the market accepts must keep the
    /// invariants.
    function anything(uint256 idSeed, uint256 actor, uint256 op, uint256 amount) external observed {
        uint256 count = options.listingCount();
        if (count == 0) return;
        uint256 id = _idOf(idSeed, count, 3);
        amount = _bound(amount, 0, 1e24);
        vm.startPrank(_actor(actor));
        op = op % 5;
        if (op == 0) try options.buyOption(id, type(uint256).max) {} catch {}
        else if (op == 1) try options.exercise(id, amount) {} catch {}
        else if (op == 2) try options.reclaim(id) {} catch {}
        else if (op == 3) try options.cancel(id) {} catch {}
        else try options.transferOption(id, _actor(amount)) {} catch {}
        vm.stopPrank();
    }

    /// @notice What live options hold in escrow: unexercised sSTB of calls, unspent strike of puts.
    function openEscrow() external view returns (uint256 sstbHeld, uint256 paymentHeld) {
        uint256 count = options.listingCount();
        for (uint256 i = 0; i < count; ++i) {
            OptionsMarket.Option memory o = options.optionOf(3 * i + 3);
            if (o.status != IMarket.ListingStatus.Active && o.status != IMarket.ListingStatus.Sold) continue;
            if (o.kind == IMarket.PositionKind.CoveredCall) sstbHeld += o.amount - o.exercised;
            else paymentHeld += MarketMath.cost(o.amount, o.strike) - MarketMath.cost(o.exercised, o.strike);
        }
    }

    /// @notice The market under test.
    function market() external view returns (OptionsMarket) {
        return options;
    }

    function _market() internal view override returns (IMarket) {
        return options;
    }
}

/// @title OptionsMarketInvariantsTest
/// @notice The options market holds exactly what its live options hold in escrow plus what it
/// holds for accounts whose token refused a payment; ended options never change; the fee never
/// exceeds its bps; no purchase, exercise or reclaim is ever blocked by a refusal to someone other
/// than the caller; withdrawals move exactly what is held.
contract OptionsMarketInvariantsTest is Test {
    OptionsHandler internal handler;

    function setUp() public {
        handler = new OptionsHandler();
        bytes4[] memory selectors = new bytes4[](14);
        selectors[0] = OptionsHandler.write.selector;
        selectors[1] = OptionsHandler.write.selector;
        selectors[2] = OptionsHandler.buy.selector;
        selectors[3] = OptionsHandler.exercise.selector;
        selectors[4] = OptionsHandler.exercise.selector;
        selectors[5] = OptionsHandler.transfer.selector;
        selectors[6] = OptionsHandler.reclaim.selector;
        selectors[7] = OptionsHandler.cancel.selector;
        selectors[8] = OptionsHandler.anything.selector;
        selectors[9] = MarketSetup.setFee.selector;
        selectors[10] = MarketSetup.passTime.selector;
        selectors[11] = MarketSetup.toggleBlacklist.selector;
        selectors[12] = MarketSetup.withdraw.selector;
        selectors[13] = MarketSetup.withdraw.selector;
        targetSelector(FuzzSelector({addr: address(handler), selectors: selectors}));
        targetContract(address(handler));
    }

    /// @notice Token balances equal the open escrow plus the claimable balances: no dust lost, no
    /// dust stuck, nothing held that nobody can withdraw.
    function invariant_balancesEqualOpenEscrowPlusClaimable() public view {
        OptionsMarket m = handler.market();
        (uint256 sstbHeld, uint256 paymentHeld) = handler.openEscrow();
        assertEq(m.sstb().balanceOf(address(m)), sstbHeld + handler.claimableTotal(m.sstb()));
        assertEq(m.paymentToken().balanceOf(address(m)), paymentHeld + handler.claimableTotal(m.paymentToken()));
    }

    /// @notice An option in an end state never changes again.
    function invariant_endStatesAreFinal() public view {
        assertEq(handler.endStateChanges(), 0);
    }

    /// @notice No premium's or exercise's fee exceeds ceil(payment x bps), and none is free while
    /// the fee is on.
    function invariant_feeNeverAboveItsBps() public view {
        assertEq(handler.feeViolations(), 0);
    }

    /// @notice Whoever is blacklisted, a reclaim, and every operation whose caller can pay and
    /// receive its own side completes; a withdrawal moves exactly what is held.
    function invariant_noRefusalBlocksAnotherParty() public view {
        assertEq(handler.blocked(), 0);
        assertEq(handler.withdrawalViolations(), 0);
    }

    /// @notice The handler's paths work end to end, blacklisting, claims and withdrawals included.
    function test_handlerRunsEveryPath() public {
        OptionsMarket m = handler.market();
        handler.write(0, true, 10e18, 2e6, 1e5, 1 days); // 3: bought, exercised in part, reclaimed
        handler.write(1, false, 10e18, 2e6, 1e5, 1 days); // 6: bought, exercised in full
        handler.write(2, true, 1e18, 1e6, 1e5, 1 days); // 9: cancelled
        handler.toggleBlacklist(0, false); // actor 0, writer of 3, in the payment token
        handler.toggleBlacklist(3, false); // the treasury
        handler.buy(2, 0); // actor 2 buys 3: the premium waits for actor 0
        handler.buy(0, 1); // actor 0 buys 6: refused, its own side
        assertEq(uint8(m.optionOf(6).status), uint8(IMarket.ListingStatus.Active));
        handler.toggleBlacklist(0, false);
        handler.buy(0, 1); // now it can
        handler.toggleBlacklist(0, false);
        handler.exercise(0, 4e18); // actor 2 exercises 3: the strike waits for actor 0
        handler.transfer(1, 2); // 6 to actor 2
        handler.toggleBlacklist(1, true); // actor 1, writer of 6, in sSTB
        handler.exercise(1, 10e18); // actor 2 exercises the put: the sSTB waits for actor 1
        handler.cancel(2);
        handler.reclaim(0); // 3's rest waits for actor 0... in sSTB, which it still accepts
        assertEq(handler.trades(), 4);
        assertEq(handler.ended(), 3);
        assertGt(handler.claimableTotal(m.sstb()), 0);
        assertGt(handler.claimableTotal(m.paymentToken()), 0);
        handler.withdraw(0, false, 2); // actor 0's premium and strike to actor 2
        handler.withdraw(1, true, 1); // actor 1's sSTB to itself: refused, not counted
        handler.withdraw(1, true, 0); // to actor 0 instead
        handler.withdraw(3, false, 0); // the treasury's fees to actor 0, still blacklisted: refused
        handler.withdraw(3, false, 1); // to actor 1
        assertEq(handler.withdrawals(), 3);
        assertEq(handler.claimableTotal(m.sstb()) + handler.claimableTotal(m.paymentToken()), 0);
        assertEq(handler.blocked(), 0);
        invariant_balancesEqualOpenEscrowPlusClaimable();
        invariant_noRefusalBlocksAnotherParty();
    }
}
