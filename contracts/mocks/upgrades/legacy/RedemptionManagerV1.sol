// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

import {IProviderRegistryV1} from "./IProviderRegistryV1.sol";
import {IRedemptionManagerV1} from "./IRedemptionManagerV1.sol";
import {ISSTB} from "../../../interfaces/ISSTB.sol";
import {Roles} from "../../../libraries/Roles.sol";
import {EmergencyPausableV1} from "./EmergencyPausableV1.sol";

// TEST DOUBLE for the upgrade tests (test/contracts/upgrades/Reinitialize.test.ts); never deployed on a chain.
// A frozen copy of `contracts/core/RedemptionManager.sol` at commit 2c890a0, the last implementation before
// `guardianPauseDuration`, `disputeResolutionPeriod`, `minRedemptionAmount` and `reputationUnit`
// existed. Changed only so that it compiles beside today's code: contracts and interfaces renamed
// with a `V1` suffix, import paths adjusted. Storage namespaces are the originals, on purpose.
/// @title RedemptionManagerV1
/// @notice Runs every redemption from request to its end. A holder burns sSTB to claim compute
/// from a provider; the provider's collateral for that value stays locked until the redemption
/// ends, released on success or paid to the holder on failure, so a holder is never left with
/// neither compute nor compensation.
/// @dev The record and its transitions follow SPEC.md exactly; deadlines, expiry, finalization
/// and disputes extend it (DESIGN.md section 5). Every path that ends a redemption moves its
/// status to a final value before touching the lock, so no lock is released or paid twice.
contract RedemptionManagerV1 is EmergencyPausableV1, ReentrancyGuardTransient, IRedemptionManagerV1 {
    using SafeERC20 for ISSTB;

    /// @notice Highest redemption fee governance may set: 1%.
    uint256 public constant MAX_FEE_BPS = 100;
    /// @notice Shortest fulfilment time governance may give a tier.
    uint256 public constant MIN_TIER_DEADLINE = 15 minutes;
    /// @notice Longest fulfilment time governance may give a tier.
    uint256 public constant MAX_TIER_DEADLINE = 7 days;
    /// @notice Shortest dispute window governance may set.
    uint256 public constant MIN_DISPUTE_WINDOW = 1 hours;
    /// @notice Longest dispute window governance may set.
    uint256 public constant MAX_DISPUTE_WINDOW = 30 days;

    bytes32 internal constant PARAM_FEE = "redemptionFeeBps";
    bytes32 internal constant PARAM_DISPUTE_WINDOW = "disputeWindow";
    bytes32 internal constant PARAM_STANDARD_DEADLINE = "standardDeadline";
    bytes32 internal constant PARAM_PREMIUM_DEADLINE = "premiumDeadline";
    bytes32 internal constant PARAM_ENTERPRISE_DEADLINE = "enterpriseDeadline";

    uint256 private constant BPS = 10_000;

    /// @custom:storage-location erc7201:computeprotocol.storage.RedemptionManager
    struct RedemptionManagerStorage {
        // one slot, read by every initiation
        address treasury;
        uint16 feeBps;
        uint24 standardDeadline;
        uint24 premiumDeadline;
        uint24 enterpriseDeadline;
        bool paused;
        // one slot, written by every initiation
        uint64 redemptionCount;
        uint32 disputeWindow;
        mapping(uint256 redemptionId => Redemption) redemptions;
        mapping(uint256 redemptionId => Dispute) disputes;
    }

    // keccak256(abi.encode(uint256(keccak256("computeprotocol.storage.RedemptionManager")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant STORAGE_LOCATION = 0x4d4df5d96ab278df845ea28e0141acb1493eef02109d56f6781ba8518e940900;

    /// @dev Fixed collaborators of a deployment, as in {MintingAgentV1}: immutables save cold reads
    /// on every redemption; pointing the manager elsewhere is an upgrade.
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    IProviderRegistryV1 private immutable _registry;
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    ISSTB private immutable _sstb;

    /// @notice Deploys an implementation bound to the registry and sSTB of a deployment.
    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor(IProviderRegistryV1 registry_, ISSTB sstb_) {
        if (address(registry_) == address(0) || address(sstb_) == address(0)) revert ZeroAddress();
        _registry = registry_;
        _sstb = sstb_;
    }

    /// @notice Initializes the proxy with the defaults of DESIGN.md section 5: fee 10 bps, tier
    /// deadlines 24 h / 6 h / 1 h, dispute window 72 h.
    /// @param admin Receives the admin, governance and upgrader roles (handed to the timelock).
    /// @param treasury_ Receives redemption fees.
    function initialize(address admin, address treasury_) external initializer {
        __ProtocolUpgradeable_init(admin);
        RedemptionManagerStorage storage $ = _storage();
        _setTreasury($, treasury_);
        _setFee($, 10);
        _setTierDeadline($, IProviderRegistryV1.Tier.Standard, 24 hours);
        _setTierDeadline($, IProviderRegistryV1.Tier.Premium, 6 hours);
        _setTierDeadline($, IProviderRegistryV1.Tier.Enterprise, 1 hours);
        _setDisputeWindow($, 72 hours);
    }

    // ---------------------------------------------------------------------------------------------
    // The spec's operations
    // ---------------------------------------------------------------------------------------------

    /// @inheritdoc IRedemptionManagerV1
    /// @dev Stopped while paused ({IEmergencyPauseV1}); nothing else here is.
    function initiateRedemption(uint256 amount, address provider) external nonReentrant returns (uint256 redemptionId) {
        RedemptionManagerStorage storage $ = _storage();
        if ($.paused) revert EnforcedPause();
        if (amount == 0) revert RedemptionZeroAmount();
        // Reverts unless the provider is active with `amount` available and the collateral to lock;
        // `amount` and `lock` then fit in 128 bits, as the registry keeps both in 128 bits.
        (uint256 lock, IProviderRegistryV1.Tier tier) = _registry.reserveCapacity(provider, amount);

        uint256 fee = _fee($.feeBps, amount);
        uint256 deadline = block.timestamp + _tierDeadline($, tier);
        unchecked {
            redemptionId = ++$.redemptionCount;
        }
        $.redemptions[redemptionId] = Redemption({
            user: msg.sender,
            timestamp: uint40(block.timestamp),
            deadline: uint40(deadline),
            status: RedemptionStatus.Pending,
            provider: provider,
            fulfilledAt: 0,
            amount: uint128(amount),
            lock: uint128(lock)
        });
        emit RedemptionInitiated(redemptionId, msg.sender, amount, provider);
        emit RedemptionTerms(redemptionId, fee, lock, deadline);

        if (fee > 0) _sstb.safeTransferFrom(msg.sender, $.treasury, fee);
        _sstb.burnFrom(msg.sender, amount);
    }

    /// @inheritdoc IRedemptionManagerV1
    /// @dev The two `require` strings are the spec's revert messages, verbatim (solhint's custom-error
    /// rule is disabled for exactly these lines).
    function fulfillRedemption(uint256 redemptionId, string calldata accessDetails) external {
        Redemption storage r = _existing(redemptionId);
        // solhint-disable-next-line gas-custom-errors
        require(msg.sender == r.provider, "Only provider can fulfill");
        // solhint-disable-next-line gas-custom-errors
        require(r.fulfilledAt == 0, "Already fulfilled");
        if (r.status != RedemptionStatus.Pending) revert RedemptionInvalidStatus(redemptionId, r.status);
        if (bytes(accessDetails).length == 0) revert RedemptionEmptyAccessDetails();

        r.status = RedemptionStatus.Fulfilled;
        r.fulfilledAt = uint40(block.timestamp);
        emit RedemptionFulfilled(redemptionId, msg.sender, accessDetails);
    }

    /// @inheritdoc IRedemptionManagerV1
    /// @dev The three `require` strings are the spec's revert messages, verbatim.
    function confirmRedemption(uint256 redemptionId) external nonReentrant {
        Redemption storage r = _existing(redemptionId);
        // solhint-disable-next-line gas-custom-errors
        require(msg.sender == r.user, "Only user can confirm");
        // solhint-disable-next-line gas-custom-errors
        require(r.fulfilledAt != 0, "Not fulfilled yet");
        RedemptionStatus status = r.status;
        // solhint-disable-next-line gas-custom-errors
        require(status != RedemptionStatus.Confirmed, "Already confirmed");
        if (status != RedemptionStatus.Fulfilled) revert RedemptionInvalidStatus(redemptionId, status);
        _complete(redemptionId, r);
    }

    // ---------------------------------------------------------------------------------------------
    // Expiry, finalization, disputes
    // ---------------------------------------------------------------------------------------------

    /// @inheritdoc IRedemptionManagerV1
    function finalizeRedemption(uint256 redemptionId) external nonReentrant {
        Redemption storage r = _existing(redemptionId);
        if (r.status != RedemptionStatus.Fulfilled) revert RedemptionInvalidStatus(redemptionId, r.status);
        uint256 disputeDeadline = r.fulfilledAt + uint256(_storage().disputeWindow);
        // the window includes its last second, as in {openDispute}
        // solhint-disable-next-line gas-strict-inequalities
        if (block.timestamp <= disputeDeadline) revert DisputeWindowOpen(redemptionId, disputeDeadline);
        _complete(redemptionId, r);
    }

    /// @inheritdoc IRedemptionManagerV1
    function expireRedemption(uint256 redemptionId) external nonReentrant {
        Redemption storage r = _existing(redemptionId);
        if (r.status != RedemptionStatus.Pending) revert RedemptionInvalidStatus(redemptionId, r.status);
        // the provider has all of its last second
        // solhint-disable-next-line gas-strict-inequalities
        if (block.timestamp <= r.deadline) revert RedemptionDeadlineNotPassed(redemptionId, r.deadline);

        r.status = RedemptionStatus.Expired;
        address user = r.user;
        uint256 lock = r.lock;
        emit RedemptionExpired(redemptionId, user, lock);
        _registry.payOutLock(r.provider, lock, user);
    }

    /// @inheritdoc IRedemptionManagerV1
    function openDispute(uint256 redemptionId, IssueType issueType, bytes32 evidenceHash) external {
        Redemption storage r = _existing(redemptionId);
        if (msg.sender != r.user) revert RedemptionUnauthorized(redemptionId, msg.sender);
        RedemptionStatus status = r.status;
        if (status != RedemptionStatus.Pending && status != RedemptionStatus.Fulfilled) {
            revert RedemptionInvalidStatus(redemptionId, status);
        }
        if (evidenceHash == bytes32(0)) revert DisputeEvidenceMissing();
        uint256 disputeDeadline = _disputeDeadline(r);
        if (block.timestamp > disputeDeadline) revert DisputeWindowClosed(redemptionId, disputeDeadline);

        r.status = RedemptionStatus.Disputed;
        Dispute storage d = _storage().disputes[redemptionId];
        d.issueType = issueType;
        d.openedAt = uint40(block.timestamp);
        d.evidenceHash = evidenceHash;
        emit DisputeOpened(redemptionId, msg.sender, issueType, evidenceHash);
    }

    /// @inheritdoc IRedemptionManagerV1
    function respondToDispute(uint256 redemptionId, bytes32 responseHash) external {
        Redemption storage r = _existing(redemptionId);
        if (msg.sender != r.provider) revert RedemptionUnauthorized(redemptionId, msg.sender);
        if (r.status != RedemptionStatus.Disputed) revert RedemptionInvalidStatus(redemptionId, r.status);
        if (responseHash == bytes32(0)) revert DisputeEvidenceMissing();
        Dispute storage d = _storage().disputes[redemptionId];
        if (d.respondedAt != 0) revert DisputeAlreadyAnswered(redemptionId);

        d.respondedAt = uint40(block.timestamp);
        d.responseHash = responseHash;
        emit DisputeResponded(redemptionId, msg.sender, responseHash);
    }

    /// @inheritdoc IRedemptionManagerV1
    function resolveDispute(
        uint256 redemptionId,
        bool userWins,
        bool suspendProvider
    ) external onlyRole(Roles.ARBITRATOR_ROLE) nonReentrant {
        Redemption storage r = _existing(redemptionId);
        if (r.status != RedemptionStatus.Disputed) revert RedemptionInvalidStatus(redemptionId, r.status);

        r.status = RedemptionStatus.Resolved;
        address provider = r.provider;
        uint256 lock = r.lock;
        // Suspension only follows a ruling against the provider, and only of an active provider
        // (an earlier ruling or governance may already have suspended it).
        bool suspend =
            userWins &&
                suspendProvider &&
                _registry.accountOf(provider).status == IProviderRegistryV1.ProviderStatus.Active;
        Dispute storage d = _storage().disputes[redemptionId];
        d.resolvedAt = uint40(block.timestamp);
        d.userWon = userWins;
        d.providerSuspended = suspend;
        emit DisputeResolved(redemptionId, msg.sender, userWins, suspend, userWins ? lock : 0);

        if (userWins) {
            _registry.payOutLock(provider, lock, r.user);
            if (suspend) _registry.suspendProvider(provider);
        } else {
            // A provider that never fulfilled on-chain but is found to have delivered is measured
            // to the ruling.
            uint256 end = r.fulfilledAt != 0 ? r.fulfilledAt : block.timestamp;
            _registry.releaseLock(provider, lock, end - r.timestamp);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Governance
    // ---------------------------------------------------------------------------------------------

    /// @notice Sets the redemption fee in basis points of the amount, at most {MAX_FEE_BPS}.
    function setRedemptionFee(uint256 feeBps_) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _setFee(_storage(), feeBps_);
    }

    /// @notice Sets the account that receives redemption fees.
    function setTreasury(address treasury_) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _setTreasury(_storage(), treasury_);
    }

    /// @notice Sets a tier's fulfilment time, within [15 minutes, 7 days]; applies to redemptions
    /// initiated afterwards (open ones keep the deadline they were given).
    function setTierDeadline(IProviderRegistryV1.Tier tier, uint256 seconds_) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _setTierDeadline(_storage(), tier, seconds_);
    }

    /// @notice Sets the dispute window, within [1 hour, 30 days]; applies to every redemption from
    /// now on, measured from its request or fulfilment.
    function setDisputeWindow(uint256 seconds_) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _setDisputeWindow(_storage(), seconds_);
    }

    // ---------------------------------------------------------------------------------------------
    // Views
    // ---------------------------------------------------------------------------------------------

    /// @inheritdoc IRedemptionManagerV1
    function redemptions(
        uint256 redemptionId
    )
        external
        view
        returns (address user, uint256 amount, uint256 timestamp, address provider, bool fulfilled, bool confirmed)
    {
        Redemption storage r = _storage().redemptions[redemptionId];
        return (r.user, r.amount, r.timestamp, r.provider, r.fulfilledAt != 0, r.status == RedemptionStatus.Confirmed);
    }

    /// @inheritdoc IRedemptionManagerV1
    function redemptionOf(uint256 redemptionId) external view returns (Redemption memory) {
        return _existing(redemptionId);
    }

    /// @inheritdoc IRedemptionManagerV1
    function redemptionStatus(uint256 redemptionId) external view returns (RedemptionStatus) {
        return _existing(redemptionId).status;
    }

    /// @inheritdoc IRedemptionManagerV1
    function deadlinesOf(
        uint256 redemptionId
    ) external view returns (uint256 fulfilmentDeadline, uint256 disputeDeadline) {
        Redemption storage r = _existing(redemptionId);
        return (r.deadline, _disputeDeadline(r));
    }

    /// @inheritdoc IRedemptionManagerV1
    function disputeOf(uint256 redemptionId) external view returns (Dispute memory) {
        _existing(redemptionId);
        return _storage().disputes[redemptionId];
    }

    /// @inheritdoc IRedemptionManagerV1
    function quoteFee(uint256 amount) external view returns (uint256 fee, uint256 total) {
        fee = _fee(_storage().feeBps, amount);
        total = amount + fee;
    }

    /// @inheritdoc IRedemptionManagerV1
    function redemptionCount() external view returns (uint256) {
        return _storage().redemptionCount;
    }

    /// @notice The redemption fee in basis points.
    function feeBps() external view returns (uint256) {
        return _storage().feeBps;
    }

    /// @notice The account that receives redemption fees.
    function treasury() external view returns (address) {
        return _storage().treasury;
    }

    /// @notice Fulfilment time of a tier, in seconds.
    function tierDeadline(IProviderRegistryV1.Tier tier) external view returns (uint256) {
        return _tierDeadline(_storage(), tier);
    }

    /// @notice The dispute window, in seconds.
    function disputeWindow() external view returns (uint256) {
        return _storage().disputeWindow;
    }

    /// @inheritdoc IRedemptionManagerV1
    function registry() external view returns (IProviderRegistryV1) {
        return _registry;
    }

    /// @notice The sSTB token redemptions burn.
    function sstb() external view returns (ISSTB) {
        return _sstb;
    }

    // ---------------------------------------------------------------------------------------------
    // Internals
    // ---------------------------------------------------------------------------------------------

    function _storage() private pure returns (RedemptionManagerStorage storage $) {
        assembly {
            $.slot := STORAGE_LOCATION
        }
    }

    function _isPaused() internal view override returns (bool) {
        return _storage().paused;
    }

    function _setPaused(bool value) internal override {
        _storage().paused = value;
    }

    function _existing(uint256 redemptionId) private view returns (Redemption storage r) {
        r = _storage().redemptions[redemptionId];
        if (r.status == RedemptionStatus.None) revert RedemptionNotFound(redemptionId);
    }

    /// @dev Confirmation and finalization: the lock goes back to the provider, whose reputation
    /// and statistics record a success.
    function _complete(uint256 redemptionId, Redemption storage r) private {
        r.status = RedemptionStatus.Confirmed;
        address user = r.user;
        emit RedemptionConfirmed(redemptionId, user);
        _registry.releaseLock(r.provider, r.lock, r.fulfilledAt - r.timestamp);
    }

    function _disputeDeadline(Redemption storage r) private view returns (uint256) {
        uint256 from = r.fulfilledAt != 0 ? r.fulfilledAt : r.timestamp;
        return from + uint256(_storage().disputeWindow);
    }

    /// @dev Rounded up, so no redemption above zero is free of fee while the fee is above zero.
    function _fee(uint256 feeBps_, uint256 amount) private pure returns (uint256) {
        return (amount * feeBps_ + BPS - 1) / BPS;
    }

    function _tierDeadline(
        RedemptionManagerStorage storage $,
        IProviderRegistryV1.Tier tier
    ) private view returns (uint256) {
        if (tier == IProviderRegistryV1.Tier.Enterprise) return $.enterpriseDeadline;
        if (tier == IProviderRegistryV1.Tier.Premium) return $.premiumDeadline;
        return $.standardDeadline;
    }

    function _setFee(RedemptionManagerStorage storage $, uint256 feeBps_) private {
        if (feeBps_ > MAX_FEE_BPS) revert ParameterOutOfBounds(PARAM_FEE, feeBps_);
        emit ParameterUpdated(PARAM_FEE, $.feeBps, feeBps_);
        $.feeBps = uint16(feeBps_);
    }

    function _setTreasury(RedemptionManagerStorage storage $, address treasury_) private {
        if (treasury_ == address(0)) revert ZeroAddress();
        emit TreasuryUpdated($.treasury, treasury_);
        $.treasury = treasury_;
    }

    function _setTierDeadline(
        RedemptionManagerStorage storage $,
        IProviderRegistryV1.Tier tier,
        uint256 seconds_
    ) private {
        bytes32 parameter =
            tier == IProviderRegistryV1.Tier.Enterprise
                ? PARAM_ENTERPRISE_DEADLINE
                : tier == IProviderRegistryV1.Tier.Premium
                    ? PARAM_PREMIUM_DEADLINE
                    : PARAM_STANDARD_DEADLINE;
        if (seconds_ < MIN_TIER_DEADLINE || seconds_ > MAX_TIER_DEADLINE) {
            revert ParameterOutOfBounds(parameter, seconds_);
        }
        emit ParameterUpdated(parameter, _tierDeadline($, tier), seconds_);
        if (tier == IProviderRegistryV1.Tier.Enterprise) $.enterpriseDeadline = uint24(seconds_);
        else if (tier == IProviderRegistryV1.Tier.Premium) $.premiumDeadline = uint24(seconds_);
        else $.standardDeadline = uint24(seconds_);
    }

    function _setDisputeWindow(RedemptionManagerStorage storage $, uint256 seconds_) private {
        if (seconds_ < MIN_DISPUTE_WINDOW || seconds_ > MAX_DISPUTE_WINDOW) {
            revert ParameterOutOfBounds(PARAM_DISPUTE_WINDOW, seconds_);
        }
        emit ParameterUpdated(PARAM_DISPUTE_WINDOW, $.disputeWindow, seconds_);
        $.disputeWindow = uint32(seconds_);
    }
}
