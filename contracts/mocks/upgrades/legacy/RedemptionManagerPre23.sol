// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

import {IProviderRegistry} from "../../../interfaces/IProviderRegistry.sol";
import {IRedemptionManagerPre23} from "./IRedemptionManagerPre23.sol";
import {ISSTB} from "../../../interfaces/ISSTB.sol";
import {Roles} from "../../../libraries/Roles.sol";
import {EmergencyPausablePre23} from "./EmergencyPausablePre23.sol";

// TEST DOUBLE for the upgrade tests (test/contracts/upgrades/UpgradeFromPre23.test.ts); never deployed on a chain.
// A frozen copy of `contracts/core/RedemptionManager.sol` at commit e40cbba, the implementation before issue 23 (the
// redemption manager's read contract, the bridge's governance channel, the forgotten peers'
// queued deliveries, renewal periods, reinitializers that keep governed values). Changed only so
// that it compiles beside today's code: contracts and interfaces renamed with a `Pre23` suffix,
// import paths adjusted. Storage namespaces are the originals, on purpose.
/// @title RedemptionManagerPre23
/// @notice Runs every redemption from request to its end. A holder burns sSTB to claim compute
/// from a provider; the provider's collateral for that value stays locked until the redemption
/// ends, released on success or paid to the holder on failure, so a holder is never left with
/// neither compute nor compensation. A fulfilled redemption is a lease on the provider's resources:
/// it may carry a stated end, be renewed (each renewal a redemption of its own) and be terminated
/// early by its user (DESIGN.md section 5b).
/// @dev The record and its transitions follow SPEC.md exactly; deadlines, expiry, finalization,
/// disputes and leases extend it (DESIGN.md sections 5 and 5b). Every path that ends a redemption
/// moves its status to a final value before touching the lock, so no lock is released or paid
/// twice.
///
/// Records: since issue 19 a record is two packed words in `records` (see {_packWord0}); records
/// written by the first implementation stay where they are, in `redemptions` (three slots), and
/// are read and updated there: {_load} and {_store} are the only code that knows both layouts.
contract RedemptionManagerPre23 is EmergencyPausablePre23, ReentrancyGuardTransient, IRedemptionManagerPre23 {
    using SafeCast for uint256;

    /// @notice Highest redemption fee governance may set: 1%.
    uint256 public constant MAX_FEE_BPS = 100;
    // The other bounds are internal (each setter's NatSpec states its own): the manager is close to
    // the 24,576-byte code size limit (docs/decisions.md, "Record layout and gas (issue 19)").
    /// @dev Shortest fulfilment time governance may give a tier.
    uint256 internal constant MIN_TIER_DEADLINE = 15 minutes;
    /// @dev Longest fulfilment time governance may give a tier.
    uint256 internal constant MAX_TIER_DEADLINE = 7 days;
    /// @dev Shortest dispute window governance may set.
    uint256 internal constant MIN_DISPUTE_WINDOW = 1 hours;
    /// @dev Longest dispute window governance may set.
    uint256 internal constant MAX_DISPUTE_WINDOW = 30 days;
    /// @dev Shortest time governance may give the arbitrator to rule on a dispute.
    uint256 internal constant MIN_DISPUTE_RESOLUTION_PERIOD = 1 days;
    /// @dev Longest time governance may give the arbitrator to rule on a dispute.
    uint256 internal constant MAX_DISPUTE_RESOLUTION_PERIOD = 90 days;
    /// @dev Lowest minimum redemption governance may set: 0.001 sSTB.
    uint256 internal constant MIN_MIN_REDEMPTION = 1e15;
    /// @dev Highest minimum redemption governance may set: 1,000,000 sSTB.
    uint256 internal constant MAX_MIN_REDEMPTION = 1e24;
    /// @dev Smallest reputation unit governance may set: 0.001 sSTB.
    uint256 internal constant MIN_REPUTATION_UNIT = 1e15;
    /// @dev Largest reputation unit governance may set: 1,000,000 sSTB.
    uint256 internal constant MAX_REPUTATION_UNIT = 1e24;
    /// @dev Shortest maximum lease term governance may set.
    uint256 internal constant MIN_MAX_LEASE_TERM = 1 days;
    /// @dev Longest maximum lease term governance may set: five years, the longest staking period
    /// the registry allows.
    uint256 internal constant MAX_MAX_LEASE_TERM = 5 * 365 days;

    bytes32 internal constant PARAM_FEE = "redemptionFeeBps";
    bytes32 internal constant PARAM_DISPUTE_WINDOW = "disputeWindow";
    bytes32 internal constant PARAM_STANDARD_DEADLINE = "standardDeadline";
    bytes32 internal constant PARAM_PREMIUM_DEADLINE = "premiumDeadline";
    bytes32 internal constant PARAM_ENTERPRISE_DEADLINE = "enterpriseDeadline";
    bytes32 internal constant PARAM_DISPUTE_RESOLUTION = "disputeResolutionPeriod";
    bytes32 internal constant PARAM_MIN_REDEMPTION = "minRedemptionAmount";
    bytes32 internal constant PARAM_REPUTATION_UNIT = "reputationUnit";
    bytes32 internal constant PARAM_MAX_LEASE_TERM = "maxLeaseTerm";

    uint256 private constant BPS = 10_000;

    /// @dev Record flags (4 bits). LEASE: fulfilled with a stated end, so `leases[id][user]` exists.
    /// RENEWAL: a renewal of lease `leaseId` (created fulfilled). TERMINATED: a lease without a
    /// stated end that its user terminated (a lease with one keeps that in its lease slot).
    uint256 private constant FLAG_LEASE = 1;
    uint256 private constant FLAG_RENEWAL = 2;
    uint256 private constant FLAG_TERMINATED = 4;

    /// @dev A record of the first implementation (three slots), kept where it was written.
    /// `flags` was added by issue 19 in the first slot's unused last byte, zero in every record
    /// written before.
    struct LegacyRedemption {
        address user;
        uint40 timestamp;
        uint40 deadline;
        RedemptionStatus status;
        uint8 flags;
        address provider;
        uint40 fulfilledAt;
        uint16 weight;
        uint16 lockRatioBps;
        uint128 amount;
        uint128 lock;
    }

    /// @dev A record since issue 19: two words, bit layout in {_packWord0}.
    struct PackedRedemption {
        uint256 word0;
        uint256 word1;
    }

    /// @dev A lease with a stated end, one slot, written at the fulfilment that states the end and
    /// found by the lease's id and its user (`leases[leaseId][user]`): the user is in the key, so
    /// the slot holds the provider's address (and its index, for the renewals' records) and
    /// renewing and terminating read this slot alone; `openDisputes` counts the lease's
    /// redemptions under dispute.
    struct LeaseSlot {
        address provider;
        uint24 providerIndex;
        uint32 end;
        bool terminated;
        uint32 openDisputes;
    }

    /// @dev The standing renewal offer of a lease (one slot; `price` 0 means none). The renewal's
    /// reputation weight is fixed when it is offered, as a redemption's is when it is initiated.
    struct RenewalOffer {
        uint96 price;
        uint32 extension;
        uint32 validUntil;
        uint16 weight;
    }

    /// @dev What the manager keeps of a provider from its first redemption on: the index packed
    /// records name it by, and its tier (fixed at registration), so an initiation reads neither the
    /// registry's status slot nor a second slot of its own.
    struct ProviderEntry {
        uint24 index;
        IProviderRegistry.Tier tier;
    }

    /// @dev A new redemption or renewal as {_create} takes it; `fee` and `lock` are filled in.
    struct Creation {
        address provider;
        uint256 providerIndex;
        uint256 amount;
        uint256 weight;
        uint256 due; // fulfilment time from now; 0 for a renewal
        uint256 leaseId; // the lease a renewal extends; 0 for an initiation
        uint256 fee;
        uint256 lock;
    }

    /// @dev A record as the logic works on it, from either layout. Only `status`, `flags` and
    /// `fulfilledAt` ever change after creation.
    struct Record {
        address user;
        RedemptionStatus status;
        bool legacy; // kept in the first layout
        address provider; // legacy records only; packed ones name it by index, see {_provider}
        uint256 providerIndex; // packed records only
        uint256 timestamp;
        uint256 deadline;
        uint256 flags;
        uint256 fulfilledAt;
        uint256 weight;
        uint256 lockRatioBps;
        uint256 amount;
        uint256 lock;
        uint256 leaseId; // renewals only
    }

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
        // records written before issue 19 (three slots each)
        mapping(uint256 redemptionId => LegacyRedemption) redemptions;
        mapping(uint256 redemptionId => Dispute) disputes;
        // one slot, read by every initiation
        uint128 minRedemptionAmount;
        uint128 reputationUnit;
        // --- issue 19 ---
        // records written since (two words each)
        mapping(uint256 redemptionId => PackedRedemption) records;
        // each provider's index in packed records (from 1) and tier, from its first redemption on
        mapping(address provider => ProviderEntry) providerEntries;
        mapping(uint256 providerIndex => address) providerAt;
        mapping(address user => bytes32) accessKeys;
        mapping(uint256 leaseId => mapping(address user => LeaseSlot)) leases;
        mapping(uint256 leaseId => RenewalOffer) renewalOffers;
        uint32 maxLeaseTerm;
        uint24 providerCount;
    }

    // keccak256(abi.encode(uint256(keccak256("computeprotocol.storage.RedemptionManager")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant STORAGE_LOCATION = 0x4d4df5d96ab278df845ea28e0141acb1493eef02109d56f6781ba8518e940900;

    /// @dev Fixed collaborators of a deployment, as in {MintingAgentPre23}: immutables save cold reads
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
    /// arbitrator to rule, a minimum redemption of 1 sSTB, a reputation unit of 10 sSTB, leases of
    /// at most 365 days.
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
        _setMaxLeaseTerm($, 365 days);
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
    /// @notice {initializeV2}'s maximum lease term, as {initialize} sets it: 365 days.
    uint256 public constant V2_MAX_LEASE_TERM = 365 days;
    /// @dev The first implementation's `bool paused` was the last byte of the storage's first slot,
    /// after the treasury, the fee and the three tier deadlines; nothing has used that byte since.
    uint256 private constant V1_PAUSED_SHIFT = 248;

    /// @notice Brings a proxy that the first implementation initialized to version 2: sets the
    /// parameters added since (arbitrator resolution period 14 days, minimum redemption 1 sSTB,
    /// reputation unit 10 sSTB, guardian pause 14 days, maximum lease term 365 days) to {initialize}'s defaults, which
    /// governance may change afterwards, and keeps a pause of the first implementation as a
    /// governance pause. Emits {ParameterUpdated} and {GuardianPauseDurationUpdated} as the setters do.
    /// @dev `reinitializer(2)`, upgrader role only: the upgrade proposal runs it through
    /// `upgradeToAndCall`, so no proxy runs the new code with a parameter at zero (a zero
    /// reputation unit would make every initiation divide by zero; a zero maximum lease term would
    /// refuse every stated lease end). Redemptions opened before the upgrade stay in the first
    /// layout's records with a zero `weight` and `lockRatioBps`: they settle their lock as they
    /// would have (a lapse pays the whole lock) and move no reputation. How later versions add parameters:
    /// docs/decisions.md, "Governance and upgrades".
    function initializeV2() external reinitializer(2) onlyRole(Roles.UPGRADER_ROLE) {
        RedemptionManagerStorage storage $ = _storage();
        __EmergencyPausable_initV2(_takeV1PauseFlag($));
        _setDisputeResolutionPeriod($, V2_DISPUTE_RESOLUTION_PERIOD);
        _setReputationUnit($, V2_REPUTATION_UNIT);
        _setMinRedemptionAmount($, V2_MIN_REDEMPTION_AMOUNT);
        _setMaxLeaseTerm($, V2_MAX_LEASE_TERM);
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

    /// @inheritdoc IRedemptionManagerPre23
    /// @dev Stopped while paused ({IEmergencyPause}); so is {acceptRenewal}, and nothing else here.
    /// The minimum amount and the refusal of a provider's own redemption keep dust and self-dealing
    /// from moving reputation; a second account of the provider gains nothing either, since
    /// reputation moves with the value at stake and an expiry during the staking period costs the
    /// early-exit penalty.
    function initiateRedemption(uint256 amount, address provider) external nonReentrant returns (uint256) {
        return _initiate(amount, provider);
    }

    /// @inheritdoc IRedemptionManagerPre23
    /// @dev The two `require` strings are the spec's revert messages, verbatim (solhint's custom-error
    /// rule is disabled for exactly these lines, in {_fulfil}).
    function fulfillRedemption(uint256 redemptionId, string calldata accessDetails) external {
        _fulfil(redemptionId, accessDetails, false, 0);
    }

    /// @inheritdoc IRedemptionManagerPre23
    /// @dev The three `require` strings are the spec's revert messages, verbatim. A packed record
    /// is confirmed from its two words without unpacking it (the most frequent settlement; see
    /// docs/decisions.md, "Confirmation gas"), a first-layout record through {_complete}.
    function confirmRedemption(uint256 redemptionId) external nonReentrant {
        PackedRedemption storage packed = _storage().records[redemptionId];
        uint256 word0 = packed.word0;
        uint256 word1 = packed.word1;
        (address user, RedemptionStatus status, uint256 fulfilledAt) = word0 != 0
            ? (address(uint160(word0)), RedemptionStatus((word0 >> 192) & 0xf), _fulfilledAt(word0, word1))
            : _confirmationFacts(redemptionId);
        // solhint-disable-next-line gas-custom-errors
        require(msg.sender == user, "Only user can confirm");
        // solhint-disable-next-line gas-custom-errors
        require(fulfilledAt != 0, "Not fulfilled yet");
        // solhint-disable-next-line gas-custom-errors
        require(status != RedemptionStatus.Confirmed, "Already confirmed");
        if (status != RedemptionStatus.Fulfilled) _invalidStatus(redemptionId, status);
        if (word0 == 0) return _complete(redemptionId, _load(redemptionId));

        // Fulfilled (2) -> Confirmed (3) in the status bits
        packed.word0 = word0 + (uint256(1) << 192);
        emit RedemptionConfirmed(redemptionId, msg.sender);
        _registry.releaseLock(
            _storage().providerAt[uint24(word0 >> 200)],
            uint96(word1 >> 96),
            fulfilledAt - uint32(word0 >> 160),
            uint16(word0 >> 224)
        );
    }

    // ---------------------------------------------------------------------------------------------
    // Expiry, finalization, disputes
    // ---------------------------------------------------------------------------------------------

    /// @inheritdoc IRedemptionManagerPre23
    function finalizeRedemption(uint256 redemptionId) external nonReentrant {
        Record memory r = _load(redemptionId);
        if (r.status != RedemptionStatus.Fulfilled) _invalidStatus(redemptionId, r.status);
        uint256 disputeDeadline = r.fulfilledAt + uint256(_storage().disputeWindow);
        // the window includes its last second, as in {openDispute}
        // solhint-disable-next-line gas-strict-inequalities
        if (block.timestamp <= disputeDeadline) revert DisputeWindowOpen(redemptionId, disputeDeadline);
        _complete(redemptionId, r);
    }

    /// @inheritdoc IRedemptionManagerPre23
    function expireRedemption(uint256 redemptionId) external nonReentrant {
        Record memory r = _load(redemptionId);
        if (r.status != RedemptionStatus.Pending) _invalidStatus(redemptionId, r.status);
        // the provider has all of its last second
        // solhint-disable-next-line gas-strict-inequalities
        if (block.timestamp <= r.deadline) revert RedemptionDeadlineNotPassed(redemptionId, r.deadline);

        r.status = RedemptionStatus.Expired;
        _store(redemptionId, r, false);
        (uint256 compensation, uint256 penalty) = _payOutAsExpiry(r);
        emit RedemptionExpired(redemptionId, r.user, compensation, penalty);
    }

    /// @inheritdoc IRedemptionManagerPre23
    /// @dev A dispute of a lease's redemption (its first or a renewal) marks the lease as under
    /// dispute until the dispute ends, so it is not renewed meanwhile.
    function openDispute(uint256 redemptionId, IssueType issueType, bytes32 evidenceHash) external {
        Record memory r = _load(redemptionId);
        if (msg.sender != r.user) _unauthorized(redemptionId);
        RedemptionStatus status = r.status;
        if (status != RedemptionStatus.Pending && status != RedemptionStatus.Fulfilled) {
            _invalidStatus(redemptionId, status);
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
        _store(redemptionId, r, false);
        RedemptionManagerStorage storage $ = _storage();
        if (r.flags & (FLAG_LEASE | FLAG_RENEWAL) != 0)
            ++$.leases[_leaseOfRecord(redemptionId, r)][r.user].openDisputes;
        Dispute storage d = $.disputes[redemptionId];
        d.issueType = issueType;
        d.openedAt = uint40(block.timestamp);
        d.evidenceHash = evidenceHash;
        emit DisputeOpened(redemptionId, msg.sender, issueType, evidenceHash);
    }

    /// @inheritdoc IRedemptionManagerPre23
    function respondToDispute(uint256 redemptionId, bytes32 responseHash) external {
        Record memory r = _load(redemptionId);
        if (msg.sender != _provider(r)) _unauthorized(redemptionId);
        if (r.status != RedemptionStatus.Disputed) _invalidStatus(redemptionId, r.status);
        if (responseHash == bytes32(0)) revert DisputeEvidenceMissing();
        Dispute storage d = _storage().disputes[redemptionId];
        if (d.respondedAt != 0) revert DisputeAlreadyAnswered(redemptionId);

        d.respondedAt = uint40(block.timestamp);
        d.responseHash = responseHash;
        emit DisputeResponded(redemptionId, msg.sender, responseHash);
    }

    /// @inheritdoc IRedemptionManagerPre23
    function resolveDispute(
        uint256 redemptionId,
        bool userWins,
        bool suspendProvider
    ) external onlyRole(Roles.ARBITRATOR_ROLE) nonReentrant {
        Record memory r = _load(redemptionId);
        if (r.status != RedemptionStatus.Disputed) _invalidStatus(redemptionId, r.status);

        r.status = RedemptionStatus.Resolved;
        _endDispute(redemptionId, r);
        address provider = _provider(r);
        // Suspension only follows a ruling against the provider, and skips one already suspended
        // (an earlier ruling or governance); a provider sent back to review by a profile change is
        // suspended like an active one, so editing its profile cannot dodge the ruling.
        bool suspend = userWins && suspendProvider && !_isSuspended(provider);
        Dispute storage d = _storage().disputes[redemptionId];
        d.resolvedAt = uint40(block.timestamp);
        d.userWon = userWins;
        d.providerSuspended = suspend;
        emit DisputeResolved(redemptionId, msg.sender, userWins, suspend, userWins ? r.lock : 0);

        if (userWins) {
            // a ruling pays the whole lock: the arbitrator weighed the case, no early-exit penalty
            _registry.payOutLock(provider, r.lock, r.user, address(0), 0, r.weight);
            if (suspend) _registry.suspendProvider(provider);
        } else {
            _releaseToProvider(r);
        }
    }

    /// @inheritdoc IRedemptionManagerPre23
    /// @dev The default is what the chain can tell: a provider that fulfilled on-chain is not
    /// punished for the arbitrator's silence, and one that let its deadline pass pays as on expiry
    /// (disputes on a pending redemption open only after its deadline). So opening a dispute never
    /// turns a redemption the provider fulfilled into a payout. A renewal counts as fulfilled: the
    /// provider committed to it by offering it.
    function closeLapsedDispute(uint256 redemptionId) external nonReentrant {
        Record memory r = _load(redemptionId);
        if (r.status != RedemptionStatus.Disputed) _invalidStatus(redemptionId, r.status);
        RedemptionManagerStorage storage $ = _storage();
        Dispute storage d = $.disputes[redemptionId];
        uint256 resolutionDeadline = d.openedAt + uint256($.disputeResolutionPeriod);
        // the arbitrator has all of its last second
        // solhint-disable-next-line gas-strict-inequalities
        if (block.timestamp <= resolutionDeadline) revert DisputeNotLapsed(redemptionId, resolutionDeadline);

        r.status = RedemptionStatus.Resolved;
        _endDispute(redemptionId, r);
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
    // Access keys and leases (DESIGN.md section 5b)
    // ---------------------------------------------------------------------------------------------

    /// @inheritdoc IRedemptionManagerPre23
    function registerAccessKey(bytes32 publicKey) external {
        _registerAccessKey(publicKey);
    }

    /// @inheritdoc IRedemptionManagerPre23
    function initiateRedemptionWithAccessKey(
        uint256 amount,
        address provider,
        bytes32 publicKey
    ) external nonReentrant returns (uint256) {
        _registerAccessKey(publicKey);
        return _initiate(amount, provider);
    }

    /// @inheritdoc IRedemptionManagerPre23
    function fulfillRedemptionWithLease(
        uint256 redemptionId,
        string calldata accessDetails,
        uint256 leaseEnd
    ) external {
        _fulfil(redemptionId, accessDetails, true, leaseEnd);
    }

    /// @inheritdoc IRedemptionManagerPre23
    /// @dev Offers move no value, so they are not stopped by a pause (their acceptance is).
    function offerRenewal(uint256 leaseId, uint256 price, uint256 extension, uint256 validUntil) external {
        RedemptionManagerStorage storage $ = _storage();
        uint256 end = _requireRenewable(leaseId, _providersLease($, leaseId));
        uint256 minimum = $.minRedemptionAmount;
        if (price < minimum) revert RedemptionBelowMinimum(price, minimum);
        uint256 latestEnd = block.timestamp + $.maxLeaseTerm;
        uint256 maxExtension = latestEnd > end ? latestEnd - end : 0;
        if (extension == 0 || extension > maxExtension) revert RenewalExtensionOutOfRange(extension, maxExtension);
        // solhint-disable-next-line gas-strict-inequalities
        if (validUntil <= block.timestamp || validUntil > end) {
            revert RenewalValidityOutOfRange(validUntil, block.timestamp + 1, end);
        }

        // extension <= maxLeaseTerm and validUntil <= end both fit 32 bits
        $.renewalOffers[leaseId] = RenewalOffer(
            price.toUint96(),
            uint32(extension),
            uint32(validUntil),
            uint16(_weight($, price))
        );
        emit RenewalOffered(leaseId, msg.sender, price, extension, validUntil);
    }

    /// @inheritdoc IRedemptionManagerPre23
    function withdrawRenewalOffer(uint256 leaseId) external {
        RedemptionManagerStorage storage $ = _storage();
        _providersLease($, leaseId);
        if ($.renewalOffers[leaseId].price == 0) revert RenewalOfferNotFound(leaseId);

        delete $.renewalOffers[leaseId];
        emit RenewalOfferWithdrawn(leaseId, msg.sender);
    }

    /// @inheritdoc IRedemptionManagerPre23
    /// @dev The renewal's record is complete at creation: status `Fulfilled`, fulfilled (and
    /// deadline) at acceptance, so the dispute window runs from the acceptance and a confirmation
    /// or finalization releases its lock with a response time of 0 (the provider committed to it in
    /// advance). The price met the minimum and the weight was fixed when the provider offered it.
    function acceptRenewal(uint256 leaseId, uint256 price, uint256 extension) external nonReentrant returns (uint256) {
        RedemptionManagerStorage storage $ = _storage();
        if (block.timestamp < $.pausedUntil) revert EnforcedPause();
        LeaseSlot storage slot = $.leases[leaseId][msg.sender];
        LeaseSlot memory lease = slot;
        if (lease.provider == address(0)) {
            // not a lease of the caller's with a stated end: none at all, or someone else's
            _leaseWithEnd($, leaseId);
            _unauthorized(leaseId);
        }
        uint256 end = _requireRenewable(leaseId, lease);
        uint256 weight = _takeOffer($, leaseId, price, extension);
        end += extension;
        slot.end = end.toUint32();
        return _renew($, leaseId, lease, price, weight, end);
    }

    /// @inheritdoc IRedemptionManagerPre23
    /// @dev Not stopped by a pause. A standing renewal offer is withdrawn with the lease (no
    /// separate event: `LeaseTerminated` says it).
    function terminateLease(uint256 leaseId) external {
        RedemptionManagerStorage storage $ = _storage();
        LeaseSlot storage lease = $.leases[leaseId][msg.sender];
        address provider = lease.provider;
        if (provider != address(0)) {
            // the caller's lease with a stated end
            if (lease.terminated) revert LeaseAlreadyTerminated(leaseId);
            uint256 end = lease.end;
            // solhint-disable-next-line gas-strict-inequalities
            if (block.timestamp >= end) revert LeaseEnded(leaseId, end);
            lease.terminated = true;
            if ($.renewalOffers[leaseId].price != 0) delete $.renewalOffers[leaseId];
        } else {
            // a lease without a stated end (the spec's two-argument fulfilment), or not the
            // caller's: its record says which
            Record memory r = _load(leaseId);
            if (!_isLease(r)) revert LeaseNotFound(leaseId);
            if (msg.sender != r.user) _unauthorized(leaseId);
            if (r.flags & FLAG_TERMINATED != 0) revert LeaseAlreadyTerminated(leaseId);
            r.flags |= FLAG_TERMINATED;
            _store(leaseId, r, false);
            provider = _provider(r);
        }
        emit LeaseTerminated(leaseId, msg.sender, provider);
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

    /// @notice Sets the longest a lease may run from now (at fulfilment, and after a renewal offered
    /// from then on), within [1 day, 5 years]. Leases already running and offers already standing
    /// keep what they were given.
    function setMaxLeaseTerm(uint256 seconds_) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _setMaxLeaseTerm(_storage(), seconds_);
    }

    // ---------------------------------------------------------------------------------------------
    // Views
    // ---------------------------------------------------------------------------------------------

    /// @inheritdoc IRedemptionManagerPre23
    function redemptions(
        uint256 redemptionId
    )
        external
        view
        returns (address user, uint256 amount, uint256 timestamp, address provider, bool fulfilled, bool confirmed)
    {
        (bool found, Record memory r) = _tryLoad(redemptionId);
        if (!found) return (address(0), 0, 0, address(0), false, false);
        return (
            r.user,
            r.amount,
            r.timestamp,
            _provider(r),
            r.fulfilledAt != 0,
            r.status == RedemptionStatus.Confirmed
        );
    }

    /// @inheritdoc IRedemptionManagerPre23
    function redemptionOf(uint256 redemptionId) external view returns (Redemption memory) {
        Record memory r = _load(redemptionId);
        return
            Redemption({
                user: r.user,
                timestamp: uint40(r.timestamp),
                deadline: uint40(r.deadline),
                status: r.status,
                provider: _provider(r),
                fulfilledAt: uint40(r.fulfilledAt),
                weight: uint16(r.weight),
                lockRatioBps: uint16(r.lockRatioBps),
                amount: uint128(r.amount),
                lock: uint128(r.lock)
            });
    }

    /// @inheritdoc IRedemptionManagerPre23
    function redemptionStatus(uint256 redemptionId) external view returns (RedemptionStatus) {
        return _load(redemptionId).status;
    }

    /// @inheritdoc IRedemptionManagerPre23
    function deadlinesOf(
        uint256 redemptionId
    ) external view returns (uint256 fulfilmentDeadline, uint256 disputeDeadline) {
        Record memory r = _load(redemptionId);
        return (r.deadline, _disputeDeadline(r));
    }

    /// @inheritdoc IRedemptionManagerPre23
    function disputeOf(uint256 redemptionId) external view returns (Dispute memory) {
        _load(redemptionId);
        return _storage().disputes[redemptionId];
    }

    /// @inheritdoc IRedemptionManagerPre23
    function disputeResolutionDeadline(uint256 redemptionId) external view returns (uint256) {
        _load(redemptionId);
        RedemptionManagerStorage storage $ = _storage();
        uint256 openedAt = $.disputes[redemptionId].openedAt;
        return openedAt == 0 ? 0 : openedAt + uint256($.disputeResolutionPeriod);
    }

    /// @inheritdoc IRedemptionManagerPre23
    function quoteFee(uint256 amount) external view returns (uint256 fee, uint256 total) {
        fee = _fee(_storage().feeBps, amount);
        total = amount + fee;
    }

    /// @inheritdoc IRedemptionManagerPre23
    function redemptionCount() external view returns (uint256) {
        return _storage().redemptionCount;
    }

    /// @inheritdoc IRedemptionManagerPre23
    function accessKeyOf(address user) external view returns (bytes32) {
        return _storage().accessKeys[user];
    }

    /// @inheritdoc IRedemptionManagerPre23
    function leaseOf(uint256 leaseId) external view returns (Lease memory lease) {
        lease = _lease(leaseId);
        if (lease.status == LeaseStatus.None) revert LeaseNotFound(leaseId);
    }

    /// @inheritdoc IRedemptionManagerPre23
    function leaseStatus(uint256 leaseId) external view returns (LeaseStatus) {
        return _lease(leaseId).status;
    }

    /// @inheritdoc IRedemptionManagerPre23
    function leaseIdOf(uint256 redemptionId) external view returns (uint256) {
        Record memory r = _load(redemptionId);
        if (r.flags & FLAG_RENEWAL != 0) return r.leaseId;
        return r.fulfilledAt != 0 ? redemptionId : 0;
    }

    /// @inheritdoc IRedemptionManagerPre23
    function maxLeaseTerm() external view returns (uint256) {
        return _storage().maxLeaseTerm;
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

    /// @inheritdoc IRedemptionManagerPre23
    function registry() external view returns (IProviderRegistry) {
        return _registry;
    }

    /// @notice The sSTB token redemptions burn.
    function sstb() external view returns (ISSTB) {
        return _sstb;
    }

    // ---------------------------------------------------------------------------------------------
    // Internals: the operations
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

    function _initiate(uint256 amount, address provider) private returns (uint256 redemptionId) {
        RedemptionManagerStorage storage $ = _storage();
        if (block.timestamp < $.pausedUntil) revert EnforcedPause();
        uint256 minimum = $.minRedemptionAmount;
        if (amount < minimum) revert RedemptionBelowMinimum(amount, minimum);
        if (provider == msg.sender) revert RedemptionByProvider(provider);

        Creation memory c;
        c.provider = provider;
        c.amount = amount;
        c.weight = _weight($, amount);
        IProviderRegistry.Tier tier;
        (c.providerIndex, tier) = _providerEntry($, provider);
        c.due = _tierDeadline($, tier);
        redemptionId = _create($, c);
        emit RedemptionInitiated(redemptionId, msg.sender, amount, provider);
        emit RedemptionTerms(redemptionId, c.fee, c.lock, block.timestamp + c.due);
        _burnWithFee($, amount, c.fee);
    }

    /// @dev Reserves the provider's capacity for `c.amount` and stores the caller's new record
    /// (packed as in {_packWord0}): pending, due `c.due` seconds from now, or, for a renewal of lease
    /// `c.leaseId` (not 0), fulfilled and due at creation. Fills in the fee and the lock. The
    /// registry reverts unless the provider has the capacity and the collateral to lock.
    function _create(RedemptionManagerStorage storage $, Creation memory c) private returns (uint256 redemptionId) {
        (uint256 lock, uint256 ratioBps) = _registry.reserveCapacity(c.provider, c.amount);
        c.lock = lock;
        c.fee = _fee($.feeBps, c.amount);
        unchecked {
            redemptionId = ++$.redemptionCount;
        }
        uint256 word0 =
            uint256(uint160(msg.sender)) |
                (uint256(block.timestamp.toUint32()) << 160) |
                (c.providerIndex << 200) |
                (c.weight << 224) |
                (ratioBps << 240);
        uint256 word1 = uint256(c.amount.toUint96()) | (uint256(lock.toUint96()) << 96);
        if (c.leaseId == 0) {
            word0 |= uint256(RedemptionStatus.Pending) << 192;
            word1 |= c.due << 224;
        } else {
            word0 |= (uint256(RedemptionStatus.Fulfilled) << 192) | (FLAG_RENEWAL << 196);
            word1 |= c.leaseId << 192;
        }
        $.records[redemptionId] = PackedRedemption(word0, word1);
    }

    /// @dev The renewal of {acceptRenewal}: a redemption of `price` with the lease's provider,
    /// created fulfilled, whose lease now ends at `end`.
    function _renew(
        RedemptionManagerStorage storage $,
        uint256 leaseId,
        LeaseSlot memory lease,
        uint256 price,
        uint256 weight,
        uint256 end
    ) private returns (uint256 renewalId) {
        Creation memory c;
        c.provider = lease.provider;
        c.providerIndex = lease.providerIndex;
        c.amount = price;
        c.weight = weight;
        c.leaseId = leaseId;
        renewalId = _create($, c);
        emit RedemptionInitiated(renewalId, msg.sender, price, c.provider);
        emit LeaseRenewed(leaseId, renewalId, end, c.fee, c.lock);
        _burnWithFee($, price, c.fee);
    }

    /// @dev Burns `amount` of the caller's sSTB and sends `fee` to the treasury, in one call.
    function _burnWithFee(RedemptionManagerStorage storage $, uint256 amount, uint256 fee) private {
        _sstb.burnFromWithFee(msg.sender, amount, $.treasury, fee);
    }

    /// @dev Both fulfilments. The spec's two strings come first, in the spec's order.
    function _fulfil(uint256 redemptionId, string calldata accessDetails, bool statesEnd, uint256 leaseEnd) private {
        Record memory r = _load(redemptionId);
        // solhint-disable-next-line gas-custom-errors
        require(msg.sender == _provider(r), "Only provider can fulfill");
        // solhint-disable-next-line gas-custom-errors
        require(r.fulfilledAt == 0, "Already fulfilled");
        if (r.status != RedemptionStatus.Pending) _invalidStatus(redemptionId, r.status);
        if (bytes(accessDetails).length == 0) revert RedemptionEmptyAccessDetails();

        r.status = RedemptionStatus.Fulfilled;
        r.fulfilledAt = block.timestamp.toUint32();
        if (statesEnd) {
            RedemptionManagerStorage storage $ = _storage();
            uint256 latest = block.timestamp + $.maxLeaseTerm;
            // solhint-disable-next-line gas-strict-inequalities
            if (leaseEnd <= block.timestamp || leaseEnd > latest) {
                revert LeaseEndOutOfRange(leaseEnd, block.timestamp + 1, latest);
            }
            r.flags |= FLAG_LEASE;
            uint256 index = r.providerIndex;
            if (r.legacy) (index, ) = _providerEntry($, r.provider);
            $.leases[redemptionId][r.user] = LeaseSlot({
                provider: msg.sender,
                providerIndex: uint24(index),
                end: leaseEnd.toUint32(),
                terminated: false,
                openDisputes: 0
            });
        }
        _store(redemptionId, r, true);
        emit RedemptionFulfilled(redemptionId, msg.sender, accessDetails);
        if (statesEnd) emit LeaseStarted(redemptionId, r.user, msg.sender, leaseEnd);
    }

    function _registerAccessKey(bytes32 publicKey) private {
        if (publicKey == bytes32(0)) revert AccessKeyInvalid();
        mapping(address => bytes32) storage keys = _storage().accessKeys;
        if (keys[msg.sender] == publicKey) return; // nothing changes, nothing to announce
        keys[msg.sender] = publicKey;
        emit AccessKeyRegistered(msg.sender, publicKey);
    }

    /// @dev Confirmation and finalization: the lock goes back to the provider, whose reputation
    /// and statistics record a success.
    function _complete(uint256 redemptionId, Record memory r) private {
        r.status = RedemptionStatus.Confirmed;
        _store(redemptionId, r, false);
        emit RedemptionConfirmed(redemptionId, r.user);
        _releaseToProvider(r);
    }

    /// @dev A ruling or a lapse ended a dispute: the record is stored in its final status and the
    /// lease it belongs to (if any) has one dispute fewer.
    function _endDispute(uint256 redemptionId, Record memory r) private {
        _store(redemptionId, r, false);
        if (r.flags & (FLAG_LEASE | FLAG_RENEWAL) != 0) {
            --_storage().leases[_leaseOfRecord(redemptionId, r)][r.user].openDisputes;
        }
    }

    /// @dev The lock goes back to the provider as a success. A provider that never fulfilled
    /// on-chain but was found to have delivered is measured to the ruling.
    function _releaseToProvider(Record memory r) private {
        uint256 end = r.fulfilledAt != 0 ? r.fulfilledAt : block.timestamp;
        _registry.releaseLock(_provider(r), r.lock, end - r.timestamp, r.weight);
    }

    /// @dev The lock of a redemption the provider let lapse goes to the user, less the early-exit
    /// penalty to the treasury while the provider's staking period runs.
    function _payOutAsExpiry(Record memory r) private returns (uint256 compensation, uint256 penalty) {
        return _registry.payOutLock(_provider(r), r.lock, r.user, _storage().treasury, r.lockRatioBps, r.weight);
    }

    /// @dev The checks of {acceptRenewal} on the offer; consumes it. Returns the renewal's weight
    /// (fixed at the offer).
    function _takeOffer(
        RedemptionManagerStorage storage $,
        uint256 leaseId,
        uint256 price,
        uint256 extension
    ) private returns (uint256 weight) {
        RenewalOffer memory offer = $.renewalOffers[leaseId];
        if (offer.price == 0) revert RenewalOfferNotFound(leaseId);
        if (block.timestamp > offer.validUntil) revert RenewalOfferLapsed(leaseId, offer.validUntil);
        if (price != offer.price || extension != offer.extension) {
            revert RenewalTermsMismatch(leaseId, offer.price, offer.extension);
        }

        delete $.renewalOffers[leaseId];
        weight = offer.weight;
    }

    /// @dev The lease slot of a lease with a stated end, found through its user (the user of the
    /// lease's record); reverts for anything else.
    function _leaseWithEnd(
        RedemptionManagerStorage storage $,
        uint256 leaseId
    ) private view returns (LeaseSlot storage lease) {
        uint256 word0 = $.records[leaseId].word0;
        address user = word0 != 0 ? address(uint160(word0)) : $.redemptions[leaseId].user;
        lease = $.leases[leaseId][user];
        if (lease.provider == address(0)) revert LeaseNotRenewable(leaseId);
    }

    /// @dev The lease `leaseId`, with status `None` (and nothing else) if it is not one: from its
    /// lease slot when it has a stated end, otherwise from its record.
    function _lease(uint256 leaseId) private view returns (Lease memory lease) {
        (bool found, Record memory r) = _tryLoad(leaseId);
        if (!found || !_isLease(r)) return lease;
        lease.user = r.user;
        if (r.flags & FLAG_LEASE != 0) {
            RedemptionManagerStorage storage $ = _storage();
            LeaseSlot storage slot = $.leases[leaseId][r.user];
            RenewalOffer memory offer = $.renewalOffers[leaseId];
            lease.status = _leaseStatus(slot);
            lease.provider = slot.provider;
            lease.end = slot.end;
            lease.openDisputes = slot.openDisputes;
            lease.offerPrice = offer.price;
            lease.offerExtension = offer.extension;
            lease.offerValidUntil = offer.validUntil;
            return lease;
        }
        lease.status = r.flags & FLAG_TERMINATED != 0 ? LeaseStatus.Terminated : LeaseStatus.Active;
        lease.provider = _provider(r);
        lease.openDisputes = r.status == RedemptionStatus.Disputed ? 1 : 0;
    }

    /// @dev {_leaseWithEnd}, for its provider only.
    function _providersLease(
        RedemptionManagerStorage storage $,
        uint256 leaseId
    ) private view returns (LeaseSlot storage lease) {
        lease = _leaseWithEnd($, leaseId);
        if (msg.sender != lease.provider) _unauthorized(leaseId);
    }

    /// @dev A lease may be renewed (offered, accepted) while running and undisputed; returns its end.
    function _requireRenewable(uint256 leaseId, LeaseSlot memory lease) private view returns (uint256 end) {
        if (lease.terminated) revert LeaseAlreadyTerminated(leaseId);
        end = lease.end;
        // solhint-disable-next-line gas-strict-inequalities
        if (block.timestamp >= end) revert LeaseEnded(leaseId, end);
        uint256 disputes = lease.openDisputes;
        if (disputes != 0) revert LeaseUnderDispute(leaseId, disputes);
    }

    function _leaseStatus(LeaseSlot memory lease) private view returns (LeaseStatus) {
        if (lease.terminated) return LeaseStatus.Terminated;
        return block.timestamp < lease.end ? LeaseStatus.Active : LeaseStatus.Ended;
    }

    /// @dev A record that is a lease: fulfilled, and not a renewal (a renewal extends a lease).
    function _isLease(Record memory r) private pure returns (bool) {
        return r.fulfilledAt != 0 && r.flags & FLAG_RENEWAL == 0;
    }

    /// @dev The lease of a record flagged LEASE (itself) or RENEWAL (the one it renewed).
    function _leaseOfRecord(uint256 redemptionId, Record memory r) private pure returns (uint256) {
        return r.flags & FLAG_RENEWAL != 0 ? r.leaseId : redemptionId;
    }

    /// @dev A provider's entry, made at its first redemption: the next index and the tier the
    /// registry holds (two fresh slots and a registry read, once per provider). Refuses an account
    /// that is not a registered provider. Not an event: the index is a storage key, never shown.
    function _providerEntry(
        RedemptionManagerStorage storage $,
        address provider
    ) private returns (uint256 index, IProviderRegistry.Tier tier) {
        ProviderEntry memory entry = $.providerEntries[provider];
        if (entry.index != 0) return (entry.index, entry.tier);
        IProviderRegistry.ProviderStatus status;
        (status, tier) = _statusAndTier(provider);
        if (status == IProviderRegistry.ProviderStatus.None) revert IProviderRegistry.ProviderNotRegistered(provider);
        index = uint256($.providerCount) + 1;
        $.providerCount = index.toUint24();
        $.providerEntries[provider] = ProviderEntry(uint24(index), tier);
        $.providerAt[index] = provider;
    }

    function _isSuspended(address provider) private view returns (bool) {
        (IProviderRegistry.ProviderStatus status, ) = _statusAndTier(provider);
        return status == IProviderRegistry.ProviderStatus.Suspended;
    }

    /// @dev The registry's status and tier of `provider` (one copy of the call's encoding).
    function _statusAndTier(
        address provider
    ) private view returns (IProviderRegistry.ProviderStatus, IProviderRegistry.Tier) {
        return _registry.statusAndTierOf(provider);
    }

    /// @dev The caller is not the party `id`'s operation is for (one copy of the revert's encoding).
    function _unauthorized(uint256 id) private view {
        revert RedemptionUnauthorized(id, msg.sender);
    }

    /// @dev Redemption `id` is not in a status the operation accepts.
    function _invalidStatus(uint256 id, RedemptionStatus status) private pure {
        revert RedemptionInvalidStatus(id, status);
    }

    /// @dev Reputation units at stake in `amount`: fixed when a redemption is initiated (or a
    /// renewal offered), capped to 16 bits.
    function _weight(RedemptionManagerStorage storage $, uint256 amount) private view returns (uint256 weight) {
        weight = amount / $.reputationUnit;
        if (weight > type(uint16).max) weight = type(uint16).max;
    }

    function _disputeDeadline(Record memory r) private view returns (uint256) {
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

    // ---------------------------------------------------------------------------------------------
    // Internals: the two record layouts
    // ---------------------------------------------------------------------------------------------

    /// @dev A record by id; reverts `RedemptionNotFound` for an id never issued.
    function _load(uint256 redemptionId) private view returns (Record memory r) {
        bool found;
        (found, r) = _tryLoad(redemptionId);
        if (!found) revert RedemptionNotFound(redemptionId);
    }

    /// @dev A packed record if one exists (word0 holds the user, never zero), else a legacy one.
    function _tryLoad(uint256 redemptionId) private view returns (bool found, Record memory r) {
        RedemptionManagerStorage storage $ = _storage();
        PackedRedemption storage packed = $.records[redemptionId];
        uint256 word0 = packed.word0;
        if (word0 != 0) {
            _unpack(r, word0, packed.word1);
            return (true, r);
        }
        LegacyRedemption storage old = $.redemptions[redemptionId];
        if (old.status == RedemptionStatus.None) return (false, r);
        r.user = old.user;
        r.timestamp = old.timestamp;
        r.deadline = old.deadline;
        r.status = old.status;
        r.flags = old.flags;
        r.provider = old.provider;
        r.fulfilledAt = old.fulfilledAt;
        r.weight = old.weight;
        r.lockRatioBps = old.lockRatioBps;
        r.amount = old.amount;
        r.lock = old.lock;
        r.legacy = true;
        return (true, r);
    }

    /// @dev Writes back what changes after creation: the status and the flags (a packed record's
    /// first word), and with `fulfilled` the fulfilment time (its second word).
    function _store(uint256 redemptionId, Record memory r, bool fulfilled) private {
        RedemptionManagerStorage storage $ = _storage();
        if (r.legacy) {
            LegacyRedemption storage old = $.redemptions[redemptionId];
            old.status = r.status;
            old.flags = uint8(r.flags);
            if (fulfilled) old.fulfilledAt = uint40(r.fulfilledAt);
        } else {
            PackedRedemption storage packed = $.records[redemptionId];
            packed.word0 = _packWord0(r);
            if (fulfilled) packed.word1 = _packWord1(r);
        }
    }

    /// @dev The provider of a record: stored in a legacy record, by index in a packed one.
    function _provider(Record memory r) private view returns (address) {
        return r.legacy ? r.provider : _storage().providerAt[r.providerIndex];
    }

    /// @dev The packed layout (bit offsets from the low end). Every field is bounded where it is
    /// set: amounts and locks by `SafeCast` at creation (96 bits: 79 billion sSTB, 7.9e28 collateral
    /// units), times by `SafeCast` to 32 bits (until 2106), the provider index to 24 bits, the
    /// weight to 16, the ratio by the registry (<= 30,000), the fulfilment time allowed by a tier
    /// (<= 7 days) and a renewal's lease id by the id counter (ids stay below 2^64).
    ///   word0: user [0,160) | timestamp [160,192) | status [192,196) | flags [196,200) |
    ///          providerIndex [200,224) | weight [224,240) | lockRatioBps [240,256)
    ///   word1: amount [0,96) | lock [96,192) | then either fulfilledAt [192,224) and
    ///          deadline - timestamp [224,256), or for a renewal (fulfilled and due at its
    ///          creation) the renewed lease's id [192,256)
    function _packWord0(Record memory r) private pure returns (uint256) {
        return
            uint256(uint160(r.user)) |
            (uint256(r.timestamp.toUint32()) << 160) |
            (uint256(r.status) << 192) |
            (r.flags << 196) |
            (r.providerIndex << 200) |
            (r.weight << 224) |
            (r.lockRatioBps << 240);
    }

    /// @dev The second word of {_packWord0}'s layout, for a record fulfilled after its creation
    /// (so never a renewal: {_create} writes a renewal's second word, and it never changes).
    function _packWord1(Record memory r) private pure returns (uint256) {
        return
            uint256(r.amount.toUint96()) |
            (uint256(r.lock.toUint96()) << 96) |
            (r.fulfilledAt << 192) |
            ((r.deadline - r.timestamp) << 224);
    }

    /// @dev A packed record's fulfilment time: its own, or for a renewal its creation.
    function _fulfilledAt(uint256 word0, uint256 word1) private pure returns (uint256) {
        return (word0 >> 196) & FLAG_RENEWAL != 0 ? uint32(word0 >> 160) : uint32(word1 >> 192);
    }

    /// @dev What {confirmRedemption} checks, of a record kept in the first layout.
    function _confirmationFacts(uint256 redemptionId) private view returns (address, RedemptionStatus, uint256) {
        Record memory r = _load(redemptionId);
        return (r.user, r.status, r.fulfilledAt);
    }

    function _unpack(Record memory r, uint256 word0, uint256 word1) private pure {
        r.user = address(uint160(word0));
        r.timestamp = uint32(word0 >> 160);
        r.status = RedemptionStatus((word0 >> 192) & 0xf);
        r.flags = (word0 >> 196) & 0xf;
        r.providerIndex = uint24(word0 >> 200);
        r.weight = uint16(word0 >> 224);
        r.lockRatioBps = word0 >> 240;
        r.amount = uint96(word1);
        r.lock = uint96(word1 >> 96);
        if (r.flags & FLAG_RENEWAL != 0) {
            r.leaseId = word1 >> 192;
            r.fulfilledAt = r.timestamp;
            r.deadline = r.timestamp;
        } else {
            r.fulfilledAt = uint32(word1 >> 192);
            r.deadline = r.timestamp + (word1 >> 224);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Internals: governed parameters
    // ---------------------------------------------------------------------------------------------

    function _setFee(RedemptionManagerStorage storage $, uint256 feeBps_) private {
        _update(PARAM_FEE, $.feeBps, feeBps_, 0, MAX_FEE_BPS);
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
        _update(parameter, _tierDeadline($, tier), seconds_, MIN_TIER_DEADLINE, MAX_TIER_DEADLINE);
        if (tier == IProviderRegistry.Tier.Enterprise) $.enterpriseDeadline = uint24(seconds_);
        else if (tier == IProviderRegistry.Tier.Premium) $.premiumDeadline = uint24(seconds_);
        else $.standardDeadline = uint24(seconds_);
    }

    function _setDisputeResolutionPeriod(RedemptionManagerStorage storage $, uint256 seconds_) private {
        _update(
            PARAM_DISPUTE_RESOLUTION,
            $.disputeResolutionPeriod,
            seconds_,
            MIN_DISPUTE_RESOLUTION_PERIOD,
            MAX_DISPUTE_RESOLUTION_PERIOD
        );
        $.disputeResolutionPeriod = uint32(seconds_);
    }

    /// @dev The minimum never exceeds the reputation unit, so no redemption governance allows is
    /// worth more reputation per sSTB than the unit says (a unit below the minimum would let one
    /// minimum-size redemption move reputation by several units).
    function _setMinRedemptionAmount(RedemptionManagerStorage storage $, uint256 amount) private {
        uint256 unit = $.reputationUnit;
        uint256 max = unit < MAX_MIN_REDEMPTION ? unit : MAX_MIN_REDEMPTION;
        _update(PARAM_MIN_REDEMPTION, $.minRedemptionAmount, amount, MIN_MIN_REDEMPTION, max);
        $.minRedemptionAmount = uint128(amount);
    }

    function _setReputationUnit(RedemptionManagerStorage storage $, uint256 amount) private {
        uint256 minimum = $.minRedemptionAmount;
        uint256 min = minimum > MIN_REPUTATION_UNIT ? minimum : MIN_REPUTATION_UNIT;
        _update(PARAM_REPUTATION_UNIT, $.reputationUnit, amount, min, MAX_REPUTATION_UNIT);
        $.reputationUnit = uint128(amount);
    }

    function _setDisputeWindow(RedemptionManagerStorage storage $, uint256 seconds_) private {
        _update(PARAM_DISPUTE_WINDOW, $.disputeWindow, seconds_, MIN_DISPUTE_WINDOW, MAX_DISPUTE_WINDOW);
        $.disputeWindow = uint32(seconds_);
    }

    function _setMaxLeaseTerm(RedemptionManagerStorage storage $, uint256 seconds_) private {
        _update(PARAM_MAX_LEASE_TERM, $.maxLeaseTerm, seconds_, MIN_MAX_LEASE_TERM, MAX_MAX_LEASE_TERM);
        $.maxLeaseTerm = uint32(seconds_);
    }

    /// @dev Refuses `value` for `parameter` outside `[min, max]`; otherwise announces the change
    /// from `previous` (the caller stores it). One copy of the check and the event for every setter.
    function _update(bytes32 parameter, uint256 previous, uint256 value, uint256 min, uint256 max) private {
        if (value < min || value > max) revert ParameterOutOfBounds(parameter, value);
        emit ParameterUpdated(parameter, previous, value);
    }
}
