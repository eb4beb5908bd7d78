// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IProviderRegistry} from "../../../interfaces/IProviderRegistry.sol";

// TEST DOUBLE for the upgrade tests (test/contracts/upgrades/UpgradeFromPre23.test.ts); never deployed on a chain.
// A frozen copy of `contracts/interfaces/IRedemptionManager.sol` at commit e40cbba, the implementation before issue 23 (the
// redemption manager's read contract, the bridge's governance channel, the forgotten peers'
// queued deliveries, renewal periods, reinitializers that keep governed values). Changed only so
// that it compiles beside today's code: contracts and interfaces renamed with a `Pre23` suffix,
// import paths adjusted. Storage namespaces are the originals, on purpose.
/// @title IRedemptionManagerPre23
/// @notice The redemption state machine: a holder burns sSTB to claim compute from a provider, the
/// provider fulfils with encrypted access details, and the holder confirms or disputes. The
/// provider's collateral for the redemption stays locked until the redemption ends.
/// @dev The spec fixes `initiateRedemption`, `fulfillRedemption`, `confirmRedemption`, the
/// `redemptions` getter, the three `Redemption*` events of the spec and five revert strings; the
/// rest (expiry, finalization, disputes, views, parameters) extends it (DESIGN.md section 5), as do
/// access keys and leases (DESIGN.md section 5b): a fulfilled redemption is a lease on the
/// provider's resources, identified by the redemption's id; a renewal of a lease is a redemption of
/// its own, with its own id, linked to the lease.
interface IRedemptionManagerPre23 {
    /// @notice Where a redemption is. `None` only for ids never issued. `Confirmed`, `Expired` and
    /// `Resolved` are final. Transitions: Pending -> Fulfilled | Expired | Disputed;
    /// Fulfilled -> Confirmed | Disputed; Disputed -> Resolved.
    enum RedemptionStatus {
        None,
        Pending,
        Fulfilled,
        Confirmed,
        Expired,
        Disputed,
        Resolved
    }

    /// @notice What a user disputes (docs/decisions.md lists when to use which).
    /// @dev NotDelivered: no usable access arrived. AccessFailure: access details do not work
    /// (host unreachable, credentials refused). ResourceMismatch: the machine does not match the
    /// verified specification. PerformanceShortfall: benchmarks fall clearly below the verified
    /// scores. Other: anything else, described by the evidence.
    enum IssueType {
        NotDelivered,
        AccessFailure,
        ResourceMismatch,
        PerformanceShortfall,
        Other
    }

    /// @notice Where a lease is. `None`: the id is not a lease (not fulfilled, or a renewal).
    /// `Active`: running (no stated end, or before it). `Ended`: its stated end has passed.
    /// `Terminated`: its user ended it early. A lease only moves forward: `Active` -> `Ended` |
    /// `Terminated`, and both are final.
    enum LeaseStatus {
        None,
        Active,
        Ended,
        Terminated
    }

    /// @notice A redemption as the views show it (the field widths of the first layout; records
    /// written since issue 19 are stored more tightly, see the manager's storage notes).
    /// @param user Who redeemed; receives compensation if the provider fails.
    /// @param timestamp Block time of the request.
    /// @param deadline Fulfilment deadline: request time plus the provider's tier time.
    /// @param status Current status.
    /// @param provider Who must fulfil.
    /// @param fulfilledAt Block time of the fulfilment, 0 until then.
    /// @param weight Reputation units at stake (amount / reputation unit, fixed at initiation):
    /// how far the outcome moves the provider's reputation; 0 moves neither reputation nor
    /// statistics.
    /// @param lockRatioBps The collateral ratio the lock was taken at; an early-exit penalty takes
    /// at most the share of the lock above 100% at that ratio.
    /// @param amount sSTB redeemed (burned at initiation), base units.
    /// @param lock Provider collateral locked for this redemption until it ends.
    struct Redemption {
        address user;
        uint40 timestamp;
        uint40 deadline;
        RedemptionStatus status;
        address provider;
        uint40 fulfilledAt;
        uint16 weight;
        uint16 lockRatioBps;
        uint128 amount;
        uint128 lock;
    }

    /// @notice A lease as {leaseOf} shows it.
    /// @param status Active, ended or terminated.
    /// @param user Who holds the resources (the redemption's user).
    /// @param provider Who supplies them.
    /// @param end The stated end (Unix seconds), moved by each renewal; 0 when the provider stated
    /// none (the spec's two-argument fulfilment): such a lease runs until terminated and cannot be
    /// renewed.
    /// @param openDisputes How many of the lease's redemptions (the first and its renewals) are
    /// under dispute now; a lease under dispute is not renewed.
    /// @param offerPrice The standing renewal offer's price in sSTB (0: no offer).
    /// @param offerExtension How far the offer moves the end, in seconds.
    /// @param offerValidUntil The last second the offer may be accepted.
    struct Lease {
        LeaseStatus status;
        address user;
        address provider;
        uint256 end;
        uint256 openDisputes;
        uint256 offerPrice;
        uint256 offerExtension;
        uint256 offerValidUntil;
    }

    /// @notice A dispute record, written only when a user opens one.
    /// @param issueType What is disputed.
    /// @param openedAt Block time the dispute was opened.
    /// @param respondedAt Block time of the provider's response, 0 if none.
    /// @param resolvedAt Block time of the ruling, 0 until then.
    /// @param userWon The ruling went to the user (only meaningful once resolved).
    /// @param providerSuspended The ruling suspended the provider.
    /// @param evidenceHash Hash of the user's evidence, kept off-chain.
    /// @param responseHash Hash of the provider's response, kept off-chain.
    struct Dispute {
        IssueType issueType;
        uint40 openedAt;
        uint40 respondedAt;
        uint40 resolvedAt;
        bool userWon;
        bool providerSuspended;
        bytes32 evidenceHash;
        bytes32 responseHash;
    }

    // --- errors (the spec's five revert strings are used verbatim where the spec fixes them) ---

    /// @notice No redemption has this id.
    error RedemptionNotFound(uint256 redemptionId);
    /// @notice The redemption is not in a status this operation accepts.
    error RedemptionInvalidStatus(uint256 redemptionId, RedemptionStatus status);
    /// @notice The caller is not the party of the redemption this operation is for.
    error RedemptionUnauthorized(uint256 redemptionId, address caller);
    /// @notice A redemption below the governed minimum amount (dust cannot move reputation).
    error RedemptionBelowMinimum(uint256 amount, uint256 minimum);
    /// @notice A provider cannot redeem against itself.
    error RedemptionByProvider(address provider);
    /// @notice The envelope given at fulfilment is empty.
    error RedemptionEmptyAccessDetails();
    /// @notice Expiry was asked before the fulfilment deadline passed.
    error RedemptionDeadlineNotPassed(uint256 redemptionId, uint256 deadline);
    /// @notice A dispute was opened after the dispute window closed.
    error DisputeWindowClosed(uint256 redemptionId, uint256 disputeDeadline);
    /// @notice Finalization was asked while the user may still dispute.
    error DisputeWindowOpen(uint256 redemptionId, uint256 disputeDeadline);
    /// @notice A dispute or response without its evidence hash.
    error DisputeEvidenceMissing();
    /// @notice The provider already responded to this dispute.
    error DisputeAlreadyAnswered(uint256 redemptionId);
    /// @notice A pending redemption can be disputed only once its fulfilment deadline has passed:
    /// until then the provider may still fulfil.
    error DisputeTooEarly(uint256 redemptionId, uint256 fulfilmentDeadline);
    /// @notice The dispute's resolution deadline has not passed; only the arbitrator rules before.
    error DisputeNotLapsed(uint256 redemptionId, uint256 resolutionDeadline);
    /// @notice A governed parameter is outside its bounds.
    error ParameterOutOfBounds(bytes32 parameter, uint256 value);
    /// @notice An access key of zero was given (zero means "no key").
    error AccessKeyInvalid();
    /// @notice A stated lease end outside `[earliest, latest]`: in the past (or now), or further
    /// than the governed maximum term from now.
    error LeaseEndOutOfRange(uint256 leaseEnd, uint256 earliest, uint256 latest);
    /// @notice The id is not a lease: not fulfilled, a renewal, or never issued.
    error LeaseNotFound(uint256 leaseId);
    /// @notice Only a lease with a stated end can be renewed (a renewal moves the end).
    error LeaseNotRenewable(uint256 leaseId);
    /// @notice The lease was terminated by its user.
    error LeaseAlreadyTerminated(uint256 leaseId);
    /// @notice The lease's stated end has passed.
    error LeaseEnded(uint256 leaseId, uint256 end);
    /// @notice One of the lease's redemptions is under dispute.
    error LeaseUnderDispute(uint256 leaseId, uint256 openDisputes);
    /// @notice The lease has no standing renewal offer (never made, withdrawn, or accepted).
    error RenewalOfferNotFound(uint256 leaseId);
    /// @notice The renewal offer's validity has passed.
    error RenewalOfferLapsed(uint256 leaseId, uint256 validUntil);
    /// @notice The standing offer is not the one the user accepted; its terms are given.
    error RenewalTermsMismatch(uint256 leaseId, uint256 price, uint256 extension);
    /// @notice An extension of 0, or one that would put the end further than the maximum term from
    /// now (`maxExtension` is the most allowed now).
    error RenewalExtensionOutOfRange(uint256 extension, uint256 maxExtension);
    /// @notice An offer validity outside `[earliest, latest]`: not in the future, or after the
    /// lease's end.
    error RenewalValidityOutOfRange(uint256 validUntil, uint256 earliest, uint256 latest);

    // --- events of the spec ---

    /// @notice A user redeemed `amount` sSTB with `provider` (sSTB burned, collateral locked).
    event RedemptionInitiated(uint256 indexed redemptionId, address indexed user, uint256 amount, address provider);
    /// @notice The provider fulfilled; `accessDetails` is an envelope encrypted to the user.
    event RedemptionFulfilled(uint256 indexed redemptionId, address indexed provider, string accessDetails);
    /// @notice The redemption completed: by the user's confirmation, or by anyone after the
    /// dispute window passed in silence. The provider's lock was released.
    event RedemptionConfirmed(uint256 indexed redemptionId, address indexed user);

    // --- events of the extension ---

    /// @notice The terms fixed at initiation: the fee paid to the treasury (in sSTB, on top of the
    /// amount), the collateral locked, and the fulfilment deadline.
    event RedemptionTerms(uint256 indexed redemptionId, uint256 fee, uint256 lock, uint256 deadline);
    /// @notice The deadline passed without fulfilment; the lock was paid out: `compensation` to the
    /// user, `penalty` (early exit during the provider's staking period) to the treasury.
    event RedemptionExpired(uint256 indexed redemptionId, address indexed user, uint256 compensation, uint256 penalty);
    /// @notice The user disputed the redemption.
    event DisputeOpened(uint256 indexed redemptionId, address indexed user, IssueType issueType, bytes32 evidenceHash);
    /// @notice The provider answered a dispute.
    event DisputeResponded(uint256 indexed redemptionId, address indexed provider, bytes32 responseHash);
    /// @notice An arbitrator ruled on a dispute. `compensation` is the lock paid to the user (0 if
    /// the provider won and the lock was released).
    event DisputeResolved(
        uint256 indexed redemptionId,
        address indexed arbitrator,
        bool userWon,
        bool providerSuspended,
        uint256 compensation
    );
    /// @notice Nobody ruled on a dispute by its resolution deadline and `by` closed it with the
    /// default outcome: a fulfilled redemption completes for the provider (`userWon` false), an
    /// unfulfilled one pays out as an expiry (`compensation` to the user, `penalty` to the
    /// treasury during the provider's stake).
    event DisputeLapsed(
        uint256 indexed redemptionId,
        address indexed by,
        bool userWon,
        uint256 compensation,
        uint256 penalty
    );
    /// @notice A governed parameter changed.
    event ParameterUpdated(bytes32 indexed parameter, uint256 previous, uint256 current);
    /// @notice Governance changed the fee recipient.
    event TreasuryUpdated(address previous, address current);

    // --- events of access keys and leases (DESIGN.md section 5b) ---

    /// @notice `user` registered (or replaced) the X25519 public key providers encrypt its access
    /// details to.
    event AccessKeyRegistered(address indexed user, bytes32 publicKey);
    /// @notice The provider fulfilled with a stated lease end (beside `RedemptionFulfilled`, in the
    /// same transaction). A fulfilment without this event is a lease with no stated end.
    event LeaseStarted(uint256 indexed leaseId, address indexed user, address indexed provider, uint256 end);
    /// @notice The provider offered (or replaced its offer of) a renewal: `price` sSTB moves the
    /// end by `extension` seconds if the user accepts by `validUntil`.
    event RenewalOffered(
        uint256 indexed leaseId,
        address indexed provider,
        uint256 price,
        uint256 extension,
        uint256 validUntil
    );
    /// @notice The provider withdrew its standing renewal offer.
    event RenewalOfferWithdrawn(uint256 indexed leaseId, address indexed provider);
    /// @notice The user accepted the renewal offer: the renewal is redemption `renewalId`
    /// (`RedemptionInitiated` in the same transaction; it starts fulfilled), `fee` went to the
    /// treasury, `lock` was locked from the provider's collateral, and the lease now ends at `end`.
    event LeaseRenewed(uint256 indexed leaseId, uint256 indexed renewalId, uint256 end, uint256 fee, uint256 lock);
    /// @notice The user ended the lease early; the provider reclaims the resources. Any standing
    /// renewal offer went with it. The lease's redemptions keep their state and dispute windows.
    event LeaseTerminated(uint256 indexed leaseId, address indexed user, address indexed provider);

    // --- the spec's operations ---

    /// @notice Redeems `amount` sSTB of the caller with `provider`.
    /// @dev Approve the manager for `amount + fee` sSTB first ({quoteFee}). Burns `amount`, sends
    /// the fee to the treasury, reserves the provider's capacity and locks 120% of its value from
    /// the provider's free collateral. The provider must be registered (any status) with enough
    /// available capacity, and must not be the caller; `amount` must reach the minimum.
    /// @return redemptionId The new id; ids are sequential from 1.
    function initiateRedemption(uint256 amount, address provider) external returns (uint256 redemptionId);

    /// @notice The provider hands over the access details, encrypted to the user, while the
    /// redemption is pending (also after the deadline, as long as nobody expired it).
    /// @dev Reverts `Only provider can fulfill` for anyone but the provider and `Already fulfilled`
    /// when it was fulfilled before.
    function fulfillRedemption(uint256 redemptionId, string calldata accessDetails) external;

    /// @notice The user confirms a fulfilled redemption: the lock is released, reputation rises.
    /// @dev Reverts `Only user can confirm`, `Not fulfilled yet` or `Already confirmed`.
    function confirmRedemption(uint256 redemptionId) external;

    // --- the extension ---

    /// @notice Completes a fulfilled redemption whose dispute window passed without a dispute, with
    /// the same effects and event as {confirmRedemption}. Anyone may call it, so a silent user
    /// cannot trap the provider's collateral.
    function finalizeRedemption(uint256 redemptionId) external;

    /// @notice Expires a pending redemption after its deadline: the lock is paid out (to the user,
    /// less the early-exit penalty to the treasury while the provider's staking period runs) and
    /// the provider's reputation falls. Anyone may call it.
    function expireRedemption(uint256 redemptionId) external;

    /// @notice The user disputes a pending redemption whose fulfilment deadline has passed, or a
    /// fulfilled one, within the dispute window after the request (pending) or the fulfilment
    /// (fulfilled).
    function openDispute(uint256 redemptionId, IssueType issueType, bytes32 evidenceHash) external;

    /// @notice The provider answers an open dispute, once.
    function respondToDispute(uint256 redemptionId, bytes32 responseHash) external;

    /// @notice An arbitrator rules on an open dispute. User wins: the lock goes to the user,
    /// reputation falls, and the provider is suspended if `suspendProvider` (and still active).
    /// Provider wins: the lock is released as on a confirmation.
    function resolveDispute(uint256 redemptionId, bool userWins, bool suspendProvider) external;

    /// @notice Closes a dispute nobody ruled on by its resolution deadline, with the default
    /// outcome of {DisputeLapsed}. Anyone may call it, so every dispute ends.
    function closeLapsedDispute(uint256 redemptionId) external;

    // --- access keys and leases (DESIGN.md section 5b) ---

    /// @notice Registers the caller's X25519 public key for access details, replacing any earlier
    /// one. Providers encrypt to the key registered when they fulfil.
    function registerAccessKey(bytes32 publicKey) external;

    /// @notice {initiateRedemption} with the caller's access key registered (or replaced) in the
    /// same transaction.
    /// @return redemptionId The new id.
    function initiateRedemptionWithAccessKey(
        uint256 amount,
        address provider,
        bytes32 publicKey
    ) external returns (uint256 redemptionId);

    /// @notice {fulfillRedemption} with a stated lease end: the resources are the user's until
    /// `leaseEnd` (Unix seconds), which must be in the future and at most {maxLeaseTerm} from now.
    /// @dev Same checks and spec revert strings as {fulfillRedemption}; emits `RedemptionFulfilled`
    /// and `LeaseStarted`.
    function fulfillRedemptionWithLease(uint256 redemptionId, string calldata accessDetails, uint256 leaseEnd) external;

    /// @notice The lease's provider offers a renewal: `price` sSTB (at least the minimum
    /// redemption) for moving the end by `extension` seconds (the new end at most {maxLeaseTerm}
    /// from now), open until `validUntil` (in the future, at most the lease's end). Replaces any
    /// standing offer. Only a running, undisputed lease with a stated end.
    function offerRenewal(uint256 leaseId, uint256 price, uint256 extension, uint256 validUntil) external;

    /// @notice The lease's provider withdraws its standing renewal offer.
    function withdrawRenewalOffer(uint256 leaseId) external;

    /// @notice The lease's user accepts the standing renewal offer, naming the `price` and
    /// `extension` it saw: if the offer changed, the call reverts. The renewal is a redemption of
    /// `price` with the lease's provider (burned, fee to the treasury, capacity reserved and
    /// collateral locked), created fulfilled, confirmed or disputed like any other; the lease's end
    /// moves by `extension`. Only before the lease ends, the offer lapses, and while nothing of the
    /// lease is disputed; approve `price + fee` first ({quoteFee}).
    /// @return renewalId The renewal's redemption id.
    function acceptRenewal(uint256 leaseId, uint256 price, uint256 extension) external returns (uint256 renewalId);

    /// @notice The lease's user ends it before its end; the provider reclaims the resources. The
    /// lease's redemptions are untouched: their dispute windows run on, and finalization after the
    /// window releases their locks.
    function terminateLease(uint256 leaseId) external;

    // --- views ---

    /// @notice The spec's on-chain record; all zero for an id never issued.
    function redemptions(
        uint256 redemptionId
    )
        external
        view
        returns (address user, uint256 amount, uint256 timestamp, address provider, bool fulfilled, bool confirmed);

    /// @notice The full stored record.
    function redemptionOf(uint256 redemptionId) external view returns (Redemption memory);

    /// @notice The status: pending, fulfilled, confirmed, expired, disputed or resolved.
    function redemptionStatus(uint256 redemptionId) external view returns (RedemptionStatus);

    /// @notice The fulfilment deadline, and the end of the dispute window counted from the
    /// fulfilment if there was one, otherwise from the request.
    function deadlinesOf(
        uint256 redemptionId
    ) external view returns (uint256 fulfilmentDeadline, uint256 disputeDeadline);

    /// @notice The dispute record of a redemption (all zero if none was opened).
    function disputeOf(uint256 redemptionId) external view returns (Dispute memory);

    /// @notice When an open dispute may be closed by anyone with the default outcome (0 if the
    /// redemption was never disputed).
    function disputeResolutionDeadline(uint256 redemptionId) external view returns (uint256);

    /// @notice The fee for redeeming `amount`, and the total sSTB to approve.
    function quoteFee(uint256 amount) external view returns (uint256 fee, uint256 total);

    /// @notice How many redemptions were initiated; also the last id issued.
    function redemptionCount() external view returns (uint256);

    /// @notice The provider registry and collateral vault.
    function registry() external view returns (IProviderRegistry);

    /// @notice The X25519 public key `user` registered for access details (0 if none).
    function accessKeyOf(address user) external view returns (bytes32);

    /// @notice A lease: the redemption `leaseId` once fulfilled, with its renewals.
    function leaseOf(uint256 leaseId) external view returns (Lease memory);

    /// @notice Where a lease is; `None` for an id that is not a lease (no revert).
    function leaseStatus(uint256 leaseId) external view returns (LeaseStatus);

    /// @notice The lease a redemption belongs to: its own id for a fulfilled redemption, the
    /// renewed lease for a renewal, 0 for a redemption not (yet) fulfilled.
    function leaseIdOf(uint256 redemptionId) external view returns (uint256);

    /// @notice The longest a lease may run from now, at fulfilment or after a renewal, in seconds.
    function maxLeaseTerm() external view returns (uint256);
}
