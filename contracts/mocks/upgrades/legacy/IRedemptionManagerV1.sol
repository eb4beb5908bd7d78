// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IProviderRegistryV1} from "./IProviderRegistryV1.sol";

// TEST DOUBLE for the upgrade tests (test/contracts/upgrades/Reinitialize.test.ts); never deployed on a chain.
// A frozen copy of `contracts/interfaces/IRedemptionManager.sol` at commit 2c890a0, the last implementation before
// `guardianPauseDuration`, `disputeResolutionPeriod`, `minRedemptionAmount` and `reputationUnit`
// existed. Changed only so that it compiles beside today's code: contracts and interfaces renamed
// with a `V1` suffix, import paths adjusted. Storage namespaces are the originals, on purpose.
/// @title IRedemptionManagerV1
/// @notice The redemption state machine: a holder burns sSTB to claim compute from a provider, the
/// provider fulfils with encrypted access details, and the holder confirms or disputes. The
/// provider's collateral for the redemption stays locked until the redemption ends.
/// @dev The spec fixes `initiateRedemption`, `fulfillRedemption`, `confirmRedemption`, the
/// `redemptions` getter, the three `Redemption*` events of the spec and five revert strings; the
/// rest (expiry, finalization, disputes, views, parameters) extends it (DESIGN.md section 5).
interface IRedemptionManagerV1 {
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

    /// @notice What a user disputes (docs/decisions/0012-disputes-and-rulings.md lists when to use which).
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

    /// @notice A redemption as stored, in three slots.
    /// @param user Who redeemed; receives compensation if the provider fails.
    /// @param timestamp Block time of the request.
    /// @param deadline Fulfilment deadline: request time plus the provider's tier time.
    /// @param status Current status.
    /// @param provider Who must fulfil.
    /// @param fulfilledAt Block time of the fulfilment, 0 until then.
    /// @param amount sSTB redeemed (burned at initiation), base units.
    /// @param lock Provider collateral locked for this redemption until it ends.
    struct Redemption {
        address user;
        uint40 timestamp;
        uint40 deadline;
        RedemptionStatus status;
        address provider;
        uint40 fulfilledAt;
        uint128 amount;
        uint128 lock;
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
    /// @notice A redemption of zero sSTB.
    error RedemptionZeroAmount();
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
    /// @notice A governed parameter is outside its bounds.
    error ParameterOutOfBounds(bytes32 parameter, uint256 value);

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
    /// @notice The deadline passed without fulfilment; the lock went to the user.
    event RedemptionExpired(uint256 indexed redemptionId, address indexed user, uint256 compensation);
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
    /// @notice A governed parameter changed.
    event ParameterUpdated(bytes32 indexed parameter, uint256 previous, uint256 current);
    /// @notice Governance changed the fee recipient.
    event TreasuryUpdated(address previous, address current);

    // --- the spec's operations ---

    /// @notice Redeems `amount` sSTB of the caller with `provider`.
    /// @dev Approve the manager for `amount + fee` sSTB first ({quoteFee}). Burns `amount`, sends
    /// the fee to the treasury, reserves the provider's capacity and locks 120% of its value from
    /// the provider's free collateral. The provider must be active with enough available capacity.
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

    /// @notice Expires a pending redemption after its deadline: the lock is paid to the user and
    /// the provider's reputation falls. Anyone may call it.
    function expireRedemption(uint256 redemptionId) external;

    /// @notice The user disputes a pending or fulfilled redemption within the dispute window after
    /// the request (pending) or the fulfilment (fulfilled).
    function openDispute(uint256 redemptionId, IssueType issueType, bytes32 evidenceHash) external;

    /// @notice The provider answers an open dispute, once.
    function respondToDispute(uint256 redemptionId, bytes32 responseHash) external;

    /// @notice An arbitrator rules on an open dispute. User wins: the lock goes to the user,
    /// reputation falls, and the provider is suspended if `suspendProvider` (and still active).
    /// Provider wins: the lock is released as on a confirmation.
    function resolveDispute(uint256 redemptionId, bool userWins, bool suspendProvider) external;

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

    /// @notice The fee for redeeming `amount`, and the total sSTB to approve.
    function quoteFee(uint256 amount) external view returns (uint256 fee, uint256 total);

    /// @notice How many redemptions were initiated; also the last id issued.
    function redemptionCount() external view returns (uint256);

    /// @notice The provider registry and collateral vault.
    function registry() external view returns (IProviderRegistryV1);
}
