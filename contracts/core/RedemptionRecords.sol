// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IProviderRegistry} from "../interfaces/IProviderRegistry.sol";
import {IRedemptionManager} from "../interfaces/IRedemptionManager.sol";

/// @title RedemptionRecords
/// @notice The redemption manager's storage, and the decoding of its records, shared by the
/// manager ({RedemptionManager}, which reads and writes its own storage) and its read contract
/// ({RedemptionViews}, which reads the manager's storage words through `extsload`).
/// @dev Nothing here reads storage: the storage struct gives both contracts the same slots (a
/// pointer from {_storage} is only ever used by the manager to read and write, and by the read
/// contract to compute a slot it then asks the manager for), and the decoders turn words into a
/// {Record} whichever contract read them. The compiler packs a struct's fields from the low end of
/// its slot in declaration order; the decoders follow the declarations below, and
/// `test/sol/RedemptionRecords.t.sol` checks every field of every struct the read contract decodes
/// against values the compiler wrote.
abstract contract RedemptionRecords {
    /// @dev Record flags (4 bits). LEASE: fulfilled with a stated end, so `leases[id][user]` exists.
    /// RENEWAL: a renewal of lease `leaseId` (created fulfilled). TERMINATED: a lease without a
    /// stated end that its user terminated (a lease with one keeps that in its lease slot).
    uint256 internal constant FLAG_LEASE = 1;
    uint256 internal constant FLAG_RENEWAL = 2;
    uint256 internal constant FLAG_TERMINATED = 4;

    uint256 internal constant BPS = 10_000;

    /// @dev A record of the first implementation (three slots), kept where it was written.
    /// `flags` was added by issue 19 in the first slot's unused last byte, zero in every record
    /// written before. Words: `user | timestamp u40 @160 | deadline u40 @200 | status u8 @240 |
    /// flags u8 @248`, `provider | fulfilledAt u40 @160 | weight u16 @200 | lockRatioBps u16 @216`,
    /// `amount u128 | lock u128 @128`.
    struct LegacyRedemption {
        address user;
        uint40 timestamp;
        uint40 deadline;
        IRedemptionManager.RedemptionStatus status;
        uint8 flags;
        address provider;
        uint40 fulfilledAt;
        uint16 weight;
        uint16 lockRatioBps;
        uint128 amount;
        uint128 lock;
    }

    /// @dev A record since issue 19: two words, bit layout in {_unpack}.
    struct PackedRedemption {
        uint256 word0;
        uint256 word1;
    }

    /// @dev A lease with a stated end, one slot (`provider | providerIndex u24 @160 | end u32 @184 |
    /// terminated u8 @216 | openDisputes u32 @224`), written at the fulfilment that states the end
    /// and found by the lease's id and its user (`leases[leaseId][user]`): the user is in the key,
    /// so the slot holds the provider's address (and its index, for the renewals' records) and
    /// renewing and terminating read this slot alone; `openDisputes` counts the lease's redemptions
    /// under dispute.
    struct LeaseSlot {
        address provider;
        uint24 providerIndex;
        uint32 end;
        bool terminated;
        uint32 openDisputes;
    }

    /// @dev The standing renewal offer of a lease (one slot: `price u96 | extension u32 @96 |
    /// validUntil u32 @128 | weight u16 @160`; `price` 0 means none). The renewal's reputation
    /// weight is fixed when it is offered, as a redemption's is when it is initiated.
    struct RenewalOffer {
        uint96 price;
        uint32 extension;
        uint32 validUntil;
        uint16 weight;
    }

    /// @dev What the manager keeps of a provider from its first redemption on: the index packed
    /// records name it by, and its tier (fixed at registration), so an initiation reads neither the
    /// registry's status slot nor a second slot of its own.
    struct ProviderEntry {
        uint24 index;
        IProviderRegistry.Tier tier;
    }

    /// @dev A record as the logic works on it, from either layout. Only `status`, `flags` and
    /// `fulfilledAt` ever change after creation.
    struct Record {
        address user;
        IRedemptionManager.RedemptionStatus status;
        bool legacy; // kept in the first layout
        address provider; // legacy records only; packed ones name it by index
        uint256 providerIndex; // packed records only
        uint256 timestamp;
        uint256 deadline;
        uint256 flags;
        uint256 fulfilledAt;
        uint256 weight;
        uint256 lockRatioBps;
        uint256 amount;
        uint256 lock;
        uint256 leaseId; // renewals only
        uint256 periodStart; // renewals only: the start of the period it paid for (0 before issue 23)
    }

    /// @custom:storage-location erc7201:computeprotocol.storage.RedemptionManager
    struct RedemptionManagerStorage {
        // one slot, read by every initiation: `treasury | feeBps u16 @160 | standardDeadline u24
        // @176 | premiumDeadline u24 @200 | enterpriseDeadline u24 @224`
        address treasury;
        uint16 feeBps;
        uint24 standardDeadline;
        uint24 premiumDeadline;
        uint24 enterpriseDeadline;
        // (the slot's last byte held the first implementation's pause flag: see `initializeV2`)
        // one slot, read and written by every initiation: `redemptionCount u64 | disputeWindow u32
        // @64 | pausedUntil u40 @96 | disputeResolutionPeriod u32 @136`
        uint64 redemptionCount;
        uint32 disputeWindow;
        uint40 pausedUntil;
        uint32 disputeResolutionPeriod;
        // records written before issue 19 (three slots each)
        mapping(uint256 redemptionId => LegacyRedemption) redemptions;
        mapping(uint256 redemptionId => IRedemptionManager.Dispute) disputes;
        // one slot, read by every initiation: `minRedemptionAmount u128 | reputationUnit u128 @128`
        uint128 minRedemptionAmount;
        uint128 reputationUnit;
        // --- issue 19 ---
        // records written since (two words each)
        mapping(uint256 redemptionId => PackedRedemption) records;
        // each provider's index in packed records (from 1) and tier, from its first redemption on
        mapping(address provider => ProviderEntry) providerEntries;
        mapping(uint256 providerIndex => address) providerAt;
        mapping(address user => bytes32) accessKeys;
        mapping(uint256 leaseId => mapping(address user => LeaseSlot)) leases;
        mapping(uint256 leaseId => RenewalOffer) renewalOffers;
        // `maxLeaseTerm u32 | providerCount u24 @32`
        uint32 maxLeaseTerm;
        uint24 providerCount;
    }

    // keccak256(abi.encode(uint256(keccak256("computeprotocol.storage.RedemptionManager")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant STORAGE_LOCATION = 0x4d4df5d96ab278df845ea28e0141acb1493eef02109d56f6781ba8518e940900;

    function _storage() internal pure returns (RedemptionManagerStorage storage $) {
        assembly {
            $.slot := STORAGE_LOCATION
        }
    }

    /// @dev The first of `records[redemptionId]`'s two words.
    function _packedSlot(uint256 redemptionId) internal view returns (bytes32 slot) {
        PackedRedemption storage packed = _storage().records[redemptionId];
        assembly {
            slot := packed.slot
        }
    }

    /// @dev The first of `redemptions[redemptionId]`'s three words (the first layout).
    function _legacySlot(uint256 redemptionId) internal view returns (bytes32 slot) {
        LegacyRedemption storage old = _storage().redemptions[redemptionId];
        assembly {
            slot := old.slot
        }
    }

    /// @dev Decodes a packed record (bit offsets from the low end). Every field is bounded where it
    /// is set: amounts and locks by `SafeCast` at creation (96 bits: 79 billion sSTB, 7.9e28
    /// collateral units), times by `SafeCast` to 32 bits (until 2106), the provider index to 24
    /// bits, the weight to 16, the ratio by the registry (<= 30,000), the fulfilment time allowed by
    /// a tier (<= 7 days), a renewal's lease id by `SafeCast` to 32 bits.
    ///   word0: user [0,160) | timestamp [160,192) | status [192,196) | flags [196,200) |
    ///          providerIndex [200,224) | weight [224,240) | lockRatioBps [240,256)
    ///   word1: amount [0,96) | lock [96,192) | then either fulfilledAt [192,224) and
    ///          deadline - timestamp [224,256), or for a renewal (fulfilled and due at its
    ///          creation) the renewed lease's id [192,224) and the start of the period it paid for
    ///          [224,256) (0 in a renewal accepted before issue 23, whose lease id took both)
    function _unpack(Record memory r, uint256 word0, uint256 word1) internal pure {
        r.user = address(uint160(word0));
        r.timestamp = uint32(word0 >> 160);
        r.status = IRedemptionManager.RedemptionStatus((word0 >> 192) & 0xf);
        r.flags = (word0 >> 196) & 0xf;
        r.providerIndex = uint24(word0 >> 200);
        r.weight = uint16(word0 >> 224);
        r.lockRatioBps = word0 >> 240;
        r.amount = uint96(word1);
        r.lock = uint96(word1 >> 96);
        if (r.flags & FLAG_RENEWAL != 0) {
            r.leaseId = uint32(word1 >> 192);
            r.periodStart = word1 >> 224;
            r.fulfilledAt = r.timestamp;
            r.deadline = r.timestamp;
        } else {
            r.fulfilledAt = uint32(word1 >> 192);
            r.deadline = r.timestamp + (word1 >> 224);
        }
    }

    /// @dev Decodes a record of the first layout from its three words (see {LegacyRedemption});
    /// false for an empty one (status `None`: never issued there).
    function _unpackLegacy(Record memory r, uint256 w0, uint256 w1, uint256 w2) internal pure returns (bool) {
        r.status = IRedemptionManager.RedemptionStatus(uint8(w0 >> 240));
        if (r.status == IRedemptionManager.RedemptionStatus.None) return false;
        r.user = address(uint160(w0));
        r.timestamp = uint40(w0 >> 160);
        r.deadline = uint40(w0 >> 200);
        r.flags = uint8(w0 >> 248);
        r.provider = address(uint160(w1));
        r.fulfilledAt = uint40(w1 >> 160);
        r.weight = uint16(w1 >> 200);
        r.lockRatioBps = uint16(w1 >> 216);
        r.amount = uint128(w2);
        r.lock = w2 >> 128;
        r.legacy = true;
        return true;
    }

    /// @dev The end of a redemption's dispute window (its last second): `window` after the start of
    /// the period a renewal paid for, after the fulfilment of any other fulfilled redemption, after
    /// the request of a pending one. A renewal accepted before issue 23 (no period recorded) counts
    /// from its acceptance, as it did then.
    function _disputeDeadline(Record memory r, uint256 window) internal pure returns (uint256) {
        uint256 from =
            r.periodStart != 0
                ? r.periodStart
                : r.fulfilledAt != 0
                    ? r.fulfilledAt
                    : r.timestamp;
        return from + window;
    }

    /// @dev A record that is a lease: fulfilled, and not a renewal (a renewal extends a lease).
    function _isLease(Record memory r) internal pure returns (bool) {
        return r.fulfilledAt != 0 && r.flags & FLAG_RENEWAL == 0;
    }

    /// @dev The lease of a record flagged LEASE (itself) or RENEWAL (the one it renewed).
    function _leaseOfRecord(uint256 redemptionId, Record memory r) internal pure returns (uint256) {
        return r.flags & FLAG_RENEWAL != 0 ? r.leaseId : redemptionId;
    }

    /// @dev Rounded up, so no redemption above zero is free of fee while the fee is above zero.
    function _fee(uint256 feeBps_, uint256 amount) internal pure returns (uint256) {
        return (amount * feeBps_ + BPS - 1) / BPS;
    }
}
