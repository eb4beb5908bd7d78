// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @title IMarket
/// @notice What the three markets of the primary chain (spot, futures, options) share: listing ids
/// unique across them, the listing record of SPEC.md "Marketplace listing", the events the gateway
/// rebuilds listings and activity from, the market fee and its governance.
/// @dev Ids: `listingId = 3 * sequence + marketType` with a per-market sequence from 0, so spot ids
/// are 1, 4, 7, ..., futures 2, 5, 8, ..., options 3, 6, 9, ...; `marketType = (listingId - 1) % 3 + 1`.
/// Prices are payment base units (the chain's USDC, 6 decimals) per whole sSTB; amounts are sSTB
/// base units. Every position is fully collateralized by what the market holds in escrow.
/// A payment to anyone but the caller never depends on the recipient: if the token refuses it (a
/// blacklisted account, as native USDC can have), the market holds it as the recipient's claimable
/// balance, withdrawn with {withdrawClaimable} to an address of the recipient's choice. A market's
/// token balances are always its open escrow plus its claimable balances.
interface IMarket {
    /// @notice The market of a listing (`market_type`: spot, futures, options).
    enum MarketType {
        None,
        Spot,
        Futures,
        Options
    }

    /// @notice What a position is. Sell side (listings): `SellListing`, `FutureSell`, `CoveredCall`,
    /// `CashSecuredPut` (the writer sells the option). Buy side (orders): `BuyOrder`, `FutureBuy`.
    enum PositionKind {
        None,
        SellListing,
        BuyOrder,
        FutureSell,
        FutureBuy,
        CoveredCall,
        CashSecuredPut
    }

    /// @notice Where a position is (`status`). `Active`: open for takers. `Matched` (future taken)
    /// and `Sold` (option bought) are live contracts. End states, from which nothing more can be
    /// taken: `Filled`, `Cancelled`, `Expired`, `Settled`, `Exercised`, `Reclaimed`.
    enum ListingStatus {
        None,
        Active,
        Filled,
        Cancelled,
        Expired,
        Matched,
        Settled,
        Sold,
        Exercised,
        Reclaimed
    }

    /// @notice What a trade was, for GraphQL `marketplaceActivity.activityType`.
    enum TradeType {
        None,
        SpotFill,
        FutureSettlement,
        OptionPremium,
        OptionExercise
    }

    /// @notice A position in the shape of SPEC.md "Marketplace listing".
    /// @param listingId Unique across the three markets.
    /// @param marketType `market_type`.
    /// @param kind What the position is.
    /// @param status `status`.
    /// @param tokenType `token_type`: always "sSTB".
    /// @param seller `seller`: the maker (the account that created the position, on either side).
    /// @param counterparty The futures taker or the option holder; zero otherwise.
    /// @param amount `amount`: sSTB base units at creation.
    /// @param remaining What is still open: fillable (spot), untaken (futures offer) or exercisable.
    /// @param pricePerToken `price_per_token`: payment units per whole sSTB (options: the premium).
    /// @param totalPrice `total_price`: `cost(amount, pricePerToken)`, rounded up.
    /// @param strikePrice Options: payment units per whole sSTB at exercise; 0 otherwise.
    /// @param listedAt `listed_at` / `created_at`, Unix seconds.
    /// @param expiration `expiration`, Unix seconds: the first second the position is no longer
    /// open (spot: end of the listing; futures: settlement time; options: expiry).
    struct MarketListing {
        uint256 listingId;
        MarketType marketType;
        PositionKind kind;
        ListingStatus status;
        string tokenType;
        address seller;
        address counterparty;
        uint256 amount;
        uint256 remaining;
        uint256 pricePerToken;
        uint256 totalPrice;
        uint256 strikePrice;
        uint256 listedAt;
        uint256 expiration;
    }

    /// @notice EIP-2612 permit data, used instead of a prior approval.
    /// @param value Allowance the permit grants to the market.
    /// @param deadline Permit deadline.
    struct Permit {
        uint256 value;
        uint256 deadline;
        uint8 v;
        bytes32 r;
        bytes32 s;
    }

    // --- events (webhook mapping: docs/decisions/0045-market-webhook-mapping.md) ---

    /// @notice A sell-side position was created: spot sell listing, futures offer to sell, option
    /// written (the writer offers it for its premium). Webhooks `listing.created` /
    /// `marketplace.listing_created`.
    event ListingCreated(
        uint256 indexed listingId,
        MarketType marketType,
        PositionKind kind,
        address indexed seller,
        uint256 amount,
        uint256 pricePerToken,
        uint256 strikePrice,
        uint256 expiration,
        uint256 listedAt
    );

    /// @notice A buy-side position was created: spot buy order, futures offer to buy. Webhook
    /// `marketplace.order_created`. `seller` is the maker, as in {MarketListing}.
    event OrderCreated(
        uint256 indexed listingId,
        MarketType marketType,
        PositionKind kind,
        address indexed seller,
        uint256 amount,
        uint256 pricePerToken,
        uint256 expiration,
        uint256 listedAt
    );

    /// @notice `buyer` took `amount` of a sell-side position, `remaining` stays open: a spot fill,
    /// a futures sell offer taken, an option bought. Webhook `listing.purchased`.
    event ListingPurchased(uint256 indexed listingId, address indexed buyer, uint256 amount, uint256 remaining);

    /// @notice `seller` took `amount` of a buy-side position, `remaining` stays open: a buy order
    /// filled, a futures buy offer taken. Webhook `marketplace.order_filled`.
    event OrderFilled(uint256 indexed listingId, address indexed seller, uint256 amount, uint256 remaining);

    /// @notice Value changed hands: `amount` sSTB (or, for a premium, options on it) at `price` per
    /// whole sSTB; `payment` moved from the buyer's side, of which `fee` went to the treasury.
    /// Webhook `marketplace.trade_executed`; GraphQL `marketplaceActivity`.
    event TradeExecuted(
        uint256 indexed listingId,
        TradeType tradeType,
        address indexed buyer,
        address indexed seller,
        uint256 amount,
        uint256 price,
        uint256 payment,
        uint256 fee
    );

    /// @notice The maker cancelled; `sstbReturned` and `paymentReturned` went back to it. Webhook
    /// `marketplace.listing_cancelled`.
    event ListingCancelled(
        uint256 indexed listingId,
        address indexed seller,
        uint256 sstbReturned,
        uint256 paymentReturned
    );

    /// @notice `caller` ended a position nobody finished before its expiration; what was left went
    /// back to the maker. Webhook `marketplace.listing_expired`.
    event ListingExpired(
        uint256 indexed listingId,
        address indexed caller,
        uint256 sstbReturned,
        uint256 paymentReturned
    );

    /// @notice `token` refused a transfer of `amount` to `account` (a blacklisted account, for
    /// instance): the market holds it for `account`, which withdraws it with {withdrawClaimable}.
    event ClaimableCredited(address indexed account, IERC20 indexed token, uint256 amount);

    /// @notice `account` withdrew the `amount` of `token` held for it, to `to`.
    event ClaimableWithdrawn(address indexed account, IERC20 indexed token, address indexed to, uint256 amount);

    /// @notice The fee of every trade changed (`parameter` = "marketFeeBps").
    event ParameterUpdated(bytes32 indexed parameter, uint256 previous, uint256 current);
    /// @notice The account that receives market fees changed.
    event TreasuryUpdated(address previous, address current);

    // --- errors ---

    /// @notice A governed parameter outside its bounds.
    error ParameterOutOfBounds(bytes32 parameter, uint256 value);
    /// @notice Zero sSTB.
    error MarketZeroAmount();
    /// @notice An amount above what a position can hold (2^96 - 1 base units).
    error MarketAmountTooLarge(uint256 amount);
    /// @notice A price of zero or above 2^64 - 1 payment units per sSTB.
    error MarketPriceOutOfRange(uint256 price);
    /// @notice An expiration not in the future, or beyond 2^40.
    error MarketInvalidExpiration(uint256 expiration);
    /// @notice No position has this id in this market.
    error MarketListingNotFound(uint256 listingId);
    /// @notice The operation is not allowed in the position's status.
    error MarketInvalidStatus(uint256 listingId, ListingStatus status);
    /// @notice The operation is not allowed on this kind of position.
    error MarketWrongKind(uint256 listingId, PositionKind kind);
    /// @notice Only the maker (seller, writer) may do this.
    error MarketNotMaker(uint256 listingId, address caller);
    /// @notice The position's expiration has come: it can no longer be taken or exercised.
    error MarketListingExpired(uint256 listingId, uint256 expiration);
    /// @notice The position's expiration (or settlement time) has not come yet.
    error MarketNotExpired(uint256 listingId, uint256 expiration);
    /// @notice The position's price crosses the price the caller expected (a buyer's maximum or a
    /// seller's minimum).
    error MarketPriceMismatch(uint256 listingId, uint256 price, uint256 expected);
    /// @notice More than what remains open.
    error MarketExceedsRemaining(uint256 listingId, uint256 amount, uint256 remaining);
    /// @notice A fill so small that it moves no payment (it would be a free trade).
    error MarketZeroPayment(uint256 listingId, uint256 amount);
    /// @notice The market holds none of `token` for `account`.
    error MarketNothingToWithdraw(address account, IERC20 token);

    // --- views ---

    /// @notice A position in the spec's listing shape; reverts for an id this market never issued.
    function listingOf(uint256 listingId) external view returns (MarketListing memory);

    /// @notice How many positions this market has issued.
    function listingCount() external view returns (uint256);

    /// @notice This market's type.
    function marketType() external view returns (MarketType);

    /// @notice The fee of every trade, in basis points of its payment.
    function feeBps() external view returns (uint256);

    /// @notice The account that receives market fees.
    function treasury() external view returns (address);

    /// @notice What the market holds for `account` in `token`: payments the token refused to
    /// transfer to it.
    function claimable(address account, IERC20 token) external view returns (uint256);

    /// @notice Withdraws all of `token` the market holds for the caller to `to` (the caller's own
    /// address or any other), emitting {ClaimableWithdrawn}. Reverts if there is none, if `to` is
    /// zero, or if the token refuses the transfer to `to` (the caller may name another address).
    /// Works while paused.
    /// @return amount What was withdrawn.
    function withdrawClaimable(IERC20 token, address to) external returns (uint256 amount);

    /// @notice Sets the fee of every trade, at most `MAX_FEE_BPS` (governance role only).
    function setMarketFee(uint256 feeBps_) external;

    /// @notice Sets the account that receives market fees (governance role only).
    function setTreasury(address treasury_) external;
}
