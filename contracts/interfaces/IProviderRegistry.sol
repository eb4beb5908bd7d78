// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @title IProviderRegistry
/// @notice Providers of compute capacity: their profile, tier, status and reputation, and the
/// collateral vault that backs their capacity.
interface IProviderRegistry {
    /// @notice `None` for an unregistered account; see DESIGN.md section 9 for the transitions.
    enum ProviderStatus {
        None,
        Pending,
        Active,
        Suspended
    }

    /// @notice Quality tier, which fixes the redemption deadline (24 h, 6 h, 1 h). Set once, at
    /// registration: the redemption manager keeps a copy with the provider's index.
    enum Tier {
        Standard,
        Premium,
        Enterprise
    }

    /// @notice The descriptive part of a provider, as the API's provider detail shows it.
    struct ProviderProfile {
        string name;
        string country;
        string region;
        string email;
        string website;
        string cpuType;
        uint32 totalCpuCores;
        uint32 totalRamGb;
        uint32 totalStorageGb;
        uint32 networkCapacityMbps;
    }

    /// @notice The accounting part of a provider, packed in three slots.
    /// @param reputation 0..10_000 (shown as 0..100.00), starts at 5_000.
    /// @param stakedUntil Capacity may be retired and excess collateral withdrawn from this time on.
    /// @param availableCU Verified capacity not yet redeemed, in sSTB base units.
    /// @param totalCU Verified capacity not yet retired, in sSTB base units.
    /// @param freeCollateral Collateral backing `availableCU` plus any excess.
    /// @param lockedCollateral Collateral locked for open redemptions.
    struct ProviderAccount {
        ProviderStatus status;
        Tier tier;
        uint16 reputation;
        uint40 registeredAt;
        uint40 stakedUntil;
        uint32 totalRedemptions;
        uint32 successfulRedemptions;
        uint64 totalResponseTime;
        uint128 availableCU;
        uint128 totalCU;
        uint128 freeCollateral;
        uint128 lockedCollateral;
    }

    /// @notice A provider as the API's provider detail shows it.
    struct ProviderInfo {
        address provider;
        ProviderAccount account;
        ProviderProfile profile;
    }

    // --- errors ---

    /// @notice The account is already registered.
    error ProviderAlreadyRegistered(address provider);
    /// @notice The account is not a registered provider.
    error ProviderNotRegistered(address provider);
    /// @notice The provider is not in the status this operation needs.
    error ProviderInvalidStatus(address provider, ProviderStatus current);
    /// @notice A profile field is empty or too long.
    error ProviderInvalidProfile(string field);
    /// @notice An amount of zero was given.
    error ZeroAmount();
    /// @notice The provider's free collateral does not cover what the operation needs.
    error InsufficientCollateral(uint256 needed, uint256 available);
    /// @notice The provider has less available capacity than the operation needs.
    error InsufficientCapacity(uint256 needed, uint256 available);
    /// @notice The provider's staking period has not ended.
    error StakingPeriodActive(uint256 stakedUntil);
    /// @notice The staking period is outside the governed bounds.
    error StakingPeriodOutOfBounds(uint256 stakingPeriod, uint256 min, uint256 max);
    /// @notice A lock larger than the provider's locked collateral was released or paid out.
    error LockExceedsLocked(uint256 lock, uint256 locked);
    /// @notice A governed parameter is outside its bounds.
    error ParameterOutOfBounds(bytes32 parameter, uint256 value);
    /// @notice The profile the approver reviewed (its hash) is not the provider's profile now.
    error ProviderProfileMismatch(bytes32 reviewed, bytes32 current);
    /// @notice A suspended provider's collateral stays in the vault while it backs capacity or
    /// open redemptions.
    error ProviderCollateralHeld(uint256 availableCU, uint256 lockedCollateral);

    // --- events ---

    /// @notice A provider registered; it starts `Pending` with reputation 5_000.
    event ProviderRegistered(address indexed provider, Tier tier, ProviderProfile profile);
    /// @notice A provider replaced its profile.
    event ProviderProfileUpdated(address indexed provider, ProviderProfile profile);
    /// @notice A provider's status changed (approve, suspend, reinstate).
    event ProviderStatusChanged(address indexed provider, ProviderStatus previous, ProviderStatus current, address by);
    /// @notice A provider's reputation changed.
    event ReputationChanged(address indexed provider, uint16 previous, uint16 current);
    /// @notice Collateral entered the vault for `provider` (deposit or minting).
    event CollateralDeposited(address indexed provider, uint256 amount);
    /// @notice Excess free collateral left the vault to the provider.
    event CollateralWithdrawn(address indexed provider, uint256 amount);
    /// @notice Verified capacity was added to a provider (minting).
    event CapacityAdded(address indexed provider, uint256 cuValue, uint256 availableCU, uint256 stakedUntil);
    /// @notice Capacity was retired by its provider.
    event CapacityRetired(address indexed provider, uint256 amount, uint256 availableCU);
    /// @notice Capacity was reserved for a redemption and its collateral locked.
    event CollateralLocked(address indexed provider, uint256 amount, uint256 lock);
    /// @notice A redemption succeeded: its lock went back to the provider's free collateral. With a
    /// `weight` above 0 it counts as one finished and one successful redemption with
    /// `responseTime` seconds in the statistics, and raises reputation by reward x weight.
    event CollateralReleased(address indexed provider, uint256 lock, uint256 responseTime, uint256 weight);
    /// @notice A redemption failed: its lock was paid out, `compensation` to the user and
    /// `penalty` (the early-exit penalty while the provider's staking period runs) to the treasury.
    /// With a `weight` above 0 it counts as one finished, unsuccessful redemption in the statistics
    /// and lowers reputation by penalty x weight.
    event CollateralPaidOut(
        address indexed provider,
        address indexed recipient,
        uint256 compensation,
        uint256 penalty,
        uint256 weight
    );
    /// @notice A governed parameter changed.
    event ParameterUpdated(bytes32 indexed parameter, uint256 previous, uint256 current);

    // --- provider operations ---

    /// @notice Registers the caller as a provider of `tier`, `Pending` until approved.
    function register(ProviderProfile calldata profile, Tier tier) external;

    /// @notice Replaces the caller's profile. An active provider whose reviewed part (see
    /// {hashReviewedProfile}) changes goes back to `Pending` until approved again; contact details
    /// (email, website) change freely.
    function updateProfile(ProviderProfile calldata profile) external;

    /// @notice Deposits `amount` collateral from the caller (approve the registry first).
    function depositCollateral(uint256 amount) external;

    /// @notice Withdraws `amount` of the caller's excess free collateral, after its staking period.
    /// A suspended provider withdraws nothing while it backs capacity or open redemptions.
    function withdrawCollateral(uint256 amount) external;

    // --- status (roles) ---

    /// @notice Approves a pending provider (approver role), bound to the profile reviewed.
    /// @param reviewedProfileHash {hashReviewedProfile} of the profile and tier the approver
    /// reviewed; the approval reverts if the provider's profile differs from it now.
    function approveProvider(address provider, bytes32 reviewedProfileHash) external;

    /// @notice Suspends a pending or active provider (arbitrator or governance role, or the
    /// redemption manager carrying out an arbitrator's ruling).
    function suspendProvider(address provider) external;

    /// @notice Reinstates a suspended provider (governance role), bound to the profile the
    /// proposal reviewed, as an approval is.
    /// @param reviewedProfileHash {hashReviewedProfile} of the profile and tier governance reviewed.
    function reinstateProvider(address provider, bytes32 reviewedProfileHash) external;

    // --- hooks ---

    /// @notice Minting agent: credits `collateralAmount` (already transferred to the vault) and
    /// `cuValue` of capacity, and extends the staking period.
    function recordMint(address provider, uint256 cuValue, uint256 collateralAmount, uint256 stakingPeriod) external;

    /// @notice Minting agent: removes `amount` of capacity whose sSTB the provider burned.
    function recordRetire(address provider, uint256 amount) external;

    /// @notice Redemption manager: reserves `amount` of a provider's capacity and locks its
    /// collateral. Any provider with the capacity qualifies, whatever its status: the sSTB a
    /// suspended (or re-reviewed) provider backs stays redeemable against it. An unregistered
    /// account has no capacity and fails with `InsufficientCapacity`.
    /// @return lock The collateral locked for this redemption.
    /// @return ratioBps The collateral ratio the lock was taken at: the share of the lock above
    /// 100% of the value is what an early-exit penalty may take, whatever the ratio later becomes.
    function reserveCapacity(address provider, uint256 amount) external returns (uint256 lock, uint256 ratioBps);

    /// @notice Redemption manager: returns `lock` to free collateral after a successful redemption.
    /// With `weight` and `lock` above 0 it raises reputation by reward x weight and records the
    /// redemption and its `responseTime` (seconds) in the provider's statistics; otherwise
    /// neither moves.
    function releaseLock(address provider, uint256 lock, uint256 responseTime, uint256 weight) external;

    /// @notice Redemption manager: pays `lock` out after a failed redemption. While the provider's
    /// staking period runs and `penaltyRecipient` is set (expiries), the user receives the value
    /// of the lock at 100% (lock x 10,000 / `lockRatioBps`, the ratio the lock was taken at) and
    /// the over-collateralization goes to `penaltyRecipient`; otherwise (rulings, or after the
    /// staking period) the user receives the whole lock. With `weight` and `lock` above 0 it lowers
    /// reputation by penalty x weight and records an unsuccessful redemption in the statistics.
    /// @return compensation Paid to `recipient`.
    /// @return penalty Paid to `penaltyRecipient`.
    function payOutLock(
        address provider,
        uint256 lock,
        address recipient,
        address penaltyRecipient,
        uint256 lockRatioBps,
        uint256 weight
    ) external returns (uint256 compensation, uint256 penalty);

    // --- views ---

    /// @notice The collateral token of the vault.
    function collateralToken() external view returns (IERC20);

    /// @notice Collateral needed to back `value` sSTB of capacity at the current ratio and price.
    function requiredCollateral(uint256 value) external view returns (uint256);

    /// @notice The hash an approval binds: the reviewed part of a profile (name, country, region,
    /// cpu type and the four capacity figures) and the tier.
    function hashReviewedProfile(ProviderProfile calldata profile, Tier tier) external pure returns (bytes32);

    /// @notice {hashReviewedProfile} of a provider's profile and tier as stored now.
    function reviewedProfileHash(address provider) external view returns (bytes32);

    /// @notice A provider's accounting state.
    function accountOf(address provider) external view returns (ProviderAccount memory);

    /// @notice A provider's status (`None` if unregistered) and tier.
    function statusAndTierOf(address provider) external view returns (ProviderStatus status, Tier tier);

    /// @notice A provider's full detail (accounting and profile).
    function providerInfo(address provider) external view returns (ProviderInfo memory);

    /// @notice Free collateral the provider could withdraw once its staking period has ended.
    function excessCollateral(address provider) external view returns (uint256);

    /// @notice A provider's redemption statistics, as the API's provider detail shows them. Only
    /// redemptions of at least one reputation unit count (weight above 0).
    /// @return total Finished redemptions (confirmed, expired or resolved).
    /// @return successful Redemptions that released their lock (confirmed, or won by the provider).
    /// @return averageResponseMinutes Mean time from request to fulfilment over successful
    /// redemptions, in whole minutes (0 when there are none).
    function providerStats(
        address provider
    ) external view returns (uint256 total, uint256 successful, uint256 averageResponseMinutes);

    /// @notice Number of registered providers.
    function providerCount() external view returns (uint256);

    /// @notice Registered providers `[offset, offset + limit)` in registration order.
    function providers(uint256 offset, uint256 limit) external view returns (address[] memory page);
}
