// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

import {IMarket} from "../interfaces/IMarket.sol";
import {MarketMath} from "../libraries/MarketMath.sol";
import {Roles} from "../libraries/Roles.sol";
import {EmergencyPausable} from "../utils/EmergencyPausable.sol";

/// @title MarketBase
/// @notice What the spot, futures and options markets share: the sSTB and payment tokens, listing
/// ids, the market fee and its treasury, the guardian pause, permits, and the listing view.
/// @dev The configuration lives in one slot that every new position and every trade reads anyway
/// (treasury, fee, pause lapse time, sequence), so the pause check and the id cost no extra cold
/// read. A pause stops new positions and new trades (creating, filling, taking, buying); cancel,
/// expiry, settlement, exercise, reclaim and option transfers keep working, so escrow always gets
/// out (docs/decisions/0044-market-pause.md).
///
/// Payments that can be refused (docs/decisions/0047-payments-that-can-be-refused.md): a
/// transfer to the caller is a plain transfer, whose refusal reverts the caller's own call; a
/// transfer to anyone else (the other party of a trade, the treasury, the maker of a position
/// someone else ends) is tried, and if the token refuses it (USDC blacklists accounts), the value
/// stays in (or moves into) the market as the recipient's claimable balance, withdrawn with
/// {withdrawClaimable}. So what a buyer or holder is owed never depends on the other party, and a
/// fee never blocks a trade.
abstract contract MarketBase is EmergencyPausable, ReentrancyGuardTransient, IMarket {
    using SafeERC20 for IERC20;

    /// @notice Highest market fee governance may set: 1%.
    uint256 public constant MAX_FEE_BPS = 100;
    /// @notice The market fee at initialization: 0.3%.
    uint256 public constant DEFAULT_FEE_BPS = 30;
    /// @notice `token_type` of every listing.
    string public constant TOKEN_TYPE = "sSTB";

    bytes32 internal constant PARAM_FEE = "marketFeeBps";

    /// @custom:storage-location erc7201:computeprotocol.storage.Market
    struct MarketStorage {
        // one slot, read by every new position and every trade
        address treasury;
        uint16 feeBps;
        uint40 pausedUntil;
        uint40 sequence;
        // appended (issue 17): what the market holds for an account because the token refused a
        // transfer to it; written only when a transfer is refused or withdrawn
        mapping(address account => mapping(IERC20 token => uint256)) claimable;
    }

    // keccak256(abi.encode(uint256(keccak256("computeprotocol.storage.Market")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant MARKET_STORAGE_LOCATION =
        0x06be8e109137a3fdb57f088fb79d4cbe30f9f99f623625e3bcc6b6e3cf8cc800;

    /// @dev Fixed collaborators of a deployment: immutables save a cold read on every trade;
    /// pointing a market elsewhere is an upgrade.
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    IERC20 internal immutable _sstb;
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    IERC20 internal immutable _paymentToken;

    /// @notice Deploys an implementation bound to the sSTB and payment token of a deployment.
    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor(IERC20 sstb_, IERC20 paymentToken_) {
        if (address(sstb_) == address(0) || address(paymentToken_) == address(0)) revert ZeroAddress();
        _sstb = sstb_;
        _paymentToken = paymentToken_;
    }

    // solhint-disable-next-line func-name-mixedcase
    function __MarketBase_init(address admin, address treasury_) internal onlyInitializing {
        __ProtocolUpgradeable_init(admin);
        __EmergencyPausable_init();
        MarketStorage storage $ = _marketStorage();
        _setTreasury($, treasury_);
        _setFee($, DEFAULT_FEE_BPS);
    }

    // ---------------------------------------------------------------------------------------------
    // Governance
    // ---------------------------------------------------------------------------------------------

    /// @inheritdoc IMarket
    function setMarketFee(uint256 feeBps_) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _setFee(_marketStorage(), feeBps_);
    }

    /// @inheritdoc IMarket
    function setTreasury(address treasury_) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _setTreasury(_marketStorage(), treasury_);
    }

    // ---------------------------------------------------------------------------------------------
    // Claimable balances
    // ---------------------------------------------------------------------------------------------

    /// @inheritdoc IMarket
    function withdrawClaimable(IERC20 token, address to) external nonReentrant returns (uint256 amount) {
        if (to == address(0)) revert ZeroAddress();
        mapping(IERC20 => uint256) storage held = _marketStorage().claimable[msg.sender];
        amount = held[token];
        if (amount == 0) revert MarketNothingToWithdraw(msg.sender, token);
        delete held[token];
        emit ClaimableWithdrawn(msg.sender, token, to, amount);
        token.safeTransfer(to, amount);
    }

    // ---------------------------------------------------------------------------------------------
    // Views
    // ---------------------------------------------------------------------------------------------

    /// @inheritdoc IMarket
    function claimable(address account, IERC20 token) external view returns (uint256) {
        return _marketStorage().claimable[account][token];
    }

    /// @inheritdoc IMarket
    function listingCount() external view returns (uint256) {
        return _marketStorage().sequence;
    }

    /// @inheritdoc IMarket
    function marketType() external pure returns (MarketType) {
        return _marketType();
    }

    /// @inheritdoc IMarket
    function feeBps() external view returns (uint256) {
        return _marketStorage().feeBps;
    }

    /// @inheritdoc IMarket
    function treasury() external view returns (address) {
        return _marketStorage().treasury;
    }

    /// @notice The sSTB token traded here.
    function sstb() external view returns (IERC20) {
        return _sstb;
    }

    /// @notice The token prices are paid in (the chain's collateral stablecoin, USDC).
    function paymentToken() external view returns (IERC20) {
        return _paymentToken;
    }

    /// @notice The payment of a trade of `amount` at `price` after `filled` of the same position,
    /// and the fee taken from it: what a caller approves or signs a permit for.
    function quoteTrade(
        uint256 filled,
        uint256 amount,
        uint256 price
    ) external view returns (uint256 payment, uint256 fee) {
        payment = MarketMath.fillPayment(filled, amount, price);
        fee = MarketMath.fee(payment, _marketStorage().feeBps);
    }

    // ---------------------------------------------------------------------------------------------
    // Internals for the markets
    // ---------------------------------------------------------------------------------------------

    /// @dev This market's type; also its id tag.
    function _marketType() internal pure virtual returns (MarketType);

    /// @dev Issues the next listing id, refusing while paused: `3 * sequence + marketType`.
    function _newListingId(MarketStorage storage $) internal returns (uint256 listingId) {
        if (block.timestamp < $.pausedUntil) revert EnforcedPause();
        uint256 sequence = $.sequence;
        $.sequence = uint40(sequence + 1);
        return 3 * sequence + uint256(_marketType());
    }

    /// @dev Checks the terms of a new position.
    function _checkTerms(uint256 amount, uint256 price, uint256 expiration) internal view {
        if (amount == 0) revert MarketZeroAmount();
        if (amount > type(uint96).max) revert MarketAmountTooLarge(amount);
        if (price == 0 || price > type(uint64).max) revert MarketPriceOutOfRange(price);
        // solhint-disable-next-line gas-strict-inequalities
        if (expiration <= block.timestamp || expiration > type(uint40).max) revert MarketInvalidExpiration(expiration);
    }

    /// @dev Checks a fill of `amount` against what remains open.
    function _checkFill(uint256 listingId, uint256 amount, uint256 remaining) internal pure {
        if (amount == 0) revert MarketZeroAmount();
        if (amount > remaining) revert MarketExceedsRemaining(listingId, amount, remaining);
    }

    /// @dev Reverts unless the position is open for takers: active and before its expiration.
    function _checkOpen(uint256 listingId, ListingStatus status, uint256 expiration) internal view {
        if (status != ListingStatus.Active) revert MarketInvalidStatus(listingId, status);
        // solhint-disable-next-line gas-strict-inequalities
        if (block.timestamp >= expiration) revert MarketListingExpired(listingId, expiration);
    }

    /// @dev Reverts unless the position's expiration has come.
    function _checkExpired(uint256 listingId, uint256 expiration) internal view {
        if (block.timestamp < expiration) revert MarketNotExpired(listingId, expiration);
    }

    /// @dev The payment of a fill and its fee; a fill that moves no payment is refused.
    function _priced(
        MarketStorage storage $,
        uint256 listingId,
        uint256 filled,
        uint256 amount,
        uint256 price
    ) internal view returns (uint256 payment, uint256 fee) {
        if (block.timestamp < $.pausedUntil) revert EnforcedPause();
        payment = MarketMath.fillPayment(filled, amount, price);
        if (payment == 0) revert MarketZeroPayment(listingId, amount);
        fee = MarketMath.fee(payment, $.feeBps);
    }

    /// @dev Pays `value` of `token` to `to`, an account other than the caller: out of escrow if
    /// `from` is this market, otherwise from the caller `from` (approved beforehand). If the token
    /// refuses the transfer (a blacklisted `to`), the value stays in escrow, or is taken from `from`
    /// into escrow, and is credited to `to` ({withdrawClaimable}): the caller's operation completes.
    /// A refusal the caller causes itself (no allowance or balance, a blacklisted caller) still
    /// reverts, with the token's error, on the transfer into escrow. Gas cannot force the credit: a
    /// transfer run out of gas leaves the caller 1/64 of it, far below the credit's storage write.
    function _pay(IERC20 token, address from, address to, uint256 value) internal {
        if (value == 0) return;
        if (from == address(this)) {
            if (token.trySafeTransfer(to, value)) return;
        } else {
            if (token.trySafeTransferFrom(from, to, value)) return;
            token.safeTransferFrom(from, address(this), value);
        }
        _marketStorage().claimable[to][token] += value;
        emit ClaimableCredited(to, token, value);
    }

    /// @dev Pays a trade's `payment` of the payment token from `from` (the caller, or this market
    /// out of escrow) to `to`, the other party, less `fee`, which goes to the treasury; a refusal of
    /// either is credited ({_pay}).
    function _payWithFee(address from, address to, uint256 payment, uint256 fee, address treasury_) internal {
        _pay(_paymentToken, from, to, payment - fee);
        _pay(_paymentToken, from, treasury_, fee);
    }

    /// @dev Pays the caller a trade's `payment` out of escrow less `fee`, which goes to the
    /// treasury (a refusal of the fee is credited; a refusal of the caller's own payment reverts).
    function _payCallerWithFee(uint256 payment, uint256 fee, address treasury_) internal {
        if (payment > fee) _paymentToken.safeTransfer(msg.sender, payment - fee);
        _pay(_paymentToken, address(this), treasury_, fee);
    }

    /// @dev Returns escrow to the caller (its own cancel): a refusal reverts the call.
    function _return(uint256 sstbBack, uint256 paymentBack) internal {
        if (sstbBack > 0) _sstb.safeTransfer(msg.sender, sstbBack);
        if (paymentBack > 0) _paymentToken.safeTransfer(msg.sender, paymentBack);
    }

    /// @dev Returns escrow to `maker` when someone else ends the position (expiry, reclaim): a
    /// refusal is credited ({_pay}).
    function _refund(address maker, uint256 sstbBack, uint256 paymentBack) internal {
        _pay(_sstb, address(this), maker, sstbBack);
        _pay(_paymentToken, address(this), maker, paymentBack);
    }

    /// @dev Uses an EIP-2612 permit of the caller for this market. A permit that fails (for
    /// example one already used by a front-runner) is ignored: the transfer that follows then
    /// succeeds only if the allowance is there anyway.
    function _permit(IERC20 token, Permit calldata p) internal {
        try IERC20Permit(address(token)).permit(msg.sender, address(this), p.value, p.deadline, p.v, p.r, p.s) {
            // solhint-disable-previous-line no-empty-blocks
        } catch {
            // solhint-disable-previous-line no-empty-blocks
        }
    }

    /// @dev A listing record with this market's type and the constant token type.
    function _listing(
        uint256 listingId,
        PositionKind kind,
        ListingStatus status,
        address seller,
        address counterparty,
        uint256 amount,
        uint256 remaining,
        uint256 price,
        uint256 strikePrice,
        uint256 listedAt,
        uint256 expiration
    ) internal pure returns (MarketListing memory) {
        return
            MarketListing({
                listingId: listingId,
                marketType: _marketType(),
                kind: kind,
                status: status,
                tokenType: TOKEN_TYPE,
                seller: seller,
                counterparty: counterparty,
                amount: amount,
                remaining: remaining,
                pricePerToken: price,
                totalPrice: MarketMath.cost(amount, price),
                strikePrice: strikePrice,
                listedAt: listedAt,
                expiration: expiration
            });
    }

    function _marketStorage() internal pure returns (MarketStorage storage $) {
        assembly {
            $.slot := MARKET_STORAGE_LOCATION
        }
    }

    function _pausedUntil() internal view override returns (uint40) {
        return _marketStorage().pausedUntil;
    }

    function _setPausedUntil(uint40 until) internal override {
        _marketStorage().pausedUntil = until;
    }

    function _setFee(MarketStorage storage $, uint256 feeBps_) private {
        if (feeBps_ > MAX_FEE_BPS) revert ParameterOutOfBounds(PARAM_FEE, feeBps_);
        emit ParameterUpdated(PARAM_FEE, $.feeBps, feeBps_);
        $.feeBps = uint16(feeBps_);
    }

    function _setTreasury(MarketStorage storage $, address treasury_) private {
        if (treasury_ == address(0)) revert ZeroAddress();
        emit TreasuryUpdated($.treasury, treasury_);
        $.treasury = treasury_;
    }
}
