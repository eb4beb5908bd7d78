// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

// TEST DOUBLE for the upgrade tests (test/contracts/upgrades/Reinitialize.test.ts); never deployed on a chain.
// A frozen copy of `contracts/interfaces/IProviderRegistry.sol` at commit 2c890a0, the last implementation before
// `guardianPauseDuration`, `disputeResolutionPeriod`, `minRedemptionAmount` and `reputationUnit`
// existed. Changed only so that it compiles beside today's code: contracts and interfaces renamed
// with a `V1` suffix, import paths adjusted. Storage namespaces are the originals, on purpose.
/// @title IProviderRegistryV1
/// @notice Providers of compute capacity: their profile, tier, status and reputation, and the
/// collateral vault that backs their capacity.
interface IProviderRegistryV1 {
    /// @notice `None` for an unregistered account; see DESIGN.md section 9 for the transitions.
    enum ProviderStatus {
        None,
        Pending,
        Active,
        Suspended
    }

    /// @notice Quality tier, which fixes the redemption deadline (24 h, 6 h, 1 h).
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
    /// @notice A redemption succeeded: its lock went back to the provider's free collateral. Counts
    /// as one finished and one successful redemption with `responseTime` seconds in the statistics.
    event CollateralReleased(address indexed provider, uint256 lock, uint256 responseTime);
    /// @notice A redemption failed: its lock was paid to a user as compensation. Counts as one
    /// finished, unsuccessful redemption in the statistics.
    event CollateralPaidOut(address indexed provider, address indexed recipient, uint256 lock);
    /// @notice A governed parameter changed.
    event ParameterUpdated(bytes32 indexed parameter, uint256 previous, uint256 current);

    // --- provider operations ---

    /// @notice Registers the caller as a provider of `tier`, `Pending` until approved.
    function register(ProviderProfile calldata profile, Tier tier) external;

    /// @notice Replaces the caller's profile.
    function updateProfile(ProviderProfile calldata profile) external;

    /// @notice Deposits `amount` collateral from the caller (approve the registry first).
    function depositCollateral(uint256 amount) external;

    /// @notice Withdraws `amount` of the caller's excess free collateral, after its staking period.
    function withdrawCollateral(uint256 amount) external;

    // --- status (roles) ---

    /// @notice Approves a pending provider (approver role).
    function approveProvider(address provider) external;

    /// @notice Suspends a pending or active provider (arbitrator or governance role, or the
    /// redemption manager carrying out an arbitrator's ruling).
    function suspendProvider(address provider) external;

    /// @notice Reinstates a suspended provider (governance role).
    function reinstateProvider(address provider) external;

    // --- hooks ---

    /// @notice Minting agent: credits `collateralAmount` (already transferred to the vault) and
    /// `cuValue` of capacity, and extends the staking period.
    function recordMint(address provider, uint256 cuValue, uint256 collateralAmount, uint256 stakingPeriod) external;

    /// @notice Minting agent: removes `amount` of capacity whose sSTB the provider burned.
    function recordRetire(address provider, uint256 amount) external;

    /// @notice Redemption manager: reserves `amount` of an active provider's capacity and locks its
    /// collateral.
    /// @return lock The collateral locked for this redemption.
    /// @return tier The provider's tier, which fixes the redemption's deadline.
    function reserveCapacity(address provider, uint256 amount) external returns (uint256 lock, Tier tier);

    /// @notice Redemption manager: returns `lock` to free collateral after a successful redemption,
    /// raises reputation and records the redemption and its `responseTime` (seconds) in the
    /// provider's statistics.
    function releaseLock(address provider, uint256 lock, uint256 responseTime) external;

    /// @notice Redemption manager: pays `lock` to `recipient` after a failed redemption, lowers
    /// reputation and records an unsuccessful redemption in the provider's statistics.
    function payOutLock(address provider, uint256 lock, address recipient) external;

    // --- views ---

    /// @notice The collateral token of the vault.
    function collateralToken() external view returns (IERC20);

    /// @notice Collateral needed to back `value` sSTB of capacity at the current ratio and price.
    function requiredCollateral(uint256 value) external view returns (uint256);

    /// @notice A provider's accounting state.
    function accountOf(address provider) external view returns (ProviderAccount memory);

    /// @notice A provider's full detail (accounting and profile).
    function providerInfo(address provider) external view returns (ProviderInfo memory);

    /// @notice Free collateral the provider could withdraw once its staking period has ended.
    function excessCollateral(address provider) external view returns (uint256);

    /// @notice A provider's redemption statistics, as the API's provider detail shows them.
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
