// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IProviderRegistry} from "./IProviderRegistry.sol";
import {IRedemptionManager} from "./IRedemptionManager.sol";

/// @title IRedemptionViews
/// @notice Every read of the redemption manager beyond the spec's `redemptions` getter: the full
/// record, its status and deadlines, disputes, leases, the fee quote, access keys and the governed
/// parameters. Served by a read contract from the manager's storage (the manager's `extsload`), so
/// the manager's bytecode holds its operations only (issue 23). Reverts with the manager's errors
/// (`RedemptionNotFound`, `LeaseNotFound`) where the manager's own views did.
interface IRedemptionViews {
    /// @notice The redemption manager whose storage this contract reads.
    function manager() external view returns (IRedemptionManager);

    /// @notice The full stored record.
    function redemptionOf(uint256 redemptionId) external view returns (IRedemptionManager.Redemption memory);

    /// @notice The status: pending, fulfilled, confirmed, expired, disputed or resolved.
    function redemptionStatus(uint256 redemptionId) external view returns (IRedemptionManager.RedemptionStatus);

    /// @notice The fulfilment deadline, and the end of the dispute window (its last second): counted
    /// from the start of the period a renewal paid for, from the fulfilment of any other fulfilled
    /// redemption, otherwise from the request.
    function deadlinesOf(
        uint256 redemptionId
    ) external view returns (uint256 fulfilmentDeadline, uint256 disputeDeadline);

    /// @notice The dispute record of a redemption (all zero if none was opened).
    function disputeOf(uint256 redemptionId) external view returns (IRedemptionManager.Dispute memory);

    /// @notice When an open dispute may be closed by anyone with the default outcome (0 if the
    /// redemption was never disputed).
    function disputeResolutionDeadline(uint256 redemptionId) external view returns (uint256);

    /// @notice The fee for redeeming `amount`, and the total sSTB to approve.
    function quoteFee(uint256 amount) external view returns (uint256 fee, uint256 total);

    /// @notice How many redemptions were initiated; also the last id issued.
    function redemptionCount() external view returns (uint256);

    /// @notice The X25519 public key `user` registered for access details (0 if none).
    function accessKeyOf(address user) external view returns (bytes32);

    /// @notice A lease: the redemption `leaseId` once fulfilled, with its renewals.
    function leaseOf(uint256 leaseId) external view returns (IRedemptionManager.Lease memory);

    /// @notice Where a lease is; `None` for an id that is not a lease (no revert).
    function leaseStatus(uint256 leaseId) external view returns (IRedemptionManager.LeaseStatus);

    /// @notice The lease a redemption belongs to: its own id for a fulfilled redemption, the
    /// renewed lease for a renewal, 0 for a redemption not (yet) fulfilled.
    function leaseIdOf(uint256 redemptionId) external view returns (uint256);

    /// @notice The start of the period a renewal paid for (the lease's end when it was accepted); 0
    /// for a redemption that is not a renewal, or a renewal accepted before issue 23.
    function renewalPeriodStart(uint256 redemptionId) external view returns (uint256);

    /// @notice The longest a lease may run from now, at fulfilment or after a renewal, in seconds.
    function maxLeaseTerm() external view returns (uint256);

    /// @notice The redemption fee in basis points.
    function feeBps() external view returns (uint256);

    /// @notice The account that receives redemption fees.
    function treasury() external view returns (address);

    /// @notice Fulfilment time of a tier, in seconds.
    function tierDeadline(IProviderRegistry.Tier tier) external view returns (uint256);

    /// @notice The dispute window, in seconds.
    function disputeWindow() external view returns (uint256);

    /// @notice How long the arbitrator has to rule on a dispute, in seconds.
    function disputeResolutionPeriod() external view returns (uint256);

    /// @notice The smallest amount a redemption may have, in sSTB base units.
    function minRedemptionAmount() external view returns (uint256);

    /// @notice The sSTB value that moves reputation by one reward or penalty.
    function reputationUnit() external view returns (uint256);
}
