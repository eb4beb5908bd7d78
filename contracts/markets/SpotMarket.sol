// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

import {IMarket} from "../interfaces/IMarket.sol";
import {MarketMath} from "../libraries/MarketMath.sol";
import {MarketBase} from "./MarketBase.sol";

/// @title SpotMarket
/// @notice sSTB for payment, now. Sell listings: the seller escrows sSTB at a price per token until
/// an expiration; buyers take all or part. Buy orders: the buyer escrows the payment for an amount
/// at a price; sellers fill all or part. The maker cancels what is left at any time; after the
/// expiration anyone returns it to the maker. Every fill pays the market fee, taken from the
/// payment the sSTB seller receives.
/// @dev A position is two slots. A fill pays `cost(filled + amount) - cost(filled)` (MarketMath),
/// so a buy order's escrow of `cost(amount)` pays every fill exactly and is empty once filled, and
/// cancel or expiry returns `cost(amount) - cost(filled)`: no dust is stuck or lost.
contract SpotMarket is MarketBase {
    using SafeERC20 for IERC20;

    /// @notice A spot position as stored, in two slots.
    /// @param maker The seller of a listing, the buyer of a buy order.
    /// @param expiration First second the position can no longer be filled.
    /// @param listedAt Block time of creation.
    /// @param status Active, then Filled, Cancelled or Expired.
    /// @param kind SellListing or BuyOrder.
    /// @param amount sSTB base units at creation.
    /// @param filled sSTB base units filled so far.
    /// @param price Payment units per whole sSTB.
    struct Position {
        address maker;
        uint40 expiration;
        uint40 listedAt;
        ListingStatus status;
        PositionKind kind;
        uint96 amount;
        uint96 filled;
        uint64 price;
    }

    /// @custom:storage-location erc7201:computeprotocol.storage.SpotMarket
    struct SpotMarketStorage {
        mapping(uint256 listingId => Position) positions;
    }

    // keccak256(abi.encode(uint256(keccak256("computeprotocol.storage.SpotMarket")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant STORAGE_LOCATION = 0x3b6c0148670c79599a3b71198a4b9bfd490b7e7799e5e169f25de71d1e6eff00;

    /// @notice Deploys an implementation bound to the sSTB and payment token of a deployment.
    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor(IERC20 sstb_, IERC20 paymentToken_) MarketBase(sstb_, paymentToken_) {}

    /// @notice Initializes the proxy: fee 30 bps.
    /// @param admin Receives the admin, governance and upgrader roles (handed to the timelock).
    /// @param treasury_ Receives market fees.
    function initialize(address admin, address treasury_) external initializer {
        __MarketBase_init(admin, treasury_);
    }

    // ---------------------------------------------------------------------------------------------
    // Sell listings
    // ---------------------------------------------------------------------------------------------

    /// @notice Lists `amount` sSTB for sale at `price` per whole sSTB until `expiration`, escrowing
    /// the sSTB (approved beforehand). Stopped while paused.
    /// @return listingId The new listing's id.
    function createListing(
        uint256 amount,
        uint256 price,
        uint256 expiration
    ) external nonReentrant returns (uint256 listingId) {
        return _createListing(amount, price, expiration);
    }

    /// @notice {createListing} with an EIP-2612 permit of sSTB instead of a prior approval.
    function createListingWithPermit(
        uint256 amount,
        uint256 price,
        uint256 expiration,
        Permit calldata permit
    ) external nonReentrant returns (uint256 listingId) {
        _permit(_sstb, permit);
        return _createListing(amount, price, expiration);
    }

    /// @notice Buys `amount` sSTB from a sell listing, paying `cost(filled + amount) - cost(filled)`
    /// (approved beforehand); the seller receives it less the fee (credited to it instead if the
    /// token refuses the transfer). Reverts if the listing's price is above `maxPrice`. Stopped
    /// while paused.
    function buy(uint256 listingId, uint256 amount, uint256 maxPrice) external nonReentrant {
        _buy(listingId, amount, maxPrice);
    }

    /// @notice {buy} with an EIP-2612 permit of the payment token instead of a prior approval.
    function buyWithPermit(
        uint256 listingId,
        uint256 amount,
        uint256 maxPrice,
        Permit calldata permit
    ) external nonReentrant {
        _permit(_paymentToken, permit);
        _buy(listingId, amount, maxPrice);
    }

    // ---------------------------------------------------------------------------------------------
    // Buy orders
    // ---------------------------------------------------------------------------------------------

    /// @notice Orders `amount` sSTB at `price` per whole sSTB until `expiration`, escrowing
    /// `cost(amount, price)` of the payment token (approved beforehand). Stopped while paused.
    /// @return listingId The new order's id.
    function createBuyOrder(
        uint256 amount,
        uint256 price,
        uint256 expiration
    ) external nonReentrant returns (uint256 listingId) {
        return _createBuyOrder(amount, price, expiration);
    }

    /// @notice {createBuyOrder} with an EIP-2612 permit of the payment token.
    function createBuyOrderWithPermit(
        uint256 amount,
        uint256 price,
        uint256 expiration,
        Permit calldata permit
    ) external nonReentrant returns (uint256 listingId) {
        _permit(_paymentToken, permit);
        return _createBuyOrder(amount, price, expiration);
    }

    /// @notice Sells `amount` sSTB (approved beforehand) into a buy order and receives its payment
    /// from escrow less the fee. Reverts if the order's price is below `minPrice`. Stopped while
    /// paused.
    function sell(uint256 listingId, uint256 amount, uint256 minPrice) external nonReentrant {
        _sell(listingId, amount, minPrice);
    }

    /// @notice {sell} with an EIP-2612 permit of sSTB instead of a prior approval.
    function sellWithPermit(
        uint256 listingId,
        uint256 amount,
        uint256 minPrice,
        Permit calldata permit
    ) external nonReentrant {
        _permit(_sstb, permit);
        _sell(listingId, amount, minPrice);
    }

    // ---------------------------------------------------------------------------------------------
    // Ends
    // ---------------------------------------------------------------------------------------------

    /// @notice The maker cancels an active listing or order and gets back what is left in escrow.
    /// Works while paused.
    function cancel(uint256 listingId) external nonReentrant {
        Position storage p = _existing(listingId);
        if (msg.sender != p.maker) revert MarketNotMaker(listingId, msg.sender);
        if (p.status != ListingStatus.Active) revert MarketInvalidStatus(listingId, p.status);
        p.status = ListingStatus.Cancelled;
        (uint256 sstbBack, uint256 paymentBack) = _leftover(p);
        emit ListingCancelled(listingId, msg.sender, sstbBack, paymentBack);
        _return(sstbBack, paymentBack);
    }

    /// @notice Anyone ends an active listing or order whose expiration has come; what is left goes
    /// back to the maker (credited to it if the token refuses the transfer). Works while paused.
    function expire(uint256 listingId) external nonReentrant {
        Position storage p = _existing(listingId);
        if (p.status != ListingStatus.Active) revert MarketInvalidStatus(listingId, p.status);
        _checkExpired(listingId, p.expiration);
        p.status = ListingStatus.Expired;
        (uint256 sstbBack, uint256 paymentBack) = _leftover(p);
        emit ListingExpired(listingId, msg.sender, sstbBack, paymentBack);
        _refund(p.maker, sstbBack, paymentBack);
    }

    // ---------------------------------------------------------------------------------------------
    // Views
    // ---------------------------------------------------------------------------------------------

    /// @notice A spot position as stored.
    function positionOf(uint256 listingId) external view returns (Position memory) {
        return _existing(listingId);
    }

    /// @inheritdoc IMarket
    function listingOf(uint256 listingId) external view returns (MarketListing memory) {
        Position storage p = _existing(listingId);
        return
            _listing(
                listingId,
                p.kind,
                p.status,
                p.maker,
                address(0),
                p.amount,
                p.status == ListingStatus.Active ? p.amount - p.filled : 0,
                p.price,
                0,
                p.listedAt,
                p.expiration
            );
    }

    /// @notice What a fill of `amount` of a position pays now, and the fee taken from it.
    function quoteFill(uint256 listingId, uint256 amount) external view returns (uint256 payment, uint256 fee) {
        Position storage p = _existing(listingId);
        payment = MarketMath.fillPayment(p.filled, amount, p.price);
        fee = MarketMath.fee(payment, _marketStorage().feeBps);
    }

    // ---------------------------------------------------------------------------------------------
    // Internals
    // ---------------------------------------------------------------------------------------------

    function _marketType() internal pure override returns (MarketType) {
        return MarketType.Spot;
    }

    function _createListing(uint256 amount, uint256 price, uint256 expiration) private returns (uint256 listingId) {
        listingId = _store(PositionKind.SellListing, amount, price, expiration);
        emit ListingCreated(
            listingId,
            MarketType.Spot,
            PositionKind.SellListing,
            msg.sender,
            amount,
            price,
            0,
            expiration,
            block.timestamp
        );
        _sstb.safeTransferFrom(msg.sender, address(this), amount);
    }

    function _createBuyOrder(uint256 amount, uint256 price, uint256 expiration) private returns (uint256 listingId) {
        listingId = _store(PositionKind.BuyOrder, amount, price, expiration);
        emit OrderCreated(
            listingId,
            MarketType.Spot,
            PositionKind.BuyOrder,
            msg.sender,
            amount,
            price,
            expiration,
            block.timestamp
        );
        _paymentToken.safeTransferFrom(msg.sender, address(this), MarketMath.cost(amount, price));
    }

    function _store(
        PositionKind kind,
        uint256 amount,
        uint256 price,
        uint256 expiration
    ) private returns (uint256 listingId) {
        _checkTerms(amount, price, expiration);
        listingId = _newListingId(_marketStorage());
        _storage().positions[listingId] = Position({
            maker: msg.sender,
            expiration: uint40(expiration),
            listedAt: uint40(block.timestamp),
            status: ListingStatus.Active,
            kind: kind,
            amount: uint96(amount),
            filled: 0,
            price: uint64(price)
        });
    }

    function _buy(uint256 listingId, uint256 amount, uint256 maxPrice) private {
        Position storage p = _existing(listingId);
        (address seller, uint256 price, uint256 payment, uint256 fee, address treasury_) = _fill(
            p,
            listingId,
            PositionKind.SellListing,
            amount,
            maxPrice
        );
        emit ListingPurchased(listingId, msg.sender, amount, p.amount - p.filled);
        emit TradeExecuted(listingId, TradeType.SpotFill, msg.sender, seller, amount, price, payment, fee);

        _payWithFee(msg.sender, seller, payment, fee, treasury_);
        _sstb.safeTransfer(msg.sender, amount);
    }

    function _sell(uint256 listingId, uint256 amount, uint256 minPrice) private {
        Position storage p = _existing(listingId);
        (address buyer, uint256 price, uint256 payment, uint256 fee, address treasury_) = _fill(
            p,
            listingId,
            PositionKind.BuyOrder,
            amount,
            minPrice
        );
        emit OrderFilled(listingId, msg.sender, amount, p.amount - p.filled);
        emit TradeExecuted(listingId, TradeType.SpotFill, buyer, msg.sender, amount, price, payment, fee);

        _pay(_sstb, msg.sender, buyer, amount);
        _payCallerWithFee(payment, fee, treasury_);
    }

    /// @dev Checks and records a fill of an open position of `kind` whose price must not cross the
    /// taker's `limit` (a buyer's maximum, a seller's minimum); returns the maker, the price, the
    /// fill's payment and fee, and the treasury.
    function _fill(
        Position storage p,
        uint256 listingId,
        PositionKind kind,
        uint256 amount,
        uint256 limit
    ) private returns (address maker, uint256 price, uint256 payment, uint256 fee, address treasury_) {
        if (p.kind != kind) revert MarketWrongKind(listingId, p.kind);
        _checkOpen(listingId, p.status, p.expiration);
        uint256 filled = p.filled;
        uint256 total = p.amount;
        _checkFill(listingId, amount, total - filled);
        price = p.price;
        if (kind == PositionKind.SellListing ? price > limit : price < limit) {
            revert MarketPriceMismatch(listingId, price, limit);
        }
        MarketStorage storage $ = _marketStorage();
        (payment, fee) = _priced($, listingId, filled, amount, price);
        treasury_ = $.treasury;
        maker = p.maker;

        filled += amount;
        p.filled = uint96(filled);
        if (filled == total) p.status = ListingStatus.Filled;
    }

    /// @dev What an active position still holds in escrow: the unfilled sSTB of a listing, or the
    /// unspent payment of a buy order.
    function _leftover(Position storage p) private view returns (uint256 sstbBack, uint256 paymentBack) {
        if (p.kind == PositionKind.SellListing) return (p.amount - p.filled, 0);
        return (0, MarketMath.cost(p.amount, p.price) - MarketMath.cost(p.filled, p.price));
    }

    function _existing(uint256 listingId) private view returns (Position storage p) {
        p = _storage().positions[listingId];
        if (p.status == ListingStatus.None) revert MarketListingNotFound(listingId);
    }

    function _storage() private pure returns (SpotMarketStorage storage $) {
        assembly {
            $.slot := STORAGE_LOCATION
        }
    }
}
