// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IExtsload} from "../interfaces/IExtsload.sol";
import {IProviderRegistry} from "../interfaces/IProviderRegistry.sol";
import {IRedemptionManager} from "../interfaces/IRedemptionManager.sol";
import {IRedemptionViews} from "../interfaces/IRedemptionViews.sol";
import {RedemptionRecords} from "./RedemptionRecords.sol";

/// @title RedemptionViews
/// @notice The redemption manager's derived reads (the full record, status, deadlines, disputes,
/// leases, the fee quote, access keys, parameters), computed from the manager's storage words,
/// which the manager serves through `extsload`. The manager keeps the spec's `redemptions` getter
/// and its operations; everything a reader derives lives here (issue 23).
/// @dev Stateless and not upgradeable: it is bound to one manager and to the storage layout of
/// {RedemptionRecords}, which it shares with the manager's implementation. An upgrade of the
/// manager that changes that layout deploys a new read contract with it (the deployments file names
/// the one to use). Each read asks the manager for the words it needs, consecutive words in one
/// call.
contract RedemptionViews is RedemptionRecords, IRedemptionViews {
    /// @dev Words of `RedemptionManagerStorage` that hold parameters, counted from its first slot
    /// (see the struct): the treasury, fee and tier deadlines; the id counter, dispute window and
    /// resolution period; the minimum redemption and reputation unit; the maximum lease term.
    uint256 private constant WORD_FEES = 0;
    uint256 private constant WORD_COUNTERS = 1;
    uint256 private constant WORD_AMOUNTS = 4;
    uint256 private constant WORD_LEASE_TERMS = 11;

    IRedemptionManager private immutable _manager;

    /// @notice The zero address was given for the manager.
    error ZeroAddress();

    /// @notice Deploys the read contract of `manager_` (its proxy).
    constructor(IRedemptionManager manager_) {
        if (address(manager_) == address(0)) revert ZeroAddress();
        _manager = manager_;
    }

    /// @inheritdoc IRedemptionViews
    function manager() external view returns (IRedemptionManager) {
        return _manager;
    }

    /// @inheritdoc IRedemptionViews
    function redemptionOf(uint256 redemptionId) external view returns (IRedemptionManager.Redemption memory) {
        Record memory r = _load(redemptionId);
        return
            IRedemptionManager.Redemption({
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

    /// @inheritdoc IRedemptionViews
    function redemptionStatus(uint256 redemptionId) external view returns (IRedemptionManager.RedemptionStatus) {
        return _load(redemptionId).status;
    }

    /// @inheritdoc IRedemptionViews
    function deadlinesOf(
        uint256 redemptionId
    ) external view returns (uint256 fulfilmentDeadline, uint256 disputeDeadline) {
        Record memory r = _load(redemptionId);
        return (r.deadline, _disputeDeadline(r, uint32(_word(WORD_COUNTERS) >> 64)));
    }

    /// @inheritdoc IRedemptionViews
    function disputeOf(uint256 redemptionId) external view returns (IRedemptionManager.Dispute memory d) {
        _load(redemptionId);
        IRedemptionManager.Dispute storage stored = _storage().disputes[redemptionId];
        bytes32 slot;
        assembly {
            slot := stored.slot
        }
        bytes32[] memory words = _words(slot, 3);
        uint256 w0 = uint256(words[0]);
        d.issueType = IRedemptionManager.IssueType(uint8(w0));
        d.openedAt = uint40(w0 >> 8);
        d.respondedAt = uint40(w0 >> 48);
        d.resolvedAt = uint40(w0 >> 88);
        d.userWon = uint8(w0 >> 128) != 0;
        d.providerSuspended = uint8(w0 >> 136) != 0;
        d.evidenceHash = words[1];
        d.responseHash = words[2];
    }

    /// @inheritdoc IRedemptionViews
    function disputeResolutionDeadline(uint256 redemptionId) external view returns (uint256) {
        _load(redemptionId);
        IRedemptionManager.Dispute storage stored = _storage().disputes[redemptionId];
        bytes32 slot;
        assembly {
            slot := stored.slot
        }
        uint256 openedAt = uint40(uint256(_read(slot)) >> 8);
        return openedAt == 0 ? 0 : openedAt + uint32(_word(WORD_COUNTERS) >> 136);
    }

    /// @inheritdoc IRedemptionViews
    function quoteFee(uint256 amount) external view returns (uint256 fee, uint256 total) {
        fee = _fee(uint16(_word(WORD_FEES) >> 160), amount);
        total = amount + fee;
    }

    /// @inheritdoc IRedemptionViews
    function redemptionCount() external view returns (uint256) {
        return uint64(_word(WORD_COUNTERS));
    }

    /// @inheritdoc IRedemptionViews
    function accessKeyOf(address user) external view returns (bytes32) {
        mapping(address => bytes32) storage keys = _storage().accessKeys;
        bytes32 map;
        assembly {
            map := keys.slot
        }
        return _read(_entry(map, bytes32(uint256(uint160(user)))));
    }

    /// @inheritdoc IRedemptionViews
    function leaseOf(uint256 leaseId) external view returns (IRedemptionManager.Lease memory lease) {
        lease = _lease(leaseId);
        if (lease.status == IRedemptionManager.LeaseStatus.None) revert IRedemptionManager.LeaseNotFound(leaseId);
    }

    /// @inheritdoc IRedemptionViews
    function leaseStatus(uint256 leaseId) external view returns (IRedemptionManager.LeaseStatus) {
        return _lease(leaseId).status;
    }

    /// @inheritdoc IRedemptionViews
    function leaseIdOf(uint256 redemptionId) external view returns (uint256) {
        Record memory r = _load(redemptionId);
        if (r.flags & FLAG_RENEWAL != 0) return r.leaseId;
        return r.fulfilledAt != 0 ? redemptionId : 0;
    }

    /// @inheritdoc IRedemptionViews
    function renewalPeriodStart(uint256 redemptionId) external view returns (uint256) {
        return _load(redemptionId).periodStart;
    }

    /// @inheritdoc IRedemptionViews
    function maxLeaseTerm() external view returns (uint256) {
        return uint32(_word(WORD_LEASE_TERMS));
    }

    /// @inheritdoc IRedemptionViews
    function feeBps() external view returns (uint256) {
        return uint16(_word(WORD_FEES) >> 160);
    }

    /// @inheritdoc IRedemptionViews
    function treasury() external view returns (address) {
        return address(uint160(_word(WORD_FEES)));
    }

    /// @inheritdoc IRedemptionViews
    function tierDeadline(IProviderRegistry.Tier tier) external view returns (uint256) {
        // standard @176, premium @200, enterprise @224, 24 bits each
        return uint24(_word(WORD_FEES) >> (176 + 24 * uint256(tier)));
    }

    /// @inheritdoc IRedemptionViews
    function disputeWindow() external view returns (uint256) {
        return uint32(_word(WORD_COUNTERS) >> 64);
    }

    /// @inheritdoc IRedemptionViews
    function disputeResolutionPeriod() external view returns (uint256) {
        return uint32(_word(WORD_COUNTERS) >> 136);
    }

    /// @inheritdoc IRedemptionViews
    function minRedemptionAmount() external view returns (uint256) {
        return uint128(_word(WORD_AMOUNTS));
    }

    /// @inheritdoc IRedemptionViews
    function reputationUnit() external view returns (uint256) {
        return _word(WORD_AMOUNTS) >> 128;
    }

    // ---------------------------------------------------------------------------------------------
    // Internals
    // ---------------------------------------------------------------------------------------------

    /// @dev A record by id; reverts `RedemptionNotFound` for an id never issued.
    function _load(uint256 redemptionId) private view returns (Record memory r) {
        bytes32[] memory packed = _words(_packedSlot(redemptionId), 2);
        uint256 word0 = uint256(packed[0]);
        if (word0 != 0) {
            _unpack(r, word0, uint256(packed[1]));
            return r;
        }
        bytes32[] memory old = _words(_legacySlot(redemptionId), 3);
        if (!_unpackLegacy(r, uint256(old[0]), uint256(old[1]), uint256(old[2]))) {
            revert IRedemptionManager.RedemptionNotFound(redemptionId);
        }
    }

    /// @dev The provider of a record: stored in a legacy record, by index in a packed one.
    function _provider(Record memory r) private view returns (address) {
        if (r.legacy) return r.provider;
        mapping(uint256 => address) storage providerAt = _storage().providerAt;
        bytes32 map;
        assembly {
            map := providerAt.slot
        }
        return address(uint160(uint256(_read(_entry(map, bytes32(r.providerIndex))))));
    }

    /// @dev The lease `leaseId`, with status `None` (and nothing else) if it is not one: from its
    /// lease slot when it has a stated end, otherwise from its record.
    function _lease(uint256 leaseId) private view returns (IRedemptionManager.Lease memory lease) {
        Record memory r;
        bytes32[] memory packed = _words(_packedSlot(leaseId), 2);
        if (uint256(packed[0]) != 0) {
            _unpack(r, uint256(packed[0]), uint256(packed[1]));
        } else {
            bytes32[] memory old = _words(_legacySlot(leaseId), 3);
            if (!_unpackLegacy(r, uint256(old[0]), uint256(old[1]), uint256(old[2]))) return lease;
        }
        if (!_isLease(r)) return lease;
        lease.user = r.user;
        if (r.flags & FLAG_LEASE != 0) {
            RedemptionManagerStorage storage $ = _storage();
            LeaseSlot storage stored = $.leases[leaseId][r.user];
            RenewalOffer storage offered = $.renewalOffers[leaseId];
            bytes32 leaseSlot;
            bytes32 offerSlot;
            assembly {
                leaseSlot := stored.slot
                offerSlot := offered.slot
            }
            uint256 slot = uint256(_read(leaseSlot));
            uint256 offer = uint256(_read(offerSlot));
            bool terminated = uint8(slot >> 216) != 0;
            lease.end = uint32(slot >> 184);
            lease.status =
                terminated
                    ? IRedemptionManager.LeaseStatus.Terminated
                    : block.timestamp < lease.end
                        ? IRedemptionManager.LeaseStatus.Active
                        : IRedemptionManager.LeaseStatus.Ended;
            lease.provider = address(uint160(slot));
            lease.openDisputes = uint32(slot >> 224);
            lease.offerPrice = uint96(offer);
            lease.offerExtension = uint32(offer >> 96);
            lease.offerValidUntil = uint32(offer >> 128);
            return lease;
        }
        lease.status =
            r.flags & FLAG_TERMINATED != 0
                ? IRedemptionManager.LeaseStatus.Terminated
                : IRedemptionManager.LeaseStatus.Active;
        lease.provider = _provider(r);
        lease.openDisputes = r.status == IRedemptionManager.RedemptionStatus.Disputed ? 1 : 0;
    }

    /// @dev Word `index` of the manager's storage struct.
    function _word(uint256 index) private view returns (uint256) {
        RedemptionManagerStorage storage $ = _storage();
        bytes32 base;
        assembly {
            base := $.slot
        }
        return uint256(_read(bytes32(uint256(base) + index)));
    }

    /// @dev The slot of the value-type entry `key` of the mapping at slot `map` (Solidity's layout).
    function _entry(bytes32 map, bytes32 key) private pure returns (bytes32) {
        return keccak256(abi.encode(key, map));
    }

    function _read(bytes32 slot) private view returns (bytes32) {
        return IExtsload(address(_manager)).extsload(slot);
    }

    function _words(bytes32 startSlot, uint256 n) private view returns (bytes32[] memory) {
        return IExtsload(address(_manager)).extsload(startSlot, n);
    }
}
