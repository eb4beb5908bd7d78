// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

import {IMarket} from "../interfaces/IMarket.sol";
import {MarketMath} from "../libraries/MarketMath.sol";
import {MarketBase} from "./MarketBase.sol";

/// @title OptionsMarket
/// @notice Fully collateralized American options on sSTB. A writer writes a covered call (escrows
/// the sSTB) or a cash-secured put (escrows `cost(amount, strike)` of the payment token) and offers
/// it for a premium per token; a buyer pays the whole premium (less the fee, to the writer) and
/// holds the option. The holder exercises all or part before expiry: a call pays the strike for
/// sSTB out of escrow, a put delivers sSTB for the strike out of escrow. After expiry anyone
/// returns what is left to the writer; an option nobody bought is cancelled by its writer at any
/// time. The holder may transfer the option to another account.
/// @dev One option is one position with an owner field (`holder`) and {transferOption}, rather
/// than an ERC-1155 token per series: positions are written one by one with their own terms, a
/// fungible series would need a matching engine we do not have, and the owner field keeps a buy at
/// one slot. Exercise pays `cost(exercised + amount, strike) - cost(exercised, strike)`, so a put's
/// escrow pays every partial exercise exactly and the writer's reclaim takes exactly the rest.
contract OptionsMarket is MarketBase {
    using SafeERC20 for IERC20;

    /// @notice An option as stored, in three slots.
    /// @param writer Who wrote it and holds its escrow's remainder.
    /// @param expiry First second it can no longer be bought or exercised.
    /// @param listedAt Block time it was written.
    /// @param status Active (for sale), Sold (held), then Exercised, Reclaimed or Cancelled.
    /// @param kind CoveredCall or CashSecuredPut.
    /// @param amount sSTB base units the option covers.
    /// @param exercised sSTB base units exercised so far.
    /// @param premium Premium in payment units per whole sSTB.
    /// @param holder Who holds it, zero until bought.
    /// @param strike Strike in payment units per whole sSTB.
    struct Option {
        address writer;
        uint40 expiry;
        uint40 listedAt;
        ListingStatus status;
        PositionKind kind;
        uint96 amount;
        uint96 exercised;
        uint64 premium;
        address holder;
        uint64 strike;
    }

    /// @custom:storage-location erc7201:computeprotocol.storage.OptionsMarket
    struct OptionsMarketStorage {
        mapping(uint256 listingId => Option) options;
    }

    // keccak256(abi.encode(uint256(keccak256("computeprotocol.storage.OptionsMarket")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant STORAGE_LOCATION = 0x0c281b460aeab72d30b044de6a15c6d4f4135fc6f4ee50c8e4901f4d13d42800;

    /// @notice `holder` exercised `amount` of the option for `payment` at the strike, `fee` of it to
    /// the treasury; `remaining` is still exercisable. Webhook `marketplace.option_exercised`.
    event OptionExercised(
        uint256 indexed listingId,
        address indexed holder,
        uint256 amount,
        uint256 payment,
        uint256 fee,
        uint256 remaining
    );

    /// @notice `caller` returned what was left of an expired option to its writer. Webhook
    /// `marketplace.option_reclaimed`.
    event OptionReclaimed(
        uint256 indexed listingId,
        address indexed caller,
        uint256 sstbReturned,
        uint256 paymentReturned
    );

    /// @notice The option moved from `from` to `to`. Webhook `marketplace.option_transferred`.
    event OptionTransferred(uint256 indexed listingId, address indexed from, address indexed to);

    /// @notice Only the option's holder may do this.
    error OptionsMarketNotHolder(uint256 listingId, address caller);

    /// @notice Deploys an implementation bound to the sSTB and payment token of a deployment.
    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor(IERC20 sstb_, IERC20 paymentToken_) MarketBase(sstb_, paymentToken_) {}

    /// @notice Initializes the proxy: fee 30 bps.
    /// @param admin Receives the admin, governance and upgrader roles (handed to the timelock).
    /// @param treasury_ Receives market fees.
    function initialize(address admin, address treasury_) external initializer {
        __MarketBase_init(admin, treasury_);
    }

    /// @notice Writes a covered call on `amount` sSTB (escrowed, approved beforehand) at `strike`,
    /// offered for `premium` per whole sSTB, exercisable until `expiry`. Stopped while paused.
    /// @return listingId The option's id.
    function writeCall(
        uint256 amount,
        uint256 strike,
        uint256 premium,
        uint256 expiry
    ) external nonReentrant returns (uint256 listingId) {
        listingId = _write(PositionKind.CoveredCall, amount, strike, premium, expiry);
        _sstb.safeTransferFrom(msg.sender, address(this), amount);
    }

    /// @notice Writes a cash-secured put on `amount` sSTB at `strike` (escrows `cost(amount, strike)`
    /// of the payment token), offered for `premium` per whole sSTB, exercisable until `expiry`.
    /// Stopped while paused.
    /// @return listingId The option's id.
    function writePut(
        uint256 amount,
        uint256 strike,
        uint256 premium,
        uint256 expiry
    ) external nonReentrant returns (uint256 listingId) {
        listingId = _write(PositionKind.CashSecuredPut, amount, strike, premium, expiry);
        _paymentToken.safeTransferFrom(msg.sender, address(this), MarketMath.cost(amount, strike));
    }

    /// @notice Buys an option offered for sale before its expiry, paying its whole premium
    /// `cost(amount, premium)` (approved beforehand) to the writer less the fee; the caller becomes
    /// its holder. A premium the token refuses to transfer to the writer is credited to it instead.
    /// Reverts if the premium is above `maxPremium`. Stopped while paused.
    function buyOption(uint256 listingId, uint256 maxPremium) external nonReentrant {
        Option storage o = _existing(listingId);
        _checkOpen(listingId, o.status, o.expiry);
        uint256 premium = o.premium;
        if (premium > maxPremium) revert MarketPriceMismatch(listingId, premium, maxPremium);
        uint256 amount = o.amount;
        MarketStorage storage $ = _marketStorage();
        (uint256 payment, uint256 fee) = _priced($, listingId, 0, amount, premium);
        address writer = o.writer;

        o.status = ListingStatus.Sold;
        o.holder = msg.sender;
        emit ListingPurchased(listingId, msg.sender, amount, 0);
        emit TradeExecuted(listingId, TradeType.OptionPremium, msg.sender, writer, amount, premium, payment, fee);
        _payWithFee(msg.sender, writer, payment, fee, $.treasury);
    }

    /// @notice The holder exercises `amount` of the option before its expiry. A call: the holder
    /// pays the strike for `amount` (less the fee, to the writer) and receives the sSTB from escrow.
    /// A put: the holder delivers `amount` sSTB to the writer (approved beforehand) and receives the
    /// strike from escrow, less the fee. What the token refuses to transfer to the writer (or the
    /// fee to the treasury) is credited to it instead, so the holder's exercise always completes.
    /// Works while paused (the holder has paid for this right).
    function exercise(uint256 listingId, uint256 amount) external nonReentrant {
        Option storage o = _existing(listingId);
        if (msg.sender != o.holder) revert OptionsMarketNotHolder(listingId, msg.sender);
        if (o.status != ListingStatus.Sold) revert MarketInvalidStatus(listingId, o.status);
        // solhint-disable-next-line gas-strict-inequalities
        if (block.timestamp >= o.expiry) revert MarketListingExpired(listingId, o.expiry);
        uint256 exercised = o.exercised;
        uint256 total = o.amount;
        _checkFill(listingId, amount, total - exercised);
        uint256 strike = o.strike;
        uint256 payment = MarketMath.fillPayment(exercised, amount, strike);
        if (payment == 0) revert MarketZeroPayment(listingId, amount);
        MarketStorage storage $ = _marketStorage();
        uint256 fee = MarketMath.fee(payment, $.feeBps);
        address writer = o.writer;

        exercised += amount;
        o.exercised = uint96(exercised);
        if (exercised == total) o.status = ListingStatus.Exercised;
        emit OptionExercised(listingId, msg.sender, amount, payment, fee, total - exercised);
        if (o.kind == PositionKind.CoveredCall) {
            emit TradeExecuted(listingId, TradeType.OptionExercise, msg.sender, writer, amount, strike, payment, fee);
            _payWithFee(msg.sender, writer, payment, fee, $.treasury);
            _sstb.safeTransfer(msg.sender, amount);
        } else {
            emit TradeExecuted(listingId, TradeType.OptionExercise, writer, msg.sender, amount, strike, payment, fee);
            _pay(_sstb, msg.sender, writer, amount);
            _payCallerWithFee(payment, fee, $.treasury);
        }
    }

    /// @notice Anyone returns what is left of an option to its writer once it has expired (sold or
    /// not): the unexercised sSTB of a call, the unspent strike of a put (credited to the writer if
    /// the token refuses the transfer). Works while paused.
    function reclaim(uint256 listingId) external nonReentrant {
        Option storage o = _existing(listingId);
        ListingStatus status = o.status;
        if (status != ListingStatus.Active && status != ListingStatus.Sold) {
            revert MarketInvalidStatus(listingId, status);
        }
        _checkExpired(listingId, o.expiry);
        o.status = ListingStatus.Reclaimed;
        (uint256 sstbBack, uint256 paymentBack) = _leftover(o);
        emit OptionReclaimed(listingId, msg.sender, sstbBack, paymentBack);
        _refund(o.writer, sstbBack, paymentBack);
    }

    /// @notice The writer cancels an option nobody bought and gets its escrow back. Works while
    /// paused.
    function cancel(uint256 listingId) external nonReentrant {
        Option storage o = _existing(listingId);
        if (msg.sender != o.writer) revert MarketNotMaker(listingId, msg.sender);
        if (o.status != ListingStatus.Active) revert MarketInvalidStatus(listingId, o.status);
        o.status = ListingStatus.Cancelled;
        (uint256 sstbBack, uint256 paymentBack) = _leftover(o);
        emit ListingCancelled(listingId, msg.sender, sstbBack, paymentBack);
        _return(sstbBack, paymentBack);
    }

    /// @notice The holder transfers a held option to `to`, which may then exercise it. Works while
    /// paused.
    function transferOption(uint256 listingId, address to) external {
        Option storage o = _existing(listingId);
        if (msg.sender != o.holder) revert OptionsMarketNotHolder(listingId, msg.sender);
        if (o.status != ListingStatus.Sold) revert MarketInvalidStatus(listingId, o.status);
        if (to == address(0)) revert ZeroAddress();
        o.holder = to;
        emit OptionTransferred(listingId, msg.sender, to);
    }

    // ---------------------------------------------------------------------------------------------
    // Views
    // ---------------------------------------------------------------------------------------------

    /// @notice An option as stored.
    function optionOf(uint256 listingId) external view returns (Option memory) {
        return _existing(listingId);
    }

    /// @inheritdoc IMarket
    function listingOf(uint256 listingId) external view returns (MarketListing memory) {
        Option storage o = _existing(listingId);
        ListingStatus status = o.status;
        return
            _listing(
                listingId,
                o.kind,
                status,
                o.writer,
                o.holder,
                o.amount,
                status == ListingStatus.Active || status == ListingStatus.Sold ? o.amount - o.exercised : 0,
                o.premium,
                o.strike,
                o.listedAt,
                o.expiry
            );
    }

    // ---------------------------------------------------------------------------------------------
    // Internals
    // ---------------------------------------------------------------------------------------------

    function _marketType() internal pure override returns (MarketType) {
        return MarketType.Options;
    }

    function _write(
        PositionKind kind,
        uint256 amount,
        uint256 strike,
        uint256 premium,
        uint256 expiry
    ) private returns (uint256 listingId) {
        _checkTerms(amount, premium, expiry);
        if (strike == 0 || strike > type(uint64).max) revert MarketPriceOutOfRange(strike);
        listingId = _newListingId(_marketStorage());
        _storage().options[listingId] = Option({
            writer: msg.sender,
            expiry: uint40(expiry),
            listedAt: uint40(block.timestamp),
            status: ListingStatus.Active,
            kind: kind,
            amount: uint96(amount),
            exercised: 0,
            premium: uint64(premium),
            holder: address(0),
            strike: uint64(strike)
        });
        emit ListingCreated(
            listingId,
            MarketType.Options,
            kind,
            msg.sender,
            amount,
            premium,
            strike,
            expiry,
            block.timestamp
        );
    }

    /// @dev What an option still holds in escrow for its writer.
    function _leftover(Option storage o) private view returns (uint256 sstbBack, uint256 paymentBack) {
        if (o.kind == PositionKind.CoveredCall) return (o.amount - o.exercised, 0);
        return (0, MarketMath.cost(o.amount, o.strike) - MarketMath.cost(o.exercised, o.strike));
    }

    function _existing(uint256 listingId) private view returns (Option storage o) {
        o = _storage().options[listingId];
        if (o.status == ListingStatus.None) revert MarketListingNotFound(listingId);
    }

    function _storage() private pure returns (OptionsMarketStorage storage $) {
        assembly {
            $.slot := STORAGE_LOCATION
        }
    }
}
