// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "forge-std/Test.sol";
import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

import {IMarket} from "../../../../contracts/interfaces/IMarket.sol";
import {FuturesMarket} from "../../../../contracts/markets/FuturesMarket.sol";
import {OptionsMarket} from "../../../../contracts/markets/OptionsMarket.sol";
import {SpotMarket} from "../../../../contracts/markets/SpotMarket.sol";
import {MockBlacklistStablecoin} from "../../../../contracts/mocks/MockBlacklistStablecoin.sol";

/// @title MarketSetup
/// @notice Deploys the three markets behind UUPS proxies as the `PrimaryCore` module does, over two
/// tokens that refuse any transfer to or from a blacklisted account: the payment token (as native
/// USDC does) and the sSTB (which an upgrade could make refuse too; the markets treat both alike).
/// Funds three actors and approves every market for them; shared bookkeeping for the market
/// handlers: end states never change, fees never above their bps, blacklisting (of the actors and
/// the treasury, in either token), withdrawals of claimable balances, and operations a refusal
/// blocked although the caller's own side was sound (must stay none).
abstract contract MarketSetup is Test {
    MockBlacklistStablecoin internal usdc;
    MockBlacklistStablecoin internal sstb;
    SpotMarket internal spot;
    FuturesMarket internal futures;
    OptionsMarket internal options;

    /// @dev Governance of the three markets, and their treasury (fixed addresses, no keys).
    address internal constant ADMIN = address(uint160(uint256(keccak256("market-admin"))));
    address internal constant TREASURY = address(uint160(uint256(keccak256("market-treasury"))));
    address[3] internal actors;

    /// @notice Trades whose fee exceeded ceil(payment x bps / 10_000), or was zero while the rate
    /// and the payment were not (must stay 0).
    uint256 public feeViolations;
    /// @notice Positions that changed after reaching an end state (must stay 0).
    uint256 public endStateChanges;
    /// @notice Operations that reverted although the caller's own side was sound (it could pay and
    /// receive what it pays and receives itself): a refusal to someone else blocked it (must stay 0).
    uint256 public blocked;
    /// @notice Withdrawals of claimable balances that moved something other than the whole balance
    /// to the chosen recipient (must stay 0).
    uint256 public withdrawalViolations;
    /// @notice Positions that reached an end state.
    uint256 public ended;
    /// @notice Trades executed.
    uint256 public trades;
    /// @notice Blacklistings (an account added to a token's blacklist).
    uint256 public blacklistings;
    /// @notice Successful withdrawals of claimable balances.
    uint256 public withdrawals;
    mapping(uint256 listingId => bytes32) internal _endHash;

    function _deployMarkets() internal {
        usdc = new MockBlacklistStablecoin();
        sstb = new MockBlacklistStablecoin();
        IERC20 s = IERC20(address(sstb));
        IERC20 u = IERC20(address(usdc));
        spot = SpotMarket(
            address(
                new ERC1967Proxy(
                    address(new SpotMarket(s, u)),
                    abi.encodeCall(SpotMarket.initialize, (ADMIN, TREASURY))
                )
            )
        );
        futures = FuturesMarket(
            address(
                new ERC1967Proxy(
                    address(new FuturesMarket(s, u)),
                    abi.encodeCall(FuturesMarket.initialize, (ADMIN, TREASURY))
                )
            )
        );
        options = OptionsMarket(
            address(
                new ERC1967Proxy(
                    address(new OptionsMarket(s, u)),
                    abi.encodeCall(OptionsMarket.initialize, (ADMIN, TREASURY))
                )
            )
        );
        actors = [makeAddr("actor-0"), makeAddr("actor-1"), makeAddr("actor-2")];
        for (uint256 i = 0; i < 3; ++i) {
            sstb.mint(actors[i], 1e27);
            usdc.mint(actors[i], 1e24);
            vm.startPrank(actors[i]);
            sstb.approve(address(spot), type(uint256).max);
            sstb.approve(address(futures), type(uint256).max);
            sstb.approve(address(options), type(uint256).max);
            usdc.approve(address(spot), type(uint256).max);
            usdc.approve(address(futures), type(uint256).max);
            usdc.approve(address(options), type(uint256).max);
            vm.stopPrank();
        }
    }

    /// @dev The market this handler drives.
    function _market() internal view virtual returns (IMarket);

    /// @dev Checks the fee of a trade of `payment` against the rate in force, from what the
    /// treasury holds (its balance and what the market holds for it) before and after.
    function _checkFee(IMarket market, uint256 payment, uint256 treasuryBefore) internal {
        uint256 fee = _treasuryHolding(market) - treasuryBefore;
        uint256 bps = market.feeBps();
        uint256 ceiling = (payment * bps + 9_999) / 10_000;
        if (fee > ceiling || fee > payment || (bps > 0 && payment > 0 && fee == 0)) ++feeViolations;
        ++trades;
    }

    /// @dev The treasury's payment-token balance plus what `market` holds for it.
    function _treasuryHolding(IMarket market) internal view returns (uint256) {
        return usdc.balanceOf(TREASURY) + market.claimable(TREASURY, IERC20(address(usdc)));
    }

    /// @dev Counts an operation that failed although its caller's own side was `sound`.
    function _expect(bool ok, bool sound) internal {
        if (!ok && sound) ++blocked;
    }

    /// @dev Whether `account` may move `token` itself (not blacklisted in it).
    function _clear(MockBlacklistStablecoin token, address account) internal view returns (bool) {
        return !token.isBlacklisted(account);
    }

    /// @dev Whether `account` may move both tokens itself.
    function _clearBoth(address account) internal view returns (bool) {
        return _clear(usdc, account) && _clear(sstb, account);
    }

    /// @dev Records the hash of a position in an end state, or counts a change to one recorded.
    function _observeEnd(uint256 listingId, bool isFinal, bytes32 hash) internal {
        if (!isFinal) return;
        bytes32 seen = _endHash[listingId];
        if (seen == bytes32(0)) {
            _endHash[listingId] = hash;
            ++ended;
        } else if (seen != hash) {
            ++endStateChanges;
        }
    }

    function _isFinal(IMarket.ListingStatus s) internal pure returns (bool) {
        return
            s == IMarket.ListingStatus.Filled ||
            s == IMarket.ListingStatus.Cancelled ||
            s == IMarket.ListingStatus.Expired ||
            s == IMarket.ListingStatus.Settled ||
            s == IMarket.ListingStatus.Exercised ||
            s == IMarket.ListingStatus.Reclaimed;
    }

    /// @dev The id of the `seed`-th position of a market with `count` positions and type `tag`.
    function _idOf(uint256 seed, uint256 count, uint256 tag) internal pure returns (uint256) {
        return 3 * (seed % count) + tag;
    }

    function _actor(uint256 seed) internal view returns (address) {
        return actors[seed % 3];
    }

    /// @dev One of the four accounts a market ever pays: the three actors and the treasury.
    function _account(uint256 seed) internal view returns (address) {
        seed %= 4;
        return seed == 3 ? TREASURY : actors[seed];
    }

    function _token(bool isSstb) internal view returns (MockBlacklistStablecoin) {
        return isSstb ? sstb : usdc;
    }

    /// @notice Governance changes the fee (0 to the cap), as it may at any time.
    function setFee(uint256 bps) external {
        bps = _bound(bps, 0, 100);
        vm.startPrank(ADMIN);
        spot.setMarketFee(bps);
        futures.setMarketFee(bps);
        options.setMarketFee(bps);
        vm.stopPrank();
    }

    /// @notice Time passes.
    function passTime(uint256 seconds_) external {
        vm.warp(block.timestamp + _bound(seconds_, 1, 10 days));
    }

    /// @notice A token's issuer blacklists an actor or the treasury, or takes it off the blacklist.
    function toggleBlacklist(uint256 who, bool isSstb) external {
        address account = _account(who);
        MockBlacklistStablecoin token = _token(isSstb);
        if (token.isBlacklisted(account)) {
            token.unBlacklist(account);
        } else {
            token.blacklist(account);
            ++blacklistings;
        }
    }

    /// @notice An account withdraws all the market holds for it in a token, to itself or another
    /// account: it must succeed, moving exactly that, unless the token refuses the recipient.
    function withdraw(uint256 who, bool isSstb, uint256 to) external {
        IMarket market = _market();
        address account = _account(who);
        address recipient = _account(to);
        MockBlacklistStablecoin token = _token(isSstb);
        uint256 amount = market.claimable(account, IERC20(address(token)));
        if (amount == 0) return;
        uint256 before = token.balanceOf(recipient);
        vm.prank(account);
        try market.withdrawClaimable(IERC20(address(token)), recipient) returns (uint256 withdrawn) {
            ++withdrawals;
            if (
                withdrawn != amount ||
                token.balanceOf(recipient) - before != amount ||
                market.claimable(account, IERC20(address(token))) != 0
            ) ++withdrawalViolations;
        } catch {
            _expect(false, _clear(token, recipient));
        }
    }

    /// @notice What the market holds for the four accounts it ever pays, in `token`.
    function claimableTotal(IERC20 token) public view returns (uint256 total) {
        IMarket market = _market();
        for (uint256 i = 0; i < 4; ++i) total += market.claimable(_account(i), token);
    }
}
