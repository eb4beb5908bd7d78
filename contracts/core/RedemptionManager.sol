// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

import {IProviderRegistry} from "../interfaces/IProviderRegistry.sol";
import {IRedemptionManager} from "../interfaces/IRedemptionManager.sol";
import {ISSTB} from "../interfaces/ISSTB.sol";
import {Roles} from "../libraries/Roles.sol";
import {EmergencyPausable} from "../utils/EmergencyPausable.sol";

/// @title RedemptionManager
/// @notice Runs every redemption from request to its end. A holder burns sSTB to claim compute
/// from a provider; the provider's collateral for that value stays locked until the redemption
/// ends, released on success or paid to the holder on failure, so a holder is never left with
/// neither compute nor compensation.
/// @dev The record and its transitions follow SPEC.md exactly; deadlines, expiry, finalization
/// and disputes extend it (DESIGN.md section 5). Every path that ends a redemption moves its
/// status to a final value before touching the lock, so no lock is released or paid twice.
contract RedemptionManager is EmergencyPausable, ReentrancyGuardTransient, IRedemptionManager {
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
    /// @notice Shortest time governance may give the arbitrator to rule on a dispute.
    uint256 public constant MIN_DISPUTE_RESOLUTION_PERIOD = 1 days;
    /// @notice Longest time governance may give the arbitrator to rule on a dispute.
    uint256 public constant MAX_DISPUTE_RESOLUTION_PERIOD = 90 days;
    /// @notice Lowest minimum redemption governance may set: 0.001 sSTB.
    uint256 public constant MIN_MIN_REDEMPTION = 1e15;
    /// @notice Highest minimum redemption governance may set: 1,000,000 sSTB.
    uint256 public constant MAX_MIN_REDEMPTION = 1e24;
    /// @notice Smallest reputation unit governance may set: 0.001 sSTB.
    uint256 public constant MIN_REPUTATION_UNIT = 1e15;
    /// @notice Largest reputation unit governance may set: 1,000,000 sSTB.
    uint256 public constant MAX_REPUTATION_UNIT = 1e24;

    bytes32 internal constant PARAM_FEE = "redemptionFeeBps";
    bytes32 internal constant PARAM_DISPUTE_WINDOW = "disputeWindow";
    bytes32 internal constant PARAM_STANDARD_DEADLINE = "standardDeadline";
    bytes32 internal constant PARAM_PREMIUM_DEADLINE = "premiumDeadline";
    bytes32 internal constant PARAM_ENTERPRISE_DEADLINE = "enterpriseDeadline";
    bytes32 internal constant PARAM_DISPUTE_RESOLUTION = "disputeResolutionPeriod";
    bytes32 internal constant PARAM_MIN_REDEMPTION = "minRedemptionAmount";
    bytes32 internal constant PARAM_REPUTATION_UNIT = "reputationUnit";

    uint256 private constant BPS = 10_000;

    /// @custom:storage-location erc7201:computeprotocol.storage.RedemptionManager
    struct RedemptionManagerStorage {
        // one slot, read by every initiation
        address treasury;
        uint16 feeBps;
        uint24 standardDeadline;
        uint24 premiumDeadline;
        uint24 enterpriseDeadline;
        // (the slot's last byte held the first implementation's pause flag: see {initializeV2})
        // one slot, read and written by every initiation
        uint64 redemptionCount;
        uint32 disputeWindow;
        uint40 pausedUntil;
        uint32 disputeResolutionPeriod;
        mapping(uint256 redemptionId => Redemption) redemptions;
        mapping(uint256 redemptionId => Dispute) disputes;
        // one slot, read by every initiation
        uint128 minRedemptionAmount;
        uint128 reputationUnit;
    }

    // keccak256(abi.encode(uint256(keccak256("computeprotocol.storage.RedemptionManager")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant STORAGE_LOCATION = 0x4d4df5d96ab278df845ea28e0141acb1493eef02109d56f6781ba8518e940900;

    /// @dev Fixed collaborators of a deployment, as in {MintingAgent}: immutables save cold reads
    /// on every redemption; pointing the manager elsewhere is an upgrade.
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    IProviderRegistry private immutable _registry;
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    ISSTB private immutable _sstb;

    /// @notice Deploys an implementation bound to the registry and sSTB of a deployment.
    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor(IProviderRegistry registry_, ISSTB sstb_) {
        if (address(registry_) == address(0) || address(sstb_) == address(0)) revert ZeroAddress();
        _registry = registry_;
        _sstb = sstb_;
    }

    /// @notice Initializes the proxy with the defaults of DESIGN.md section 5: fee 10 bps, tier
    /// deadlines 24 h / 6 h / 1 h, dispute window 72 h; and of docs/decisions.md: 14 days for the
    /// arbitrator to rule, a minimum redemption of 1 sSTB, a reputation unit of 10 sSTB.
    /// @param admin Receives the admin, governance and upgrader roles (handed to the timelock).
    /// @param treasury_ Receives redemption fees.
    function initialize(address admin, address treasury_) external initializer {
        __ProtocolUpgradeable_init(admin);
        __EmergencyPausable_init();
        RedemptionManagerStorage storage $ = _storage();
        _setTreasury($, treasury_);
        _setFee($, 10);
        _setTierDeadline($, IProviderRegistry.Tier.Standard, 24 hours);
        _setTierDeadline($, IProviderRegistry.Tier.Premium, 6 hours);
        _setTierDeadline($, IProviderRegistry.Tier.Enterprise, 1 hours);
        _setDisputeWindow($, 72 hours);
        _setDisputeResolutionPeriod($, 14 days);
        _setReputationUnit($, 10e18);
        _setMinRedemptionAmount($, 1e18);
    }

    // ---------------------------------------------------------------------------------------------
    // Upgrade from the first implementation (version 1 to 2)
    // ---------------------------------------------------------------------------------------------

    /// @notice {initializeV2}'s arbitrator resolution period, as {initialize} sets it.
    uint256 public constant V2_DISPUTE_RESOLUTION_PERIOD = 14 days;
    /// @notice {initializeV2}'s minimum redemption, as {initialize} sets it: 1 sSTB.
    uint256 public constant V2_MIN_REDEMPTION_AMOUNT = 1e18;
    /// @notice {initializeV2}'s reputation unit, as {initialize} sets it: 10 sSTB.
    uint256 public constant V2_REPUTATION_UNIT = 10e18;
    /// @dev The first implementation's `bool paused` was the last byte of the storage's first slot,
    /// after the treasury, the fee and the three tier deadlines; nothing has used that byte since.
    uint256 private constant V1_PAUSED_SHIFT = 248;

    /// @notice Brings a proxy that the first implementation initialized to version 2: sets the
    /// parameters added since (arbitrator resolution period 14 days, minimum redemption 1 sSTB,
    /// reputation unit 10 sSTB, guardian pause 14 days) to {initialize}'s defaults, which
    /// governance may change afterwards, and keeps a pause of the first implementation as a
    /// governance pause. Emits {ParameterUpdated} and {GuardianPauseDurationUpdated} as the setters do.
    /// @dev `reinitializer(2)`, upgrader role only: the upgrade proposal runs it through
    /// `upgradeToAndCall`, so no proxy runs the new code with a parameter at zero (a zero
    /// reputation unit would make every initiation divide by zero). Redemptions opened before the
    /// upgrade keep a zero `weight` and `lockRatioBps`: they settle their lock as they would have
    /// (a lapse pays the whole lock) and move no reputation. How later versions add parameters:
    /// docs/decisions.md, "Governance and upgrades".
    function initializeV2() external reinitializer(2) onlyRole(Roles.UPGRADER_ROLE) {
        RedemptionManagerStorage storage $ = _storage();
        __EmergencyPausable_initV2(_takeV1PauseFlag($));
        _setDisputeResolutionPeriod($, V2_DISPUTE_RESOLUTION_PERIOD);
        _setReputationUnit($, V2_REPUTATION_UNIT);
        _setMinRedemptionAmount($, V2_MIN_REDEMPTION_AMOUNT);
    }

    /// @dev Reads the first implementation's pause flag and clears its byte, so that a later field
    /// packed there starts at zero.
    function _takeV1PauseFlag(RedemptionManagerStorage storage $) private returns (bool wasPaused) {
        uint256 word;
        assembly {
            word := sload($.slot)
        }
        wasPaused = word >> V1_PAUSED_SHIFT != 0;
        if (wasPaused) {
            assembly {
                sstore($.slot, and(word, not(shl(V1_PAUSED_SHIFT, 0xff))))
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // The spec's operations
    // ---------------------------------------------------------------------------------------------

    /// @inheritdoc IRedemptionManager
    /// @dev Stopped while paused ({IEmergencyPause}); nothing else here is. The minimum amount and
    /// the refusal of a provider's own redemption keep dust and self-dealing from moving
    /// reputation; a second account of the provider gains nothing either, since reputation moves
    /// with the value at stake and an expiry during the staking period costs the early-exit penalty.
    function initiateRedemption(uint256 amount, address provider) external nonReentrant returns (uint256 redemptionId) {
        RedemptionManagerStorage storage $ = _storage();
        if (block.timestamp < $.pausedUntil) revert EnforcedPause();
        uint256 minimum = $.minRedemptionAmount;
        if (amount < minimum) revert RedemptionBelowMinimum(amount, minimum);
        if (provider == msg.sender) revert RedemptionByProvider(provider);
        // Reverts unless the provider is registered with `amount` available and the collateral to
        // lock; `amount` and `lock` then fit in 128 bits, as the registry keeps both in 128 bits.
        (uint256 lock, IProviderRegistry.Tier tier, uint256 ratioBps) = _registry.reserveCapacity(provider, amount);
        uint256 weight = amount / $.reputationUnit;
        if (weight > type(uint16).max) weight = type(uint16).max;

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
            weight: uint16(weight),
            lockRatioBps: uint16(ratioBps),
            amount: uint128(amount),
            lock: uint128(lock)
        });
        emit RedemptionInitiated(redemptionId, msg.sender, amount, provider);
        emit RedemptionTerms(redemptionId, fee, lock, deadline);

        if (fee > 0) _sstb.safeTransferFrom(msg.sender, $.treasury, fee);
        _sstb.burnFrom(msg.sender, amount);
    }

    /// @inheritdoc IRedemptionManager
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

    /// @inheritdoc IRedemptionManager
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

    /// @inheritdoc IRedemptionManager
    function finalizeRedemption(uint256 redemptionId) external nonReentrant {
        Redemption storage r = _existing(redemptionId);
        if (r.status != RedemptionStatus.Fulfilled) revert RedemptionInvalidStatus(redemptionId, r.status);
        uint256 disputeDeadline = r.fulfilledAt + uint256(_storage().disputeWindow);
        // the window includes its last second, as in {openDispute}
        // solhint-disable-next-line gas-strict-inequalities
        if (block.timestamp <= disputeDeadline) revert DisputeWindowOpen(redemptionId, disputeDeadline);
        _complete(redemptionId, r);
    }

    /// @inheritdoc IRedemptionManager
    function expireRedemption(uint256 redemptionId) external nonReentrant {
        Redemption storage r = _existing(redemptionId);
        if (r.status != RedemptionStatus.Pending) revert RedemptionInvalidStatus(redemptionId, r.status);
        // the provider has all of its last second
        // solhint-disable-next-line gas-strict-inequalities
        if (block.timestamp <= r.deadline) revert RedemptionDeadlineNotPassed(redemptionId, r.deadline);

        r.status = RedemptionStatus.Expired;
        (uint256 compensation, uint256 penalty) = _payOutAsExpiry(r);
        emit RedemptionExpired(redemptionId, r.user, compensation, penalty);
    }

    /// @inheritdoc IRedemptionManager
    function openDispute(uint256 redemptionId, IssueType issueType, bytes32 evidenceHash) external {
        Redemption storage r = _existing(redemptionId);
        if (msg.sender != r.user) revert RedemptionUnauthorized(redemptionId, msg.sender);
        RedemptionStatus status = r.status;
        if (status != RedemptionStatus.Pending && status != RedemptionStatus.Fulfilled) {
            revert RedemptionInvalidStatus(redemptionId, status);
        }
        // Until its deadline the provider may still fulfil: a dispute then would only block it.
        // solhint-disable-next-line gas-strict-inequalities
        if (status == RedemptionStatus.Pending && block.timestamp <= r.deadline) {
            revert DisputeTooEarly(redemptionId, r.deadline);
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

    /// @inheritdoc IRedemptionManager
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

    /// @inheritdoc IRedemptionManager
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
        // Suspension only follows a ruling against the provider, and skips one already suspended
        // (an earlier ruling or governance); a provider sent back to review by a profile change is
        // suspended like an active one, so editing its profile cannot dodge the ruling.
        bool suspend =
            userWins &&
                suspendProvider &&
                _registry.accountOf(provider).status != IProviderRegistry.ProviderStatus.Suspended;
        Dispute storage d = _storage().disputes[redemptionId];
        d.resolvedAt = uint40(block.timestamp);
        d.userWon = userWins;
        d.providerSuspended = suspend;
        emit DisputeResolved(redemptionId, msg.sender, userWins, suspend, userWins ? lock : 0);

        if (userWins) {
            // a ruling pays the whole lock: the arbitrator weighed the case, no early-exit penalty
            _registry.payOutLock(provider, lock, r.user, address(0), 0, r.weight);
            if (suspend) _registry.suspendProvider(provider);
        } else {
            _releaseToProvider(r);
        }
    }

    /// @inheritdoc IRedemptionManager
    /// @dev The default is what the chain can tell: a provider that fulfilled on-chain is not
    /// punished for the arbitrator's silence, and one that let its deadline pass pays as on expiry
    /// (disputes on a pending redemption open only after its deadline). So opening a dispute never
    /// turns a redemption the provider fulfilled into a payout.
    function closeLapsedDispute(uint256 redemptionId) external nonReentrant {
        Redemption storage r = _existing(redemptionId);
        if (r.status != RedemptionStatus.Disputed) revert RedemptionInvalidStatus(redemptionId, r.status);
        RedemptionManagerStorage storage $ = _storage();
        Dispute storage d = $.disputes[redemptionId];
        uint256 resolutionDeadline = d.openedAt + uint256($.disputeResolutionPeriod);
        // the arbitrator has all of its last second
        // solhint-disable-next-line gas-strict-inequalities
        if (block.timestamp <= resolutionDeadline) revert DisputeNotLapsed(redemptionId, resolutionDeadline);

        r.status = RedemptionStatus.Resolved;
        bool userWins = r.fulfilledAt == 0;
        d.resolvedAt = uint40(block.timestamp);
        d.userWon = userWins;
        uint256 compensation;
        uint256 penalty;
        if (userWins) (compensation, penalty) = _payOutAsExpiry(r);
        else _releaseToProvider(r);
        emit DisputeLapsed(redemptionId, msg.sender, userWins, compensation, penalty);
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
    function setTierDeadline(IProviderRegistry.Tier tier, uint256 seconds_) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _setTierDeadline(_storage(), tier, seconds_);
    }

    /// @notice Sets the dispute window, within [1 hour, 30 days]; applies to every redemption from
    /// now on, measured from its request or fulfilment.
    function setDisputeWindow(uint256 seconds_) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _setDisputeWindow(_storage(), seconds_);
    }

    /// @notice Sets how long the arbitrator has to rule on a dispute before anyone may close it with
    /// the default outcome, within [1 day, 90 days]; applies to open disputes too.
    function setDisputeResolutionPeriod(uint256 seconds_) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _setDisputeResolutionPeriod(_storage(), seconds_);
    }

    /// @notice Sets the smallest amount a redemption may have, within [0.001, 1,000,000] sSTB and at
    /// most the reputation unit.
    function setMinRedemptionAmount(uint256 amount) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _setMinRedemptionAmount(_storage(), amount);
    }

    /// @notice Sets the sSTB value that moves reputation by one reward or penalty, within
    /// [0.001, 1,000,000] sSTB and at least the minimum redemption; applies to redemptions
    /// initiated afterwards.
    function setReputationUnit(uint256 amount) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _setReputationUnit(_storage(), amount);
    }

    // ---------------------------------------------------------------------------------------------
    // Views
    // ---------------------------------------------------------------------------------------------

    /// @inheritdoc IRedemptionManager
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

    /// @inheritdoc IRedemptionManager
    function redemptionOf(uint256 redemptionId) external view returns (Redemption memory) {
        return _existing(redemptionId);
    }

    /// @inheritdoc IRedemptionManager
    function redemptionStatus(uint256 redemptionId) external view returns (RedemptionStatus) {
        return _existing(redemptionId).status;
    }

    /// @inheritdoc IRedemptionManager
    function deadlinesOf(
        uint256 redemptionId
    ) external view returns (uint256 fulfilmentDeadline, uint256 disputeDeadline) {
        Redemption storage r = _existing(redemptionId);
        return (r.deadline, _disputeDeadline(r));
    }

    /// @inheritdoc IRedemptionManager
    function disputeOf(uint256 redemptionId) external view returns (Dispute memory) {
        _existing(redemptionId);
        return _storage().disputes[redemptionId];
    }

    /// @inheritdoc IRedemptionManager
    function disputeResolutionDeadline(uint256 redemptionId) external view returns (uint256) {
        _existing(redemptionId);
        RedemptionManagerStorage storage $ = _storage();
        uint256 openedAt = $.disputes[redemptionId].openedAt;
        return openedAt == 0 ? 0 : openedAt + uint256($.disputeResolutionPeriod);
    }

    /// @inheritdoc IRedemptionManager
    function quoteFee(uint256 amount) external view returns (uint256 fee, uint256 total) {
        fee = _fee(_storage().feeBps, amount);
        total = amount + fee;
    }

    /// @inheritdoc IRedemptionManager
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
    function tierDeadline(IProviderRegistry.Tier tier) external view returns (uint256) {
        return _tierDeadline(_storage(), tier);
    }

    /// @notice The dispute window, in seconds.
    function disputeWindow() external view returns (uint256) {
        return _storage().disputeWindow;
    }

    /// @notice How long the arbitrator has to rule on a dispute, in seconds.
    function disputeResolutionPeriod() external view returns (uint256) {
        return _storage().disputeResolutionPeriod;
    }

    /// @notice The smallest amount a redemption may have, in sSTB base units.
    function minRedemptionAmount() external view returns (uint256) {
        return _storage().minRedemptionAmount;
    }

    /// @notice The sSTB value that moves reputation by one reward or penalty.
    function reputationUnit() external view returns (uint256) {
        return _storage().reputationUnit;
    }

    /// @inheritdoc IRedemptionManager
    function registry() external view returns (IProviderRegistry) {
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

    function _pausedUntil() internal view override returns (uint40) {
        return _storage().pausedUntil;
    }

    function _setPausedUntil(uint40 until) internal override {
        _storage().pausedUntil = until;
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
        _releaseToProvider(r);
    }

    /// @dev The lock goes back to the provider as a success. A provider that never fulfilled
    /// on-chain but was found to have delivered is measured to the ruling.
    function _releaseToProvider(Redemption storage r) private {
        uint256 end = r.fulfilledAt != 0 ? r.fulfilledAt : block.timestamp;
        _registry.releaseLock(r.provider, r.lock, end - r.timestamp, r.weight);
    }

    /// @dev The lock of a redemption the provider let lapse goes to the user, less the early-exit
    /// penalty to the treasury while the provider's staking period runs.
    function _payOutAsExpiry(Redemption storage r) private returns (uint256 compensation, uint256 penalty) {
        return _registry.payOutLock(r.provider, r.lock, r.user, _storage().treasury, r.lockRatioBps, r.weight);
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
        IProviderRegistry.Tier tier
    ) private view returns (uint256) {
        if (tier == IProviderRegistry.Tier.Enterprise) return $.enterpriseDeadline;
        if (tier == IProviderRegistry.Tier.Premium) return $.premiumDeadline;
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
        IProviderRegistry.Tier tier,
        uint256 seconds_
    ) private {
        bytes32 parameter =
            tier == IProviderRegistry.Tier.Enterprise
                ? PARAM_ENTERPRISE_DEADLINE
                : tier == IProviderRegistry.Tier.Premium
                    ? PARAM_PREMIUM_DEADLINE
                    : PARAM_STANDARD_DEADLINE;
        if (seconds_ < MIN_TIER_DEADLINE || seconds_ > MAX_TIER_DEADLINE) {
            revert ParameterOutOfBounds(parameter, seconds_);
        }
        emit ParameterUpdated(parameter, _tierDeadline($, tier), seconds_);
        if (tier == IProviderRegistry.Tier.Enterprise) $.enterpriseDeadline = uint24(seconds_);
        else if (tier == IProviderRegistry.Tier.Premium) $.premiumDeadline = uint24(seconds_);
        else $.standardDeadline = uint24(seconds_);
    }

    function _setDisputeResolutionPeriod(RedemptionManagerStorage storage $, uint256 seconds_) private {
        if (seconds_ < MIN_DISPUTE_RESOLUTION_PERIOD || seconds_ > MAX_DISPUTE_RESOLUTION_PERIOD) {
            revert ParameterOutOfBounds(PARAM_DISPUTE_RESOLUTION, seconds_);
        }
        emit ParameterUpdated(PARAM_DISPUTE_RESOLUTION, $.disputeResolutionPeriod, seconds_);
        $.disputeResolutionPeriod = uint32(seconds_);
    }

    /// @dev The minimum never exceeds the reputation unit, so no redemption governance allows is
    /// worth more reputation per sSTB than the unit says (a unit below the minimum would let one
    /// minimum-size redemption move reputation by several units).
    function _setMinRedemptionAmount(RedemptionManagerStorage storage $, uint256 amount) private {
        if (amount < MIN_MIN_REDEMPTION || amount > MAX_MIN_REDEMPTION || amount > $.reputationUnit) {
            revert ParameterOutOfBounds(PARAM_MIN_REDEMPTION, amount);
        }
        emit ParameterUpdated(PARAM_MIN_REDEMPTION, $.minRedemptionAmount, amount);
        $.minRedemptionAmount = uint128(amount);
    }

    function _setReputationUnit(RedemptionManagerStorage storage $, uint256 amount) private {
        if (amount < MIN_REPUTATION_UNIT || amount > MAX_REPUTATION_UNIT || amount < $.minRedemptionAmount) {
            revert ParameterOutOfBounds(PARAM_REPUTATION_UNIT, amount);
        }
        emit ParameterUpdated(PARAM_REPUTATION_UNIT, $.reputationUnit, amount);
        $.reputationUnit = uint128(amount);
    }

    function _setDisputeWindow(RedemptionManagerStorage storage $, uint256 seconds_) private {
        if (seconds_ < MIN_DISPUTE_WINDOW || seconds_ > MAX_DISPUTE_WINDOW) {
            revert ParameterOutOfBounds(PARAM_DISPUTE_WINDOW, seconds_);
        }
        emit ParameterUpdated(PARAM_DISPUTE_WINDOW, $.disputeWindow, seconds_);
        $.disputeWindow = uint32(seconds_);
    }
}
