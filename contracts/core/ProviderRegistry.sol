// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {SafeCast} from "@openzeppelin/contracts/utils/math/SafeCast.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

import {IProviderRegistry} from "../interfaces/IProviderRegistry.sol";
import {CollateralMath} from "../libraries/CollateralMath.sol";
import {ProviderAccountWords as Words} from "../libraries/ProviderAccountWords.sol";
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
    ///
    /// The same holds for the reputation deltas, which every hook of the redemption manager reads:
    /// since issue 19's gas work they live in the slot that also names the manager (see
    /// {_authorizeManager}), read in place of the role's slot, and the first layout's two fields
    /// are read until governance next sets the deltas (see {_deltas}).
    ///
    /// Providers' accounts moved too: `accounts` (the first layout, three slots) is read only for a
    /// provider not touched since the upgrade, whose first operation moves it into `books` (three
    /// words, {ProviderAccountWords}) and clears it (see {_migrate}).
    /// @custom:storage-location erc7201:computeprotocol.storage.ProviderRegistry
    struct ProviderRegistryStorage {
        IERC20 collateralToken;
        uint16 collateralRatioBps; // first layout, see above
        uint16 reputationReward; // first layout, see above
        uint16 reputationPenalty; // first layout, see above
        uint40 minStakingPeriod;
        uint40 maxStakingPeriod;
        uint16 ratioBps; // the pricing pair, second slot
        uint128 pricePerCU; // <= MAX_COLLATERAL_PER_CU < 2^100; 0 until first written
        uint256 collateralPerCU; // first layout, see above
        mapping(address provider => ProviderAccount) accounts; // first layout, see above
        mapping(address provider => ProviderProfile) profiles;
        address[] providerList;
        // --- issue 19's gas work ---
        // one slot, read by every hook of the redemption manager
        address manager; // the last account granted the manager's role while it holds it, else 0
        uint16 reward; // reputation reward per unit of weight; 0 until first written
        uint16 penalty; // reputation penalty per unit of weight
        mapping(address provider => Book) books;
    }

    /// @dev A provider's accounting in three words ({ProviderAccountWords}).
    struct Book {
        uint256 registration;
        uint256 capacity;
        uint256 redemptions;
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
        Book storage book = $.books[msg.sender];
        if (book.registration != 0 || $.accounts[msg.sender].status != ProviderStatus.None) {
            revert ProviderAlreadyRegistered(msg.sender);
        }
        _validateProfile(profile);

        book.registration = Words.registration(ProviderStatus.Pending, tier, block.timestamp, 0);
        book.redemptions = Words.redemptions(0, INITIAL_REPUTATION, 0, 0, 0);
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
        (Book storage book, uint256 registration) = _requireRegistered($, msg.sender);
        _validateProfile(profile);
        ProviderStatus status = Words.status(registration);
        Tier tier = Words.tier(registration);
        bool reviewedPartChanged =
            status == ProviderStatus.Active &&
                _hashReviewed($.profiles[msg.sender], tier) != hashReviewedProfile(profile, tier);
        $.profiles[msg.sender] = profile;
        emit ProviderProfileUpdated(msg.sender, profile);
        if (reviewedPartChanged) {
            book.registration = Words.withStatus(registration, ProviderStatus.Pending);
            emit ProviderStatusChanged(msg.sender, status, ProviderStatus.Pending, msg.sender);
        }
    }

    /// @inheritdoc IProviderRegistry
    function depositCollateral(uint256 amount) external nonReentrant {
        if (amount == 0) revert ZeroAmount();
        ProviderRegistryStorage storage $ = _storage();
        (Book storage book, ) = _requireRegistered($, msg.sender);
        uint256 capacity = book.capacity;
        book.capacity = Words.capacity(
            Words.availableCU(capacity),
            Words.collateral(capacity) + amount,
            Words.stakedUntil(capacity)
        );
        emit CollateralDeposited(msg.sender, amount);
        $.collateralToken.safeTransferFrom(msg.sender, address(this), amount);
    }

    /// @inheritdoc IProviderRegistry
    function withdrawCollateral(uint256 amount) external nonReentrant {
        if (amount == 0) revert ZeroAmount();
        ProviderRegistryStorage storage $ = _storage();
        (Book storage book, uint256 registration) = _requireRegistered($, msg.sender);
        uint256 capacity = book.capacity;
        uint256 stakedUntil = Words.stakedUntil(capacity);
        if (block.timestamp < stakedUntil) revert StakingPeriodActive(stakedUntil);
        uint256 available = Words.availableCU(capacity);
        uint256 locked = Words.locked(book.redemptions);
        if (Words.status(registration) == ProviderStatus.Suspended && (available != 0 || locked != 0)) {
            revert ProviderCollateralHeld(available, locked);
        }
        uint256 collateral = Words.collateral(capacity);
        uint256 excess = _excess($, available, collateral - locked);
        if (amount > excess) revert InsufficientCollateral(amount, excess);

        // amount <= excess <= free <= collateral
        unchecked {
            book.capacity = Words.capacity(available, collateral - amount, stakedUntil);
        }
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
        (Book storage book, uint256 registration) = _requireRegistered(_storage(), provider);
        ProviderStatus current = Words.status(registration);
        if (current != ProviderStatus.Pending && current != ProviderStatus.Active) {
            revert ProviderInvalidStatus(provider, current);
        }
        book.registration = Words.withStatus(registration, ProviderStatus.Suspended);
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
        Book storage book = $.books[provider];
        uint256 registration = book.registration;
        if (registration == 0 && _migrate($, provider)) registration = book.registration;
        ProviderStatus status = Words.status(registration);
        if (status != ProviderStatus.Active) revert ProviderInvalidStatus(provider, status);
        if (stakingPeriod < $.minStakingPeriod || stakingPeriod > $.maxStakingPeriod) {
            revert StakingPeriodOutOfBounds(stakingPeriod, $.minStakingPeriod, $.maxStakingPeriod);
        }

        book.registration = Words.withTotalCU(registration, Words.totalCU(registration) + cuValue);
        (uint256 available, uint256 stakedUntil) = _addCapacity(
            $,
            book,
            cuValue,
            collateralAmount,
            block.timestamp + stakingPeriod
        );

        if (collateralAmount > 0) emit CollateralDeposited(provider, collateralAmount);
        emit CapacityAdded(provider, cuValue, available, stakedUntil);
    }

    /// @inheritdoc IProviderRegistry
    function recordRetire(address provider, uint256 amount) external onlyRole(Roles.MINTING_AGENT_ROLE) {
        if (amount == 0) revert ZeroAmount();
        (Book storage book, uint256 registration) = _requireRegistered(_storage(), provider);
        uint256 capacity = book.capacity;
        uint256 stakedUntil = Words.stakedUntil(capacity);
        if (block.timestamp < stakedUntil) revert StakingPeriodActive(stakedUntil);
        uint256 available = Words.availableCU(capacity);
        if (amount > available) revert InsufficientCapacity(amount, available);

        // availableCU <= totalCU always holds: both rise together, and only availableCU falls
        // on redemption.
        unchecked {
            available -= amount;
            book.registration = Words.withTotalCU(registration, Words.totalCU(registration) - amount);
        }
        book.capacity = Words.capacity(available, Words.collateral(capacity), stakedUntil);
        emit CapacityRetired(provider, amount, available);
    }

    /// @inheritdoc IProviderRegistry
    /// @dev Status does not matter: a holder's claim on capacity does not lapse because its provider
    /// was suspended or sent back to review. The holder gets the compute or, on expiry, the lock.
    /// Registration is not read either: only a registered provider ever has capacity (minting
    /// needs an active one), so an unregistered account fails the capacity check. Reads and writes
    /// two of the account's three words (the manager knows the tier, fixed at registration).
    function reserveCapacity(address provider, uint256 amount) external returns (uint256 lock, uint256 ratioBps) {
        ProviderRegistryStorage storage $ = _storage();
        _authorizeManager($);
        if (amount == 0) revert ZeroAmount();
        (Book storage book, uint256 redemptions) = _redemptionsWord($, provider);
        uint256 capacity = book.capacity;
        uint256 available = Words.availableCU(capacity);
        if (amount > available) revert InsufficientCapacity(amount, available);
        uint256 perCU;
        (ratioBps, perCU) = _pricing($);
        lock = CollateralMath.lockFor(available, amount, ratioBps, perCU);
        uint256 collateral = Words.collateral(capacity);
        // locked <= collateral always: both rise together, and a lock leaves both together
        uint256 free = collateral - Words.locked(redemptions);
        if (lock > free) revert InsufficientCollateral(lock, free);

        book.capacity = Words.removeCapacity(capacity, amount);
        book.redemptions = Words.addLock(redemptions, lock);
        emit CollateralLocked(provider, amount, lock);
    }

    /// @inheritdoc IProviderRegistry
    /// @dev A released lock is a successful redemption: reputation goes up in proportion to the
    /// value at stake (`weight`, the redemption manager's count of reputation units in it). The
    /// lock, reputation and statistics share one word and free collateral is the vault's
    /// collateral less the locks, so a release writes one word ({ProviderAccountWords}); a release
    /// that changes nothing (no lock) writes nothing.
    function releaseLock(address provider, uint256 lock, uint256 responseTime, uint256 weight) external {
        ProviderRegistryStorage storage $ = _storage();
        // the manager's slot holds the reward too: one read for both (see {_authorizeManager})
        (address manager, uint256 reward) = ($.manager, $.reward);
        if (msg.sender != manager) _checkRole(Roles.REDEMPTION_MANAGER_ROLE);
        (Book storage book, uint256 redemptions) = _redemptionsWord($, provider);
        _checkLock(redemptions, lock);
        if (lock == 0) weight = 0;
        emit CollateralReleased(provider, lock, responseTime, weight);
        if (lock == 0) return;
        redemptions = Words.removeLock(redemptions, lock);
        if (weight != 0) {
            redemptions = Words.countFinished(redemptions, true, responseTime);
            if (reward == 0) reward = $.reputationReward; // see {_deltas}
            redemptions = _changeReputation(provider, redemptions, int256(_reputationDelta(reward, weight)));
        }
        book.redemptions = redemptions;
    }

    /// @inheritdoc IProviderRegistry
    /// @dev A paid-out lock is a failed redemption: reputation goes down in proportion to the value
    /// at stake. The early-exit penalty makes a provider's own redemption left to expire (through a
    /// second account) cost more than waiting out its staking period
    /// (docs/decisions/0035-the-staking-period-binds.md).
    function payOutLock(
        address provider,
        uint256 lock,
        address recipient,
        address penaltyRecipient,
        uint256 lockRatioBps,
        uint256 weight
    ) external nonReentrant returns (uint256 compensation, uint256 penalty) {
        ProviderRegistryStorage storage $ = _storage();
        _authorizeManager($);
        if (recipient == address(0)) revert ZeroAddress();
        (Book storage book, uint256 redemptions) = _redemptionsWord($, provider);
        _checkLock(redemptions, lock);
        uint256 capacity = book.capacity;
        compensation = lock;
        if (penaltyRecipient != address(0) && block.timestamp < Words.stakedUntil(capacity) && lockRatioBps > 0) {
            // the user is made whole at 100% of the value at the ratio the lock was taken at (a
            // later repricing changes nothing already locked); the over-collateralization is the
            // penalty
            compensation = Math.mulDiv(lock, CollateralMath.BPS, lockRatioBps, Math.Rounding.Ceil);
            if (compensation > lock) compensation = lock;
            penalty = lock - compensation;
        }
        if (lock == 0) weight = 0;
        emit CollateralPaidOut(provider, recipient, compensation, penalty, weight);
        if (lock != 0) {
            // the lock leaves the vault: the provider's collateral and its locks fall by it
            // (lock <= locked <= collateral)
            book.capacity = Words.removeCollateral(capacity, lock);
            redemptions = Words.removeLock(redemptions, lock);
            if (weight != 0) {
                redemptions = Words.countFinished(redemptions, false, 0);
                (, uint256 penaltyPerWeight) = _deltas($);
                redemptions = _changeReputation(
                    provider,
                    redemptions,
                    -int256(_reputationDelta(penaltyPerWeight, weight))
                );
            }
            book.redemptions = redemptions;
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
        return _deltas(_storage());
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
        return _hashReviewed($.profiles[provider], _account($, provider).tier);
    }

    /// @inheritdoc IProviderRegistry
    function accountOf(address provider) external view returns (ProviderAccount memory) {
        return _account(_storage(), provider);
    }

    /// @inheritdoc IProviderRegistry
    function statusAndTierOf(address provider) external view returns (ProviderStatus status, Tier tier) {
        ProviderRegistryStorage storage $ = _storage();
        uint256 registration = $.books[provider].registration;
        if (registration != 0) return (Words.status(registration), Words.tier(registration));
        ProviderAccount storage old = $.accounts[provider];
        return (old.status, old.tier);
    }

    /// @inheritdoc IProviderRegistry
    function providerInfo(address provider) external view returns (ProviderInfo memory) {
        ProviderRegistryStorage storage $ = _storage();
        return ProviderInfo({provider: provider, account: _account($, provider), profile: $.profiles[provider]});
    }

    /// @inheritdoc IProviderRegistry
    function excessCollateral(address provider) external view returns (uint256) {
        ProviderRegistryStorage storage $ = _storage();
        ProviderAccount memory account = _account($, provider);
        return _excess($, account.availableCU, account.freeCollateral);
    }

    /// @inheritdoc IProviderRegistry
    function providerStats(
        address provider
    ) external view returns (uint256 total, uint256 successful, uint256 averageResponseMinutes) {
        ProviderAccount memory account = _account(_storage(), provider);
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

    /// @dev A registered provider's book (moved from the first layout if it is still there) and
    /// its registration word; reverts for an account that is not registered.
    function _requireRegistered(
        ProviderRegistryStorage storage $,
        address provider
    ) private returns (Book storage book, uint256 registration) {
        book = $.books[provider];
        registration = book.registration;
        if (registration == 0) {
            if (!_migrate($, provider)) revert ProviderNotRegistered(provider);
            registration = book.registration;
        }
    }

    /// @dev A provider's book and its `redemptions` word, the word the manager's hooks start from
    /// (moved from the first layout if it is still there). An account that is no provider has an
    /// empty book: no capacity, no lock.
    function _redemptionsWord(
        ProviderRegistryStorage storage $,
        address provider
    ) private returns (Book storage book, uint256 redemptions) {
        book = $.books[provider];
        redemptions = book.redemptions;
        if (!Words.isCurrent(redemptions) && _migrate($, provider)) redemptions = book.redemptions;
    }

    /// @dev Moves `provider`'s account from the first layout into its book, once: the three old
    /// slots are read, the three words written (free plus locked collateral as the vault's
    /// collateral) and the old slots cleared, so nothing reads them again. Returns false, and
    /// writes nothing, for an account the first layout does not hold (not registered). Not an
    /// event: nothing the account means changes.
    function _migrate(ProviderRegistryStorage storage $, address provider) private returns (bool) {
        if ($.accounts[provider].status == ProviderStatus.None) return false;
        ProviderAccount memory old = $.accounts[provider];
        Book storage book = $.books[provider];
        book.registration = Words.registration(old.status, old.tier, old.registeredAt, old.totalCU);
        book.capacity = Words.capacity(
            old.availableCU,
            uint256(old.freeCollateral) + old.lockedCollateral,
            old.stakedUntil
        );
        book.redemptions = Words.redemptions(
            old.lockedCollateral,
            old.reputation,
            old.totalRedemptions,
            old.successfulRedemptions,
            old.totalResponseTime
        );
        delete $.accounts[provider];
        return true;
    }

    /// @dev A provider's account as the ABI shows it, from its book or, for a provider not touched
    /// since the upgrade, from the first layout (all zero for an account that is no provider).
    function _account(
        ProviderRegistryStorage storage $,
        address provider
    ) private view returns (ProviderAccount memory) {
        Book storage book = $.books[provider];
        uint256 registration = book.registration;
        if (registration == 0) return $.accounts[provider];
        return Words.toAccount(registration, book.capacity, book.redemptions);
    }

    /// @dev The hooks of the redemption manager are for its role. The slot that names the last
    /// account granted the role (while it holds it) also holds the reputation deltas, so the
    /// manager's own calls read one slot for both; any other holder of the role is checked
    /// against the role as usual.
    function _authorizeManager(ProviderRegistryStorage storage $) private view {
        if (msg.sender != $.manager) _checkRole(Roles.REDEMPTION_MANAGER_ROLE);
    }

    /// @dev The reputation deltas: from their slot once written, otherwise (a proxy upgraded from
    /// the first layout, before governance set them) from the first layout's fields. The reward is
    /// never 0 once written, so it tells the two apart.
    function _deltas(ProviderRegistryStorage storage $) private view returns (uint256 reward, uint256 penalty) {
        reward = $.reward;
        if (reward != 0) return (reward, $.penalty);
        return ($.reputationReward, $.reputationPenalty);
    }

    /// @dev Keeps {ProviderRegistryStorage.manager} naming a holder of the manager's role: the
    /// last account granted it.
    function _grantRole(bytes32 role, address account) internal override returns (bool granted) {
        granted = super._grantRole(role, account);
        if (role == Roles.REDEMPTION_MANAGER_ROLE) _storage().manager = account;
    }

    /// @dev ...and no account once that one lost it.
    function _revokeRole(bytes32 role, address account) internal override returns (bool revoked) {
        revoked = super._revokeRole(role, account);
        ProviderRegistryStorage storage $ = _storage();
        if (role == Roles.REDEMPTION_MANAGER_ROLE && $.manager == account) $.manager = address(0);
    }

    /// @dev Approval and reinstatement: `from` -> active, bound to the reviewed profile.
    function _activate(address provider, ProviderStatus from, bytes32 reviewedProfileHash_) private {
        ProviderRegistryStorage storage $ = _storage();
        (Book storage book, uint256 registration) = _requireRegistered($, provider);
        ProviderStatus status = Words.status(registration);
        if (status != from) revert ProviderInvalidStatus(provider, status);
        bytes32 current = _hashReviewed($.profiles[provider], Words.tier(registration));
        if (current != reviewedProfileHash_) revert ProviderProfileMismatch(reviewedProfileHash_, current);
        book.registration = Words.withStatus(registration, ProviderStatus.Active);
        emit ProviderStatusChanged(provider, from, ProviderStatus.Active, msg.sender);
    }

    /// @dev Free collateral above what `available` capacity needs.
    function _excess(
        ProviderRegistryStorage storage $,
        uint256 available,
        uint256 free
    ) private view returns (uint256) {
        (uint256 ratioBps, uint256 perCU) = _pricing($);
        uint256 needed = CollateralMath.required(available, ratioBps, perCU);
        return free > needed ? free - needed : 0;
    }

    /// @dev {recordMint}'s capacity word: `cuValue` more capacity and `collateralAmount` more
    /// collateral, free collateral covering the ratio for all available capacity, and the staking
    /// period extended to `stakedUntil` (never shortened). Returns the new capacity and stake end.
    function _addCapacity(
        ProviderRegistryStorage storage $,
        Book storage book,
        uint256 cuValue,
        uint256 collateralAmount,
        uint256 stakedUntil
    ) private returns (uint256 available, uint256) {
        uint256 capacity = book.capacity;
        available = Words.availableCU(capacity) + cuValue;
        uint256 collateral = Words.collateral(capacity) + collateralAmount;
        uint256 free = collateral - Words.locked(book.redemptions);
        (uint256 ratioBps, uint256 perCU) = _pricing($);
        uint256 needed = CollateralMath.required(available, ratioBps, perCU);
        if (free < needed) revert InsufficientCollateral(needed, free);
        uint256 previous = Words.stakedUntil(capacity);
        if (stakedUntil < previous) stakedUntil = previous;
        book.capacity = Words.capacity(available, collateral, stakedUntil);
        return (available, stakedUntil);
    }

    /// @dev A lock the manager releases or pays out is at most what the provider has locked.
    function _checkLock(uint256 redemptions, uint256 lock) private pure {
        uint256 locked = Words.locked(redemptions);
        if (lock > locked) revert LockExceedsLocked(lock, locked);
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

    /// @dev `redemptions` with reputation moved by `delta`, clamped to 0..{MAX_REPUTATION}; an event
    /// when it moved.
    function _changeReputation(address provider, uint256 redemptions, int256 delta) private returns (uint256) {
        uint256 previous = Words.reputation(redemptions);
        int256 next = int256(previous) + delta;
        if (next < 0) next = 0;
        if (next > int256(uint256(MAX_REPUTATION))) next = int256(uint256(MAX_REPUTATION));
        uint256 current = uint256(next);
        if (current == previous) return redemptions;
        emit ReputationChanged(provider, uint16(previous), uint16(current));
        return Words.withReputation(redemptions, current);
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
        (uint256 previousReward, uint256 previousPenalty) = _deltas($);
        emit ParameterUpdated(PARAM_REPUTATION_REWARD, previousReward, reward);
        emit ParameterUpdated(PARAM_REPUTATION_PENALTY, previousPenalty, penalty);
        $.reward = uint16(reward);
        $.penalty = uint16(penalty);
    }
}
