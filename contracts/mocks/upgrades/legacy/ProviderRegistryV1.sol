// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

import {IProviderRegistryV1} from "./IProviderRegistryV1.sol";
import {CollateralMath} from "../../../libraries/CollateralMath.sol";
import {Roles} from "../../../libraries/Roles.sol";
import {ProtocolUpgradeable} from "../../../utils/ProtocolUpgradeable.sol";

// TEST DOUBLE for the upgrade tests (test/contracts/upgrades/Reinitialize.test.ts); never deployed on a chain.
// A frozen copy of `contracts/core/ProviderRegistry.sol` at commit 2c890a0, the last implementation before
// `guardianPauseDuration`, `disputeResolutionPeriod`, `minRedemptionAmount` and `reputationUnit`
// existed. Changed only so that it compiles beside today's code: contracts and interfaces renamed
// with a `V1` suffix, import paths adjusted. Storage namespaces are the originals, on purpose.
/// @title ProviderRegistryV1
/// @notice Registers providers of compute capacity and holds the collateral that backs their
/// capacity. The vault keeps, per provider, free collateral (backing `availableCU` plus any excess)
/// and locked collateral (backing open redemptions); its token balance is their sum.
/// @dev Invariants (DESIGN.md section 4), kept by every function here:
///  - vault balance == sum(freeCollateral) + sum(lockedCollateral);
///  - freeCollateral >= required(availableCU) for every provider, unless governance repriced
///    collateral upward, in which case the provider must top up before new redemptions lock.
/// The minting agent and redemption manager move capacity and collateral only through the hooks.
contract ProviderRegistryV1 is ProtocolUpgradeable, ReentrancyGuardTransient, IProviderRegistryV1 {
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

    /// @custom:storage-location erc7201:computeprotocol.storage.ProviderRegistry
    struct ProviderRegistryStorage {
        IERC20 collateralToken;
        uint16 collateralRatioBps;
        uint16 reputationReward;
        uint16 reputationPenalty;
        uint40 minStakingPeriod;
        uint40 maxStakingPeriod;
        uint256 collateralPerCU;
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
        _setCollateralRatio($, 12_000);
        _setCollateralPerCU($, collateralPerCU_);
        _setStakingPeriodBounds($, 7 days, 365 days);
        _setReputationDeltas($, 100, 500);
    }

    // ---------------------------------------------------------------------------------------------
    // Provider operations
    // ---------------------------------------------------------------------------------------------

    /// @inheritdoc IProviderRegistryV1
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

    /// @inheritdoc IProviderRegistryV1
    function updateProfile(ProviderProfile calldata profile) external {
        ProviderRegistryStorage storage $ = _storage();
        _requireRegistered($, msg.sender);
        _validateProfile(profile);
        $.profiles[msg.sender] = profile;
        emit ProviderProfileUpdated(msg.sender, profile);
    }

    /// @inheritdoc IProviderRegistryV1
    function depositCollateral(uint256 amount) external nonReentrant {
        if (amount == 0) revert ZeroAmount();
        ProviderRegistryStorage storage $ = _storage();
        ProviderAccount storage account = _requireRegistered($, msg.sender);
        account.freeCollateral = (account.freeCollateral + amount).toUint128();
        emit CollateralDeposited(msg.sender, amount);
        $.collateralToken.safeTransferFrom(msg.sender, address(this), amount);
    }

    /// @inheritdoc IProviderRegistryV1
    function withdrawCollateral(uint256 amount) external nonReentrant {
        if (amount == 0) revert ZeroAmount();
        ProviderRegistryStorage storage $ = _storage();
        ProviderAccount storage account = _requireRegistered($, msg.sender);
        if (block.timestamp < account.stakedUntil) revert StakingPeriodActive(account.stakedUntil);
        uint256 excess = _excess($, account);
        if (amount > excess) revert InsufficientCollateral(amount, excess);

        account.freeCollateral -= uint128(amount);
        emit CollateralWithdrawn(msg.sender, amount);
        $.collateralToken.safeTransfer(msg.sender, amount);
    }

    // ---------------------------------------------------------------------------------------------
    // Status
    // ---------------------------------------------------------------------------------------------

    /// @inheritdoc IProviderRegistryV1
    function approveProvider(address provider) external onlyRole(Roles.APPROVER_ROLE) {
        _transition(provider, ProviderStatus.Pending, ProviderStatus.Active);
    }

    /// @inheritdoc IProviderRegistryV1
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

    /// @inheritdoc IProviderRegistryV1
    function reinstateProvider(address provider) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _transition(provider, ProviderStatus.Suspended, ProviderStatus.Active);
    }

    // ---------------------------------------------------------------------------------------------
    // Hooks of the minting agent and the redemption manager
    // ---------------------------------------------------------------------------------------------

    /// @inheritdoc IProviderRegistryV1
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
        uint256 needed = CollateralMath.required(available, $.collateralRatioBps, $.collateralPerCU);
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

    /// @inheritdoc IProviderRegistryV1
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

    /// @inheritdoc IProviderRegistryV1
    function reserveCapacity(
        address provider,
        uint256 amount
    ) external onlyRole(Roles.REDEMPTION_MANAGER_ROLE) returns (uint256 lock, Tier tier) {
        if (amount == 0) revert ZeroAmount();
        ProviderRegistryStorage storage $ = _storage();
        ProviderAccount storage account = $.accounts[provider];
        if (account.status != ProviderStatus.Active) revert ProviderInvalidStatus(provider, account.status);
        tier = account.tier;
        uint256 available = account.availableCU;
        if (amount > available) revert InsufficientCapacity(amount, available);
        lock = CollateralMath.lockFor(available, amount, $.collateralRatioBps, $.collateralPerCU);
        uint256 free = account.freeCollateral;
        if (lock > free) revert InsufficientCollateral(lock, free);

        unchecked {
            account.availableCU = uint128(available - amount);
            account.freeCollateral = uint128(free - lock);
        }
        account.lockedCollateral += uint128(lock);
        emit CollateralLocked(provider, amount, lock);
    }

    /// @inheritdoc IProviderRegistryV1
    /// @dev A released lock is a successful redemption: reputation goes up. The statistics share
    /// the status slot with reputation, so recording them costs no extra cold access.
    function releaseLock(
        address provider,
        uint256 lock,
        uint256 responseTime
    ) external onlyRole(Roles.REDEMPTION_MANAGER_ROLE) {
        ProviderRegistryStorage storage $ = _storage();
        ProviderAccount storage account = $.accounts[provider];
        _takeLock(account, lock);
        account.freeCollateral += uint128(lock);
        ++account.totalRedemptions;
        ++account.successfulRedemptions;
        account.totalResponseTime += responseTime.toUint64();
        emit CollateralReleased(provider, lock, responseTime);
        _changeReputation(provider, account, int256(uint256($.reputationReward)));
    }

    /// @inheritdoc IProviderRegistryV1
    /// @dev A paid-out lock is a failed redemption: reputation goes down.
    function payOutLock(
        address provider,
        uint256 lock,
        address recipient
    ) external onlyRole(Roles.REDEMPTION_MANAGER_ROLE) nonReentrant {
        if (recipient == address(0)) revert ZeroAddress();
        ProviderRegistryStorage storage $ = _storage();
        ProviderAccount storage account = $.accounts[provider];
        _takeLock(account, lock);
        ++account.totalRedemptions;
        emit CollateralPaidOut(provider, recipient, lock);
        _changeReputation(provider, account, -int256(uint256($.reputationPenalty)));
        if (lock > 0) $.collateralToken.safeTransfer(recipient, lock);
    }

    // ---------------------------------------------------------------------------------------------
    // Governance
    // ---------------------------------------------------------------------------------------------

    /// @notice Sets the collateral ratio in basis points, within [100%, 300%].
    function setCollateralRatio(uint256 ratioBps) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _setCollateralRatio(_storage(), ratioBps);
    }

    /// @notice Sets the collateral price of one whole sSTB of capacity, within (0, 1e30].
    function setCollateralPerCU(uint256 collateralPerCU_) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _setCollateralPerCU(_storage(), collateralPerCU_);
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

    /// @inheritdoc IProviderRegistryV1
    function collateralToken() external view returns (IERC20) {
        return _storage().collateralToken;
    }

    /// @notice Collateral ratio in basis points.
    function collateralRatioBps() external view returns (uint256) {
        return _storage().collateralRatioBps;
    }

    /// @notice Collateral base units per whole sSTB of capacity.
    function collateralPerCU() external view returns (uint256) {
        return _storage().collateralPerCU;
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

    /// @inheritdoc IProviderRegistryV1
    function requiredCollateral(uint256 value) external view returns (uint256) {
        ProviderRegistryStorage storage $ = _storage();
        return CollateralMath.required(value, $.collateralRatioBps, $.collateralPerCU);
    }

    /// @inheritdoc IProviderRegistryV1
    function accountOf(address provider) external view returns (ProviderAccount memory) {
        return _storage().accounts[provider];
    }

    /// @inheritdoc IProviderRegistryV1
    function providerInfo(address provider) external view returns (ProviderInfo memory) {
        ProviderRegistryStorage storage $ = _storage();
        return ProviderInfo({provider: provider, account: $.accounts[provider], profile: $.profiles[provider]});
    }

    /// @inheritdoc IProviderRegistryV1
    function excessCollateral(address provider) external view returns (uint256) {
        ProviderRegistryStorage storage $ = _storage();
        return _excess($, $.accounts[provider]);
    }

    /// @inheritdoc IProviderRegistryV1
    function providerStats(
        address provider
    ) external view returns (uint256 total, uint256 successful, uint256 averageResponseMinutes) {
        ProviderAccount storage account = _storage().accounts[provider];
        total = account.totalRedemptions;
        successful = account.successfulRedemptions;
        if (successful > 0) averageResponseMinutes = account.totalResponseTime / successful / 1 minutes;
    }

    /// @inheritdoc IProviderRegistryV1
    function providerCount() external view returns (uint256) {
        return _storage().providerList.length;
    }

    /// @inheritdoc IProviderRegistryV1
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

    function _transition(address provider, ProviderStatus from, ProviderStatus to) private {
        ProviderAccount storage account = _requireRegistered(_storage(), provider);
        if (account.status != from) revert ProviderInvalidStatus(provider, account.status);
        account.status = to;
        emit ProviderStatusChanged(provider, from, to, msg.sender);
    }

    function _excess(
        ProviderRegistryStorage storage $,
        ProviderAccount storage account
    ) private view returns (uint256) {
        uint256 needed = CollateralMath.required(account.availableCU, $.collateralRatioBps, $.collateralPerCU);
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

    function _setCollateralRatio(ProviderRegistryStorage storage $, uint256 ratioBps) private {
        if (ratioBps < MIN_COLLATERAL_RATIO_BPS || ratioBps > MAX_COLLATERAL_RATIO_BPS) {
            revert ParameterOutOfBounds(PARAM_COLLATERAL_RATIO, ratioBps);
        }
        emit ParameterUpdated(PARAM_COLLATERAL_RATIO, $.collateralRatioBps, ratioBps);
        $.collateralRatioBps = uint16(ratioBps);
    }

    function _setCollateralPerCU(ProviderRegistryStorage storage $, uint256 value) private {
        if (value == 0 || value > MAX_COLLATERAL_PER_CU) revert ParameterOutOfBounds(PARAM_COLLATERAL_PER_CU, value);
        emit ParameterUpdated(PARAM_COLLATERAL_PER_CU, $.collateralPerCU, value);
        $.collateralPerCU = value;
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
