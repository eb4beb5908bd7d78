// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

import {ICUToken} from "../interfaces/ICUToken.sol";
import {IComputeVerifier, VerifiedCompute} from "../interfaces/IComputeVerifier.sol";
import {IProviderRegistry} from "../interfaces/IProviderRegistry.sol";
import {ISSTB} from "../interfaces/ISSTB.sol";
import {Roles} from "../libraries/Roles.sol";
import {EmergencyPausable} from "../utils/EmergencyPausable.sol";
import {ProtocolUpgradeable} from "../utils/ProtocolUpgradeable.sol";

/// @title MintingAgent
/// @notice Turns verified compute capacity into sSTB. A provider proves a compute unit, posts
/// collateral, and receives `cuValue` sSTB; the unit's CU token is created and burned in the same
/// call, leaving its record behind. A provider leaves capacity by burning sSTB through
/// {retireCapacity}.
contract MintingAgent is EmergencyPausable, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    /// @custom:storage-location erc7201:computeprotocol.storage.MintingAgent
    struct MintingAgentStorage {
        IComputeVerifier verifier;
        uint40 pausedUntil; // same slot as the verifier, which every mint reads
    }

    /// @dev The contracts the agent mints through never change for a deployment; immutables in the
    /// implementation save three cold storage reads (6,300 gas) per mint. Pointing the agent at
    /// other contracts is an upgrade, decided by governance like any other.
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    IProviderRegistry private immutable _registry;
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    ICUToken private immutable _cuToken;
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    ISSTB private immutable _sstb;
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    IERC20 private immutable _collateralToken;

    /// @dev `pausedUntil` as the first implementation's `bool paused = true` left it (see {initializeV2}).
    uint40 private constant V1_PAUSED = 1;

    // keccak256(abi.encode(uint256(keccak256("computeprotocol.storage.MintingAgent")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant STORAGE_LOCATION = 0xdc907ed0a474c8a83734e0a6de114218cf09c84d07d465c56b3e4ac1e407ca00;

    /// @notice sSTB was minted for a verified compute unit (webhook `sstb.minted`).
    /// @param provider The provider, owner of the minted sSTB.
    /// @param cuId The compute unit minted and burned in exchange.
    /// @param amount sSTB minted, equal to the unit's `cuValue`.
    /// @param collateralAmount Collateral posted with this mint.
    /// @param stakingPeriod Seconds the capacity stays committed.
    event SSTBMinted(
        address indexed provider,
        uint256 indexed cuId,
        uint256 amount,
        uint256 collateralAmount,
        uint256 stakingPeriod
    );
    /// @notice A provider burned sSTB to retire capacity.
    event CapacityRetired(address indexed provider, uint256 amount);
    /// @notice Governance replaced the compute verifier.
    event VerifierUpdated(address previous, address current);

    /// @notice The zero amount was given.
    error MintingAgentZeroAmount();

    /// @notice Deploys an implementation bound to the registry, CU token and sSTB of a deployment.
    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor(IProviderRegistry registry_, ICUToken cuToken_, ISSTB sstb_) {
        if (address(registry_) == address(0) || address(cuToken_) == address(0) || address(sstb_) == address(0)) {
            revert ZeroAddress();
        }
        _registry = registry_;
        _cuToken = cuToken_;
        _sstb = sstb_;
        _collateralToken = registry_.collateralToken();
    }

    /// @notice Initializes the proxy, at version 2 ({latestInitializerVersion}): {initializeV2} is
    /// for proxies the first implementation set up and never runs on one this code set up.
    /// @param admin Receives the admin, governance and upgrader roles (handed to the timelock).
    /// @param verifier_ The compute verifier.
    /// @custom:oz-upgrades-validate-as-initializer
    function initialize(address admin, IComputeVerifier verifier_) external notInitialized reinitializer(2) {
        __ProtocolUpgradeable_init(admin);
        __EmergencyPausable_init();
        if (address(verifier_) == address(0)) revert ZeroAddress();
        _storage().verifier = verifier_;
        emit VerifierUpdated(address(0), address(verifier_));
    }

    /// @notice Brings a proxy that the first implementation initialized to version 2: sets the
    /// guardian pause duration it lacked to its default (governance may change it afterwards), and
    /// keeps a pause of the first implementation as a governance pause. Emits
    /// {GuardianPauseDurationUpdated} as the setter does. A duration governance set (on a proxy
    /// upgraded without this call) is kept.
    /// @dev `reinitializer(2)`, upgrader role only: the upgrade proposal runs it through
    /// `upgradeToAndCall`, so no proxy runs the new code with a duration of zero. The first
    /// implementation kept a `bool paused` where `pausedUntil` is now, so a set flag reads as 1
    /// (a lapse time no pause writes). A proxy {initialize} set up is at version 2 already, so this
    /// never runs on it. How later versions add parameters:
    /// docs/decisions/0028-parameters-added-after-deployment.md.
    function initializeV2() external reinitializer(2) onlyRole(Roles.UPGRADER_ROLE) {
        __EmergencyPausable_initV2(_storage().pausedUntil == V1_PAUSED);
    }

    /// @inheritdoc ProtocolUpgradeable
    function latestInitializerVersion() public pure override returns (uint64) {
        return 2;
    }

    /// @notice Verifies a compute unit of the caller, takes its collateral and mints its value in sSTB.
    /// @dev Approve the minting agent for `collateralAmount` of the collateral token first. Stopped
    /// while paused ({IEmergencyPause}); retirement is not.
    /// Requirements: the caller is an active provider; `computeProof` verifies for the caller;
    /// `stakingPeriod` is within the registry's bounds; the caller's free collateral plus
    /// `collateralAmount` covers ratio x price x (available capacity + cuValue).
    /// @param computeProof The verifier's proof (for {AttestationVerifier}: attestation and signatures).
    /// @param collateralAmount Collateral to move from the caller into the vault (may be 0 when
    /// collateral deposited earlier already covers the new capacity).
    /// @param stakingPeriod Seconds before the capacity may be retired and excess collateral withdrawn.
    /// @return cuId The id of the compute unit's record.
    function verifyAndMintSSTB(
        bytes calldata computeProof,
        uint256 collateralAmount,
        uint256 stakingPeriod
    ) external nonReentrant returns (uint256 cuId) {
        MintingAgentStorage storage $ = _storage();
        if (block.timestamp < $.pausedUntil) revert EnforcedPause();
        VerifiedCompute memory verified = $.verifier.verify(msg.sender, computeProof);

        _registry.recordMint(msg.sender, verified.cuValue, collateralAmount, stakingPeriod);
        cuId = _cuToken.mint(msg.sender, verified);
        _cuToken.burn(msg.sender, cuId, verified.cuValue);
        emit SSTBMinted(msg.sender, cuId, verified.cuValue, collateralAmount, stakingPeriod);

        if (collateralAmount > 0) {
            _collateralToken.safeTransferFrom(msg.sender, address(_registry), collateralAmount);
        }
        _sstb.mint(msg.sender, verified.cuValue);
    }

    /// @notice Burns `amount` sSTB of the caller and retires that much of its capacity; the matching
    /// collateral becomes excess, withdrawable from the registry.
    /// @dev Approve the minting agent for `amount` sSTB first. Requirements: the staking period has
    /// ended and the caller has at least `amount` of available capacity.
    function retireCapacity(uint256 amount) external nonReentrant {
        if (amount == 0) revert MintingAgentZeroAmount();
        _registry.recordRetire(msg.sender, amount);
        emit CapacityRetired(msg.sender, amount);
        _sstb.burnFrom(msg.sender, amount);
    }

    /// @notice Replaces the compute verifier (governance), for example with a zk verifier.
    function setVerifier(IComputeVerifier verifier_) external onlyRole(Roles.GOVERNANCE_ROLE) {
        if (address(verifier_) == address(0)) revert ZeroAddress();
        MintingAgentStorage storage $ = _storage();
        emit VerifierUpdated(address($.verifier), address(verifier_));
        $.verifier = verifier_;
    }

    /// @notice The provider registry and collateral vault.
    function registry() external view returns (IProviderRegistry) {
        return _registry;
    }

    /// @notice The CU token.
    function cuToken() external view returns (ICUToken) {
        return _cuToken;
    }

    /// @notice The sSTB token.
    function sstb() external view returns (ISSTB) {
        return _sstb;
    }

    /// @notice The compute verifier.
    function verifier() external view returns (IComputeVerifier) {
        return _storage().verifier;
    }

    function _pausedUntil() internal view override returns (uint40) {
        return _storage().pausedUntil;
    }

    function _setPausedUntil(uint40 until) internal override {
        _storage().pausedUntil = until;
    }

    function _storage() private pure returns (MintingAgentStorage storage $) {
        assembly {
            $.slot := STORAGE_LOCATION
        }
    }
}
