// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "forge-std/Test.sol";
import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

import {IMarket} from "../../../../contracts/interfaces/IMarket.sol";
import {Roles} from "../../../../contracts/libraries/Roles.sol";
import {FuturesMarket} from "../../../../contracts/markets/FuturesMarket.sol";
import {OptionsMarket} from "../../../../contracts/markets/OptionsMarket.sol";
import {SpotMarket} from "../../../../contracts/markets/SpotMarket.sol";
import {MockStablecoin} from "../../../../contracts/mocks/MockStablecoin.sol";
import {SSTB} from "../../../../contracts/tokens/SSTB.sol";

/// @title MarketSetup
/// @notice Deploys sSTB, a 6-decimal stablecoin and the three markets behind UUPS proxies as the
/// `PrimaryCore` module does, funds three actors and approves every market for them; shared
/// bookkeeping for the market handlers (end states never change, fees never above their bps).
abstract contract MarketSetup is Test {
    MockStablecoin internal usdc;
    SSTB internal sstb;
    SpotMarket internal spot;
    FuturesMarket internal futures;
    OptionsMarket internal options;

    address internal admin = makeAddr("admin");
    address internal treasury = makeAddr("treasury");
    address[3] internal actors;

    /// @notice Trades whose fee exceeded ceil(payment x bps / 10_000), or was zero while the rate
    /// and the payment were not (must stay 0).
    uint256 public feeViolations;
    /// @notice Positions that changed after reaching an end state (must stay 0).
    uint256 public endStateChanges;
    /// @notice Positions that reached an end state.
    uint256 public ended;
    /// @notice Trades executed.
    uint256 public trades;
    mapping(uint256 listingId => bytes32) internal _endHash;

    function _deployMarkets() internal {
        usdc = new MockStablecoin();
        sstb = SSTB(address(new ERC1967Proxy(address(new SSTB()), abi.encodeCall(SSTB.initialize, (admin)))));
        IERC20 s = IERC20(address(sstb));
        IERC20 u = IERC20(address(usdc));
        spot = SpotMarket(
            address(
                new ERC1967Proxy(
                    address(new SpotMarket(s, u)),
                    abi.encodeCall(SpotMarket.initialize, (admin, treasury))
                )
            )
        );
        futures = FuturesMarket(
            address(
                new ERC1967Proxy(
                    address(new FuturesMarket(s, u)),
                    abi.encodeCall(FuturesMarket.initialize, (admin, treasury))
                )
            )
        );
        options = OptionsMarket(
            address(
                new ERC1967Proxy(
                    address(new OptionsMarket(s, u)),
                    abi.encodeCall(OptionsMarket.initialize, (admin, treasury))
                )
            )
        );
        vm.prank(admin);
        sstb.grantRole(Roles.MINTER_ROLE, address(this));
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

    /// @dev Checks the fee of a trade of `payment` against the rate in force, from the treasury's
    /// balance change.
    function _checkFee(IMarket market, uint256 payment, uint256 treasuryBefore) internal {
        uint256 fee = usdc.balanceOf(treasury) - treasuryBefore;
        uint256 bps = market.feeBps();
        uint256 ceiling = (payment * bps + 9_999) / 10_000;
        if (fee > ceiling || fee > payment || (bps > 0 && payment > 0 && fee == 0)) ++feeViolations;
        ++trades;
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

    /// @notice Governance changes the fee (0 to the cap), as it may at any time.
    function setFee(uint256 bps) external {
        bps = _bound(bps, 0, 100);
        vm.startPrank(admin);
        spot.setMarketFee(bps);
        futures.setMarketFee(bps);
        options.setMarketFee(bps);
        vm.stopPrank();
    }

    /// @notice Time passes.
    function passTime(uint256 seconds_) external {
        vm.warp(block.timestamp + _bound(seconds_, 1, 10 days));
    }
}
