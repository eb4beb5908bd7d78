// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

import {IProviderRegistry} from "../interfaces/IProviderRegistry.sol";
import {CollateralMath} from "../libraries/CollateralMath.sol";
import {Roles} from "../libraries/Roles.sol";
import {ProtocolUpgradeable} from "../utils/ProtocolUpgradeable.sol";

/// @title ProviderRegistry
/// @notice Registers providers of compute capacity and holds the collateral that backs their
/// capacity. The vault keeps, per provider, free collateral (backing `availableCU` plus any excess)
/// and locked collateral (backing open redemptions); its token balance is their sum.
/// @dev Invariants (DESIGN.md section 4), kept by every function here:
///  - vault balance == sum(freeCollateral) + sum(lockedCollateral);
///  - freeCollateral >= required(availableCU) for every provider, unless governance repriced
///    collateral upward, in which case the provider must top up before new redemptions lock.
/// The minting agent and redemption manager move capacity and collateral only through the hooks.
contract ProviderRegistry is ProtocolUpgradeable, ReentrancyGuardTransient, IProviderRegistry {
    using SafeERC20 for IERC20;
    using SafeCast for uint256;

    /// @notice Highest reputation (DESIGN.md section 9: 0..10_000, shown as 0..100.00).
    uint16 public constant MAX_REPUTATION = 10_000;
    /// @notice Reputation of a newly registered provider.
    uint16 public constant INITIAL_REPUTATION = 5_000;

    /// @notice Lowest collateral ratio governance may set: 100%, never under-collateralized.
    uint256 public constant MIN_COLLATERAL_RATIO_BPS = 10_000;
    /// @notice Highest collateral ratio governance may set: 300%.
    uint256 public constant MAX_COLLATERAL_RATIO_BPS = 30_000;
    /// @notice Highest collateral price per sSTB; keeps `ratio * price` far from overflow.
    uint256 public constant MAX_COLLATERAL_PER_CU = 1e30;
    /// @notice Shortest minimum staking period governance may set.
    uint256 public constant MIN_STAKING_PERIOD_FLOOR = 1 hours;
    /// @notice Longest maximum staking period governance may set.
    uint256 public constant MAX_STAKING_PERIOD_CEILING = 5 * 365 days;
    /// @notice Largest reputation reward or penalty governance may set.
    uint256 public constant MAX_REPUTATION_DELTA = 5_000;

    bytes32 internal constant PARAM_COLLATERAL_RATIO = "collateralRatioBps";
    bytes32 internal constant PARAM_COLLATERAL_PER_CU = "collateralPerCU";
    bytes32 internal constant PARAM_MIN_STAKING = "minStakingPeriod";
    bytes32 internal constant PARAM_MAX_STAKING = "maxStakingPeriod";
    bytes32 internal constant PARAM_REPUTATION_REWARD = "reputationReward";
    bytes32 internal constant PARAM_REPUTATION_PENALTY = "reputationPenalty";

    uint256 private constant MAX_SHORT_FIELD = 64;
    uint256 private constant MAX_LONG_FIELD = 256;

    /// @dev The pricing pair (ratio, price) is read by every capacity computation (a mint, a
    /// redemption, a withdrawal), so since issue 19 it lives in one slot, the second, beside the
    /// longest staking period: one cold read where the first layout took two (2,100 gas per
    /// redemption and per mint). The first layout's two fields stay where they were and are read
    /// only by a proxy upgraded from it until governance next sets either parameter, which writes
    /// the pair (see {_pricing}); nothing else ever writes them.
    /// @custom:storage-location erc7201:computeprotocol.storage.ProviderRegistry
    struct ProviderRegistryStorage {
        IERC20 collateralToken;
        uint16 collateralRatioBps; // first layout, see above
        uint16 reputationReward;
        uint16 reputationPenalty;
        uint40 minStakingPeriod;
        uint40 maxStakingPeriod;
        uint16 ratioBps; // the pricing pair, second slot
        uint128 pricePerCU; // <= MAX_COLLATERAL_PER_CU < 2^100; 0 until first written
        uint256 collateralPerCU; // first layout, see above
        mapping(address provider => ProviderAccount) accounts;
        mapping(address provider => ProviderProfile) profiles;
        address[] providerList;
    }

    // keccak256(abi.encode(uint256(keccak256("computeprotocol.storage.ProviderRegistry")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant STORAGE_LOCATION = 0xcdfd4b6588edcf9ceab11de99e253b6f37a36ebc8a43605661f1435b33c3e800;

    /// @notice Initializes the proxy.
    /// @param admin Receives the admin, governance and upgrader roles (handed to the timelock).
    /// @param token The collateral stablecoin of this chain.
    /// @param collateralPerCU_ Collateral base units per whole sSTB of capacity.
    function initialize(address admin, IERC20 token, uint256 collateralPerCU_) external initializer {
        __ProtocolUpgradeable_init(admin);
        if (address(token) == address(0)) revert ZeroAddress();
        ProviderRegistryStorage storage $ = _storage();
        $.collateralToken = token;
        _checkCollateralRatio(12_000);
        _checkCollateralPerCU(collateralPerCU_);
        emit ParameterUpdated(PARAM_COLLATERAL_RATIO, 0, 12_000);
        emit ParameterUpdated(PARAM_COLLATERAL_PER_CU, 0, collateralPerCU_);
        _writePricing($, 12_000, collateralPerCU_);
        _setStakingPeriodBounds($, 7 days, 365 days);
        _setReputationDeltas($, 100, 500);
    }

    // ---------------------------------------------------------------------------------------------
    // Provider operations
    // ---------------------------------------------------------------------------------------------

    /// @inheritdoc IProviderRegistry
    function register(ProviderProfile calldata profile, Tier tier) external {
        ProviderRegistryStorage storage $ = _storage();
        ProviderAccount storage account = $.accounts[msg.sender];
        if (account.status != ProviderStatus.None) revert ProviderAlreadyRegistered(msg.sender);
        _validateProfile(profile);

        account.status = ProviderStatus.Pending;
        account.tier = tier;
        account.reputation = INITIAL_REPUTATION;
        account.registeredAt = uint40(block.timestamp);
        $.profiles[msg.sender] = profile;
        $.providerList.push(msg.sender);

        emit ProviderRegistered(msg.sender, tier, profile);
    }

    /// @inheritdoc IProviderRegistry
    /// @dev The approval covered the reviewed part of the profile; a change there sends an active
    /// provider back to review. Reading the stored profile here costs little: the same slots are
    /// written right after, so their cold access is paid once.
    function updateProfile(ProviderProfile calldata profile) external {
        ProviderRegistryStorage storage $ = _storage();
        ProviderAccount storage account = _requireRegistered($, msg.sender);
        _validateProfile(profile);
        ProviderStatus status = account.status;
        bool reviewedPartChanged =
            status == ProviderStatus.Active &&
                _hashReviewed($.profiles[msg.sender], account.tier) != hashReviewedProfile(profile, account.tier);
        $.profiles[msg.sender] = profile;
        emit ProviderProfileUpdated(msg.sender, profile);
        if (reviewedPartChanged) {
            account.status = ProviderStatus.Pending;
            emit ProviderStatusChanged(msg.sender, status, ProviderStatus.Pending, msg.sender);
        }
    }

    /// @inheritdoc IProviderRegistry
    function depositCollateral(uint256 amount) external nonReentrant {
        if (amount == 0) revert ZeroAmount();
        ProviderRegistryStorage storage $ = _storage();
        ProviderAccount storage account = _requireRegistered($, msg.sender);
        account.freeCollateral = (account.freeCollateral + amount).toUint128();
        emit CollateralDeposited(msg.sender, amount);
        $.collateralToken.safeTransferFrom(msg.sender, address(this), amount);
    }

    /// @inheritdoc IProviderRegistry
    function withdrawCollateral(uint256 amount) external nonReentrant {
        if (amount == 0) revert ZeroAmount();
        ProviderRegistryStorage storage $ = _storage();
        ProviderAccount storage account = _requireRegistered($, msg.sender);
        if (block.timestamp < account.stakedUntil) revert StakingPeriodActive(account.stakedUntil);
        if (account.status == ProviderStatus.Suspended && (account.availableCU != 0 || account.lockedCollateral != 0)) {
            revert ProviderCollateralHeld(account.availableCU, account.lockedCollateral);
        }
        uint256 excess = _excess($, account);
        if (amount > excess) revert InsufficientCollateral(amount, excess);

        account.freeCollateral -= uint128(amount);
        emit CollateralWithdrawn(msg.sender, amount);
        $.collateralToken.safeTransfer(msg.sender, amount);
    }

    // ---------------------------------------------------------------------------------------------
    // Status
    // ---------------------------------------------------------------------------------------------

    /// @inheritdoc IProviderRegistry
    function approveProvider(address provider, bytes32 reviewedProfileHash_) external onlyRole(Roles.APPROVER_ROLE) {
        _activate(provider, ProviderStatus.Pending, reviewedProfileHash_);
    }

    /// @inheritdoc IProviderRegistry
    function suspendProvider(address provider) external {
        if (
            !hasRole(Roles.ARBITRATOR_ROLE, msg.sender) &&
            !hasRole(Roles.GOVERNANCE_ROLE, msg.sender) &&
            !hasRole(Roles.REDEMPTION_MANAGER_ROLE, msg.sender)
        ) {
            revert AccessControlUnauthorizedAccount(msg.sender, Roles.ARBITRATOR_ROLE);
        }
        ProviderAccount storage account = _requireRegistered(_storage(), provider);
        ProviderStatus current = account.status;
        if (current != ProviderStatus.Pending && current != ProviderStatus.Active) {
            revert ProviderInvalidStatus(provider, current);
        }
        account.status = ProviderStatus.Suspended;
        emit ProviderStatusChanged(provider, current, ProviderStatus.Suspended, msg.sender);
    }

    /// @inheritdoc IProviderRegistry
    function reinstateProvider(
        address provider,
        bytes32 reviewedProfileHash_
    ) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _activate(provider, ProviderStatus.Suspended, reviewedProfileHash_);
    }

    // ---------------------------------------------------------------------------------------------
    // Hooks of the minting agent and the redemption manager
    // ---------------------------------------------------------------------------------------------

    /// @inheritdoc IProviderRegistry
    /// @dev The agent has already moved `collateralAmount` into the vault in this transaction.
    /// Requirements: the provider is active, the staking period is within bounds, and free
    /// collateral (with the new deposit) covers the ratio for all available capacity.
    function recordMint(
        address provider,
        uint256 cuValue,
        uint256 collateralAmount,
        uint256 stakingPeriod
    ) external onlyRole(Roles.MINTING_AGENT_ROLE) {
        ProviderRegistryStorage storage $ = _storage();
        ProviderAccount storage account = $.accounts[provider];
        if (account.status != ProviderStatus.Active) revert ProviderInvalidStatus(provider, account.status);
        if (stakingPeriod < $.minStakingPeriod || stakingPeriod > $.maxStakingPeriod) {
            revert StakingPeriodOutOfBounds(stakingPeriod, $.minStakingPeriod, $.maxStakingPeriod);
        }

        uint256 available = account.availableCU + cuValue;
        uint256 free = account.freeCollateral + collateralAmount;
        (uint256 ratioBps, uint256 perCU) = _pricing($);
        uint256 needed = CollateralMath.required(available, ratioBps, perCU);
        if (free < needed) revert InsufficientCollateral(needed, free);

        uint256 stakedUntil = block.timestamp + stakingPeriod;
        if (stakedUntil < account.stakedUntil) stakedUntil = account.stakedUntil;

        account.stakedUntil = uint40(stakedUntil);
        account.availableCU = available.toUint128();
        account.totalCU = (account.totalCU + cuValue).toUint128();
        account.freeCollateral = free.toUint128();

        if (collateralAmount > 0) emit CollateralDeposited(provider, collateralAmount);
        emit CapacityAdded(provider, cuValue, available, stakedUntil);
    }

    /// @inheritdoc IProviderRegistry
    function recordRetire(address provider, uint256 amount) external onlyRole(Roles.MINTING_AGENT_ROLE) {
        if (amount == 0) revert ZeroAmount();
        ProviderAccount storage account = _requireRegistered(_storage(), provider);
        if (block.timestamp < account.stakedUntil) revert StakingPeriodActive(account.stakedUntil);
        uint256 available = account.availableCU;
        if (amount > available) revert InsufficientCapacity(amount, available);

        // availableCU <= totalCU always holds: both rise together, and only availableCU falls
        // on redemption.
        unchecked {
            available -= amount;
            account.totalCU -= uint128(amount);
        }
        account.availableCU = uint128(available);
        emit CapacityRetired(provider, amount, available);
    }

    /// @inheritdoc IProviderRegistry
    /// @dev Status does not matter: a holder's claim on capacity does not lapse because its provider
    /// was suspended or sent back to review. The holder gets the compute or, on expiry, the lock.
    /// Registration is not read either: only a registered provider ever has capacity (minting
    /// needs an active one), so an unregistered account fails the capacity check. Reads two of the
    /// account's three slots (the manager knows the tier, fixed at registration).
    function reserveCapacity(
        address provider,
        uint256 amount
    ) external onlyRole(Roles.REDEMPTION_MANAGER_ROLE) returns (uint256 lock, uint256 ratioBps) {
        if (amount == 0) revert ZeroAmount();
        ProviderRegistryStorage storage $ = _storage();
        ProviderAccount storage account = $.accounts[provider];
        uint256 available = account.availableCU;
        if (amount > available) revert InsufficientCapacity(amount, available);
        uint256 perCU;
        (ratioBps, perCU) = _pricing($);
        lock = CollateralMath.lockFor(available, amount, ratioBps, perCU);
        uint256 free = account.freeCollateral;
        if (lock > free) revert InsufficientCollateral(lock, free);

        unchecked {
            account.availableCU = uint128(available - amount);
            account.freeCollateral = uint128(free - lock);
        }
        account.lockedCollateral += uint128(lock);
        emit CollateralLocked(provider, amount, lock);
    }

    /// @inheritdoc IProviderRegistry
    /// @dev A released lock is a successful redemption: reputation goes up in proportion to the
    /// value at stake (`weight`, the redemption manager's count of reputation units in it). The
    /// statistics share the status slot with reputation, so recording them costs no extra cold
    /// access.
    function releaseLock(
        address provider,
        uint256 lock,
        uint256 responseTime,
        uint256 weight
    ) external onlyRole(Roles.REDEMPTION_MANAGER_ROLE) {
        ProviderRegistryStorage storage $ = _storage();
        ProviderAccount storage account = $.accounts[provider];
        _takeLock(account, lock);
        account.freeCollateral += uint128(lock);
        if (lock == 0) weight = 0;
        emit CollateralReleased(provider, lock, responseTime, weight);
        if (weight == 0) return;
        ++account.totalRedemptions;
        ++account.successfulRedemptions;
        account.totalResponseTime += responseTime.toUint64();
        _changeReputation(provider, account, int256(_reputationDelta($.reputationReward, weight)));
    }

    /// @inheritdoc IProviderRegistry
    /// @dev A paid-out lock is a failed redemption: reputation goes down in proportion to the value
    /// at stake. The early-exit penalty makes a provider's own redemption left to expire (through a
    /// second account) cost more than waiting out its staking period (docs/decisions.md).
    function payOutLock(
        address provider,
        uint256 lock,
        address recipient,
        address penaltyRecipient,
        uint256 lockRatioBps,
        uint256 weight
    ) external onlyRole(Roles.REDEMPTION_MANAGER_ROLE) nonReentrant returns (uint256 compensation, uint256 penalty) {
        if (recipient == address(0)) revert ZeroAddress();
        ProviderRegistryStorage storage $ = _storage();
        ProviderAccount storage account = $.accounts[provider];
        _takeLock(account, lock);
        compensation = lock;
        if (penaltyRecipient != address(0) && block.timestamp < account.stakedUntil && lockRatioBps > 0) {
            // the user is made whole at 100% of the value at the ratio the lock was taken at (a
            // later repricing changes nothing already locked); the over-collateralization is the
            // penalty
            compensation = Math.mulDiv(lock, CollateralMath.BPS, lockRatioBps, Math.Rounding.Ceil);
            if (compensation > lock) compensation = lock;
            penalty = lock - compensation;
        }
        if (lock == 0) weight = 0;
        emit CollateralPaidOut(provider, recipient, compensation, penalty, weight);
        if (weight != 0) {
            ++account.totalRedemptions;
            _changeReputation(provider, account, -int256(_reputationDelta($.reputationPenalty, weight)));
        }
        if (compensation > 0) $.collateralToken.safeTransfer(recipient, compensation);
        if (penalty > 0) $.collateralToken.safeTransfer(penaltyRecipient, penalty);
    }

    // ---------------------------------------------------------------------------------------------
    // Governance
    // ---------------------------------------------------------------------------------------------

    /// @notice Sets the collateral ratio in basis points, within [100%, 300%].
    function setCollateralRatio(uint256 ratioBps) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _checkCollateralRatio(ratioBps);
        ProviderRegistryStorage storage $ = _storage();
        (uint256 previous, uint256 perCU) = _pricing($);
        emit ParameterUpdated(PARAM_COLLATERAL_RATIO, previous, ratioBps);
        _writePricing($, ratioBps, perCU);
    }

    /// @notice Sets the collateral price of one whole sSTB of capacity, within (0, 1e30].
    function setCollateralPerCU(uint256 collateralPerCU_) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _checkCollateralPerCU(collateralPerCU_);
        ProviderRegistryStorage storage $ = _storage();
        (uint256 ratioBps, uint256 previous) = _pricing($);
        emit ParameterUpdated(PARAM_COLLATERAL_PER_CU, previous, collateralPerCU_);
        _writePricing($, ratioBps, collateralPerCU_);
    }

    /// @notice Sets the bounds a minting staking period must lie in: 1 hour <= min <= max <= 5 years.
    function setStakingPeriodBounds(uint256 minPeriod, uint256 maxPeriod) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _setStakingPeriodBounds(_storage(), minPeriod, maxPeriod);
    }

    /// @notice Sets the reputation reward (confirmation) and penalty (failure), each in [1, 5_000].
    function setReputationDeltas(uint256 reward, uint256 penalty) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _setReputationDeltas(_storage(), reward, penalty);
    }

    // ---------------------------------------------------------------------------------------------
    // Views
    // ---------------------------------------------------------------------------------------------

    /// @inheritdoc IProviderRegistry
    function collateralToken() external view returns (IERC20) {
        return _storage().collateralToken;
    }

    /// @notice Collateral ratio in basis points.
    function collateralRatioBps() external view returns (uint256 ratioBps) {
        (ratioBps, ) = _pricing(_storage());
    }

    /// @notice Collateral base units per whole sSTB of capacity.
    function collateralPerCU() external view returns (uint256 perCU) {
        (, perCU) = _pricing(_storage());
    }

    /// @notice The bounds a minting staking period must lie in.
    function stakingPeriodBounds() external view returns (uint256 minPeriod, uint256 maxPeriod) {
        ProviderRegistryStorage storage $ = _storage();
        return ($.minStakingPeriod, $.maxStakingPeriod);
    }

    /// @notice Reputation reward on success and penalty on failure.
    function reputationDeltas() external view returns (uint256 reward, uint256 penalty) {
        ProviderRegistryStorage storage $ = _storage();
        return ($.reputationReward, $.reputationPenalty);
    }

    /// @inheritdoc IProviderRegistry
    function requiredCollateral(uint256 value) external view returns (uint256) {
        (uint256 ratioBps, uint256 perCU) = _pricing(_storage());
        return CollateralMath.required(value, ratioBps, perCU);
    }

    /// @inheritdoc IProviderRegistry
    function hashReviewedProfile(ProviderProfile calldata profile, Tier tier) public pure returns (bytes32) {
        return
            _reviewedHash(
                profile.name,
                profile.country,
                profile.region,
                profile.cpuType,
                profile.totalCpuCores,
                profile.totalRamGb,
                profile.totalStorageGb,
                profile.networkCapacityMbps,
                tier
            );
    }

    /// @inheritdoc IProviderRegistry
    function reviewedProfileHash(address provider) external view returns (bytes32) {
        ProviderRegistryStorage storage $ = _storage();
        return _hashReviewed($.profiles[provider], $.accounts[provider].tier);
    }

    /// @inheritdoc IProviderRegistry
    function accountOf(address provider) external view returns (ProviderAccount memory) {
        return _storage().accounts[provider];
    }

    /// @inheritdoc IProviderRegistry
    function statusAndTierOf(address provider) external view returns (ProviderStatus status, Tier tier) {
        ProviderAccount storage account = _storage().accounts[provider];
        return (account.status, account.tier);
    }

    /// @inheritdoc IProviderRegistry
    function providerInfo(address provider) external view returns (ProviderInfo memory) {
        ProviderRegistryStorage storage $ = _storage();
        return ProviderInfo({provider: provider, account: $.accounts[provider], profile: $.profiles[provider]});
    }

    /// @inheritdoc IProviderRegistry
    function excessCollateral(address provider) external view returns (uint256) {
        ProviderRegistryStorage storage $ = _storage();
        return _excess($, $.accounts[provider]);
    }

    /// @inheritdoc IProviderRegistry
    function providerStats(
        address provider
    ) external view returns (uint256 total, uint256 successful, uint256 averageResponseMinutes) {
        ProviderAccount storage account = _storage().accounts[provider];
        total = account.totalRedemptions;
        successful = account.successfulRedemptions;
        if (successful > 0) averageResponseMinutes = account.totalResponseTime / successful / 1 minutes;
    }

    /// @inheritdoc IProviderRegistry
    function providerCount() external view returns (uint256) {
        return _storage().providerList.length;
    }

    /// @inheritdoc IProviderRegistry
    function providers(uint256 offset, uint256 limit) external view returns (address[] memory page) {
        address[] storage list = _storage().providerList;
        uint256 length = list.length;
        if (offset > length) offset = length;
        uint256 size = length - offset;
        if (limit < size) size = limit;
        page = new address[](size);
        for (uint256 i = 0; i < size; ++i) {
            page[i] = list[offset + i];
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Internals
    // ---------------------------------------------------------------------------------------------

    function _storage() private pure returns (ProviderRegistryStorage storage $) {
        assembly {
            $.slot := STORAGE_LOCATION
        }
    }

    function _requireRegistered(
        ProviderRegistryStorage storage $,
        address provider
    ) private view returns (ProviderAccount storage account) {
        account = $.accounts[provider];
        if (account.status == ProviderStatus.None) revert ProviderNotRegistered(provider);
    }

    /// @dev Approval and reinstatement: `from` -> active, bound to the reviewed profile.
    function _activate(address provider, ProviderStatus from, bytes32 reviewedProfileHash_) private {
        ProviderRegistryStorage storage $ = _storage();
        ProviderAccount storage account = _requireRegistered($, provider);
        if (account.status != from) revert ProviderInvalidStatus(provider, account.status);
        bytes32 current = _hashReviewed($.profiles[provider], account.tier);
        if (current != reviewedProfileHash_) revert ProviderProfileMismatch(reviewedProfileHash_, current);
        account.status = ProviderStatus.Active;
        emit ProviderStatusChanged(provider, from, ProviderStatus.Active, msg.sender);
    }

    function _excess(
        ProviderRegistryStorage storage $,
        ProviderAccount storage account
    ) private view returns (uint256) {
        (uint256 ratioBps, uint256 perCU) = _pricing($);
        uint256 needed = CollateralMath.required(account.availableCU, ratioBps, perCU);
        uint256 free = account.freeCollateral;
        return free > needed ? free - needed : 0;
    }

    function _takeLock(ProviderAccount storage account, uint256 lock) private {
        uint256 locked = account.lockedCollateral;
        if (lock > locked) revert LockExceedsLocked(lock, locked);
        unchecked {
            account.lockedCollateral = uint128(locked - lock);
        }
    }

    /// @dev {hashReviewedProfile} of a stored profile (reads only the reviewed fields).
    function _hashReviewed(ProviderProfile storage profile, Tier tier) private view returns (bytes32) {
        return
            _reviewedHash(
                profile.name,
                profile.country,
                profile.region,
                profile.cpuType,
                profile.totalCpuCores,
                profile.totalRamGb,
                profile.totalStorageGb,
                profile.networkCapacityMbps,
                tier
            );
    }

    /// @dev The one encoding of the reviewed part of a profile, for calldata and storage alike.
    function _reviewedHash(
        string memory name,
        string memory country,
        string memory region,
        string memory cpuType,
        uint32 totalCpuCores,
        uint32 totalRamGb,
        uint32 totalStorageGb,
        uint32 networkCapacityMbps,
        Tier tier
    ) private pure returns (bytes32) {
        return
            keccak256(
                abi.encode(
                    name,
                    country,
                    region,
                    cpuType,
                    totalCpuCores,
                    totalRamGb,
                    totalStorageGb,
                    networkCapacityMbps,
                    tier
                )
            );
    }

    /// @dev reward or penalty x weight, at most {MAX_REPUTATION_DELTA}: one redemption never moves
    /// reputation by more than half its range.
    function _reputationDelta(uint256 perUnit, uint256 weight) private pure returns (uint256) {
        uint256 delta = perUnit * weight; // weight < 2^16 from the manager: no overflow
        return delta < MAX_REPUTATION_DELTA ? delta : MAX_REPUTATION_DELTA;
    }

    function _changeReputation(address provider, ProviderAccount storage account, int256 delta) private {
        uint16 previous = account.reputation;
        int256 next = int256(uint256(previous)) + delta;
        if (next < 0) next = 0;
        if (next > int256(uint256(MAX_REPUTATION))) next = int256(uint256(MAX_REPUTATION));
        uint16 current = uint16(uint256(next));
        if (current == previous) return;
        account.reputation = current;
        emit ReputationChanged(provider, previous, current);
    }

    function _validateProfile(ProviderProfile calldata profile) private pure {
        uint256 nameLength = bytes(profile.name).length;
        if (nameLength == 0 || nameLength > MAX_SHORT_FIELD) revert ProviderInvalidProfile("name");
        if (bytes(profile.country).length > MAX_SHORT_FIELD) revert ProviderInvalidProfile("country");
        if (bytes(profile.region).length > MAX_SHORT_FIELD) revert ProviderInvalidProfile("region");
        if (bytes(profile.email).length > MAX_LONG_FIELD) revert ProviderInvalidProfile("email");
        if (bytes(profile.website).length > MAX_LONG_FIELD) revert ProviderInvalidProfile("website");
        if (bytes(profile.cpuType).length > MAX_LONG_FIELD) revert ProviderInvalidProfile("cpuType");
    }

    /// @dev The pricing pair: from its slot once written, otherwise (a proxy upgraded from the
    /// first layout, before governance set either parameter) from the first layout's fields. The
    /// price is never 0 once written, so it tells the two apart.
    function _pricing(ProviderRegistryStorage storage $) private view returns (uint256 ratioBps, uint256 perCU) {
        perCU = $.pricePerCU;
        if (perCU != 0) return ($.ratioBps, perCU);
        return ($.collateralRatioBps, $.collateralPerCU);
    }

    /// @dev Writes the whole pair into its slot (each setter passes the other half unchanged).
    function _writePricing(ProviderRegistryStorage storage $, uint256 ratioBps, uint256 perCU) private {
        $.ratioBps = uint16(ratioBps);
        $.pricePerCU = uint128(perCU);
    }

    function _checkCollateralRatio(uint256 ratioBps) private pure {
        if (ratioBps < MIN_COLLATERAL_RATIO_BPS || ratioBps > MAX_COLLATERAL_RATIO_BPS) {
            revert ParameterOutOfBounds(PARAM_COLLATERAL_RATIO, ratioBps);
        }
    }

    function _checkCollateralPerCU(uint256 value) private pure {
        if (value == 0 || value > MAX_COLLATERAL_PER_CU) revert ParameterOutOfBounds(PARAM_COLLATERAL_PER_CU, value);
    }

    function _setStakingPeriodBounds(ProviderRegistryStorage storage $, uint256 minPeriod, uint256 maxPeriod) private {
        if (minPeriod < MIN_STAKING_PERIOD_FLOOR || minPeriod > maxPeriod) {
            revert ParameterOutOfBounds(PARAM_MIN_STAKING, minPeriod);
        }
        if (maxPeriod > MAX_STAKING_PERIOD_CEILING) revert ParameterOutOfBounds(PARAM_MAX_STAKING, maxPeriod);
        emit ParameterUpdated(PARAM_MIN_STAKING, $.minStakingPeriod, minPeriod);
        emit ParameterUpdated(PARAM_MAX_STAKING, $.maxStakingPeriod, maxPeriod);
        $.minStakingPeriod = uint40(minPeriod);
        $.maxStakingPeriod = uint40(maxPeriod);
    }

    function _setReputationDeltas(ProviderRegistryStorage storage $, uint256 reward, uint256 penalty) private {
        if (reward == 0 || reward > MAX_REPUTATION_DELTA) revert ParameterOutOfBounds(PARAM_REPUTATION_REWARD, reward);
        if (penalty == 0 || penalty > MAX_REPUTATION_DELTA) {
            revert ParameterOutOfBounds(PARAM_REPUTATION_PENALTY, penalty);
        }
        emit ParameterUpdated(PARAM_REPUTATION_REWARD, $.reputationReward, reward);
        emit ParameterUpdated(PARAM_REPUTATION_PENALTY, $.reputationPenalty, penalty);
        $.reputationReward = uint16(reward);
        $.reputationPenalty = uint16(penalty);
    }
}
