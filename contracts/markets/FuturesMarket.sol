// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

import {IMarket} from "../interfaces/IMarket.sol";
import {MarketMath} from "../libraries/MarketMath.sol";
import {MarketBase} from "./MarketBase.sol";

/// @title FuturesMarket
/// @notice Physically settled forwards on sSTB. A maker offers to sell (escrowing the sSTB) or to
/// buy (escrowing the payment) an amount at a price for a settlement time; a taker takes the whole
/// offer before that time and escrows the other side. At or after the settlement time anyone
/// settles: the sSTB goes to the buyer, the payment less the market fee to the seller. An offer
/// nobody took is cancelled by its maker at any time, or returned to it by anyone once the
/// settlement time has come; a matched future can always be settled, whatever either party's
/// tokens accept (a refused delivery waits as a claimable balance, {MarketBase}). Nothing can be
/// stuck.
/// @dev A future is three slots, the third (the taker) written when it is taken. Both sides are
/// escrowed in full from the take to the settlement: the sSTB `amount` and `cost(amount, price)`.
contract FuturesMarket is MarketBase {
    using SafeERC20 for IERC20;

    /// @notice A future as stored.
    /// @param maker Who made the offer.
    /// @param settlementTime The offer can be taken before it; the future settles at or after it.
    /// @param listedAt Block time of the offer.
    /// @param status Active (offer), then Matched and Settled, or Cancelled or Expired.
    /// @param kind FutureSell (the maker sells) or FutureBuy (the maker buys).
    /// @param amount sSTB base units delivered at settlement.
    /// @param price Payment units per whole sSTB.
    /// @param taker Who took the other side, zero until taken.
    struct Future {
        address maker;
        uint40 settlementTime;
        uint40 listedAt;
        ListingStatus status;
        PositionKind kind;
        uint96 amount;
        uint64 price;
        address taker;
    }

    /// @custom:storage-location erc7201:computeprotocol.storage.FuturesMarket
    struct FuturesMarketStorage {
        mapping(uint256 listingId => Future) futures;
    }

    // keccak256(abi.encode(uint256(keccak256("computeprotocol.storage.FuturesMarket")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant STORAGE_LOCATION = 0x2c1ddbcace7b803588c88cbb4fe97fcb84f895eb69f69b88397c377a34747b00;

    /// @notice A future was taken: `buyer` and `seller` are bound to exchange `amount` sSTB for
    /// `payment` at the settlement time (both sides now in escrow).
    event FutureMatched(uint256 indexed listingId, address indexed buyer, address indexed seller, uint256 payment);

    /// @notice A future settled: `amount` sSTB went to `buyer`, `payment` less `fee` to `seller`.
    /// Webhook `marketplace.future_settled`.
    event FutureSettled(
        uint256 indexed listingId,
        address indexed buyer,
        address indexed seller,
        uint256 amount,
        uint256 payment,
        uint256 fee
    );

    /// @notice Deploys an implementation bound to the sSTB and payment token of a deployment.
    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor(IERC20 sstb_, IERC20 paymentToken_) MarketBase(sstb_, paymentToken_) {}

    /// @notice Initializes the proxy: fee 30 bps.
    /// @param admin Receives the admin, governance and upgrader roles (handed to the timelock).
    /// @param treasury_ Receives market fees.
    function initialize(address admin, address treasury_) external initializer {
        __MarketBase_init(admin, treasury_);
    }

    /// @notice Offers to sell `amount` sSTB at `price` per whole sSTB, delivered at
    /// `settlementTime`; escrows the sSTB (approved beforehand). Stopped while paused.
    /// @return listingId The offer's id.
    function offerToSell(
        uint256 amount,
        uint256 price,
        uint256 settlementTime
    ) external nonReentrant returns (uint256 listingId) {
        listingId = _store(PositionKind.FutureSell, amount, price, settlementTime);
        emit ListingCreated(
            listingId,
            MarketType.Futures,
            PositionKind.FutureSell,
            msg.sender,
            amount,
            price,
            0,
            settlementTime,
            block.timestamp
        );
        _sstb.safeTransferFrom(msg.sender, address(this), amount);
    }

    /// @notice Offers to buy `amount` sSTB at `price` per whole sSTB, delivered at
    /// `settlementTime`; escrows `cost(amount, price)` of the payment token. Stopped while paused.
    /// @return listingId The offer's id.
    function offerToBuy(
        uint256 amount,
        uint256 price,
        uint256 settlementTime
    ) external nonReentrant returns (uint256 listingId) {
        listingId = _store(PositionKind.FutureBuy, amount, price, settlementTime);
        emit OrderCreated(
            listingId,
            MarketType.Futures,
            PositionKind.FutureBuy,
            msg.sender,
            amount,
            price,
            settlementTime,
            block.timestamp
        );
        _paymentToken.safeTransferFrom(msg.sender, address(this), MarketMath.cost(amount, price));
    }

    /// @notice Takes the whole of an open offer before its settlement time, escrowing the other
    /// side: the payment `cost(amount, price)` for an offer to sell, the sSTB for an offer to buy.
    /// `limitPrice` is the most the taker pays (offer to sell) or the least it accepts (offer to
    /// buy). Stopped while paused.
    function take(uint256 listingId, uint256 limitPrice) external nonReentrant {
        Future storage f = _existing(listingId);
        _checkOpen(listingId, f.status, f.settlementTime);
        PositionKind kind = f.kind;
        uint256 price = f.price;
        if (kind == PositionKind.FutureSell ? price > limitPrice : price < limitPrice) {
            revert MarketPriceMismatch(listingId, price, limitPrice);
        }
        MarketStorage storage $ = _marketStorage();
        if (block.timestamp < $.pausedUntil) revert EnforcedPause();
        uint256 amount = f.amount;
        uint256 payment = MarketMath.cost(amount, price);
        address maker = f.maker;

        f.status = ListingStatus.Matched;
        f.taker = msg.sender;
        if (kind == PositionKind.FutureSell) {
            emit ListingPurchased(listingId, msg.sender, amount, 0);
            emit FutureMatched(listingId, msg.sender, maker, payment);
            _paymentToken.safeTransferFrom(msg.sender, address(this), payment);
        } else {
            emit OrderFilled(listingId, msg.sender, amount, 0);
            emit FutureMatched(listingId, maker, msg.sender, payment);
            _sstb.safeTransferFrom(msg.sender, address(this), amount);
        }
    }

    /// @notice Anyone settles a matched future at or after its settlement time: the sSTB to the
    /// buyer, the payment less the fee to the seller, the fee to the treasury. A transfer the token
    /// refuses (a blacklisted seller, say) is credited to its recipient to withdraw instead, so the
    /// settlement always completes. Works while paused.
    function settle(uint256 listingId) external nonReentrant {
        Future storage f = _existing(listingId);
        if (f.status != ListingStatus.Matched) revert MarketInvalidStatus(listingId, f.status);
        _checkExpired(listingId, f.settlementTime);
        (address buyer, address seller) = f.kind == PositionKind.FutureSell ? (f.taker, f.maker) : (f.maker, f.taker);
        uint256 amount = f.amount;
        uint256 price = f.price;
        uint256 payment = MarketMath.cost(amount, price);
        MarketStorage storage $ = _marketStorage();
        uint256 fee = MarketMath.fee(payment, $.feeBps);

        f.status = ListingStatus.Settled;
        emit FutureSettled(listingId, buyer, seller, amount, payment, fee);
        emit TradeExecuted(listingId, TradeType.FutureSettlement, buyer, seller, amount, price, payment, fee);
        _pay(_sstb, address(this), buyer, amount);
        _payWithFee(address(this), seller, payment, fee, $.treasury);
    }

    /// @notice The maker cancels an offer nobody took and gets its escrow back. Works while paused.
    function cancel(uint256 listingId) external nonReentrant {
        Future storage f = _existing(listingId);
        if (msg.sender != f.maker) revert MarketNotMaker(listingId, msg.sender);
        if (f.status != ListingStatus.Active) revert MarketInvalidStatus(listingId, f.status);
        f.status = ListingStatus.Cancelled;
        (uint256 sstbBack, uint256 paymentBack) = _escrowOf(f);
        emit ListingCancelled(listingId, msg.sender, sstbBack, paymentBack);
        _return(sstbBack, paymentBack);
    }

    /// @notice Anyone returns an offer nobody took by its settlement time to its maker (credited to
    /// it if the token refuses the transfer). Works while paused.
    function expire(uint256 listingId) external nonReentrant {
        Future storage f = _existing(listingId);
        if (f.status != ListingStatus.Active) revert MarketInvalidStatus(listingId, f.status);
        _checkExpired(listingId, f.settlementTime);
        f.status = ListingStatus.Expired;
        (uint256 sstbBack, uint256 paymentBack) = _escrowOf(f);
        emit ListingExpired(listingId, msg.sender, sstbBack, paymentBack);
        _refund(f.maker, sstbBack, paymentBack);
    }

    // ---------------------------------------------------------------------------------------------
    // Views
    // ---------------------------------------------------------------------------------------------

    /// @notice A future as stored.
    function futureOf(uint256 listingId) external view returns (Future memory) {
        return _existing(listingId);
    }

    /// @inheritdoc IMarket
    function listingOf(uint256 listingId) external view returns (MarketListing memory) {
        Future storage f = _existing(listingId);
        return
            _listing(
                listingId,
                f.kind,
                f.status,
                f.maker,
                f.taker,
                f.amount,
                f.status == ListingStatus.Active ? f.amount : 0,
                f.price,
                0,
                f.listedAt,
                f.settlementTime
            );
    }

    // ---------------------------------------------------------------------------------------------
    // Internals
    // ---------------------------------------------------------------------------------------------

    function _marketType() internal pure override returns (MarketType) {
        return MarketType.Futures;
    }

    function _store(
        PositionKind kind,
        uint256 amount,
        uint256 price,
        uint256 settlementTime
    ) private returns (uint256 listingId) {
        _checkTerms(amount, price, settlementTime);
        listingId = _newListingId(_marketStorage());
        Future storage f = _storage().futures[listingId];
        f.maker = msg.sender;
        f.settlementTime = uint40(settlementTime);
        f.listedAt = uint40(block.timestamp);
        f.status = ListingStatus.Active;
        f.kind = kind;
        f.amount = uint96(amount);
        f.price = uint64(price);
    }

    /// @dev The maker's escrow of an untaken offer.
    function _escrowOf(Future storage f) private view returns (uint256 sstbBack, uint256 paymentBack) {
        if (f.kind == PositionKind.FutureSell) return (f.amount, 0);
        return (0, MarketMath.cost(f.amount, f.price));
    }

    function _existing(uint256 listingId) private view returns (Future storage f) {
        f = _storage().futures[listingId];
        if (f.status == ListingStatus.None) revert MarketListingNotFound(listingId);
    }

    function _storage() private pure returns (FuturesMarketStorage storage $) {
        assembly {
            $.slot := STORAGE_LOCATION
        }
    }
}
