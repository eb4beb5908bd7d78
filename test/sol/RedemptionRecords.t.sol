// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "forge-std/Test.sol";

import {RedemptionRecords} from "../../contracts/core/RedemptionRecords.sol";
import {RedemptionViews} from "../../contracts/core/RedemptionViews.sol";
import {IProviderRegistry} from "../../contracts/interfaces/IProviderRegistry.sol";
import {IRedemptionManager} from "../../contracts/interfaces/IRedemptionManager.sol";
import {Extsload} from "../../contracts/utils/Extsload.sol";

/// @title RedemptionStorageHarness
/// @notice The redemption manager's storage without its logic: the compiler writes each struct the
/// read contract decodes by hand, field by field, and `extsload` serves the words.
contract RedemptionStorageHarness is RedemptionRecords, Extsload {
    function setLegacy(uint256 id, LegacyRedemption calldata r) external {
        _storage().redemptions[id] = r;
    }

    function setPacked(uint256 id, uint256 word0, uint256 word1) external {
        _storage().records[id] = PackedRedemption(word0, word1);
    }

    function setDispute(uint256 id, IRedemptionManager.Dispute calldata d) external {
        _storage().disputes[id] = d;
    }

    function setLease(uint256 id, address user, LeaseSlot calldata lease, RenewalOffer calldata offer) external {
        _storage().leases[id][user] = lease;
        _storage().renewalOffers[id] = offer;
    }

    function setProviderAt(uint256 index, address provider) external {
        _storage().providerAt[index] = provider;
    }

    function setAccessKey(address user, bytes32 key) external {
        _storage().accessKeys[user] = key;
    }

    /// @dev Every parameter of the storage struct, from the fuzzer's words.
    function setParameters(uint256[4] calldata words) external {
        RedemptionManagerStorage storage $ = _storage();
        $.treasury = address(uint160(words[0]));
        $.feeBps = uint16(words[0] >> 160);
        $.standardDeadline = uint24(words[1]);
        $.premiumDeadline = uint24(words[1] >> 24);
        $.enterpriseDeadline = uint24(words[1] >> 48);
        $.redemptionCount = uint64(words[1] >> 72);
        $.disputeWindow = uint32(words[1] >> 136);
        $.pausedUntil = uint40(words[1] >> 168);
        $.disputeResolutionPeriod = uint32(words[1] >> 208);
        $.minRedemptionAmount = uint128(words[2]);
        $.reputationUnit = uint128(words[2] >> 128);
        $.maxLeaseTerm = uint32(words[3]);
        $.providerCount = uint24(words[3] >> 32);
    }
}

/// @title RedemptionRecordsTest
/// @notice The read contract decodes every field of every struct of the manager's storage as the
/// compiler laid it out (issue 23): values written through the structs come back through the views.
contract RedemptionRecordsTest is Test {
    /// @dev A first-layout record as the fuzzer gives it (the status as a number, bounded here).
    struct LegacyFields {
        address user;
        uint40 timestamp;
        uint40 deadline;
        uint8 status;
        uint8 flags;
        address provider;
        uint40 fulfilledAt;
        uint16 weight;
        uint16 lockRatioBps;
        uint128 amount;
        uint128 lock;
    }

    /// @dev A dispute as the fuzzer gives it (the issue type as a number).
    struct DisputeFields {
        uint8 issueType;
        uint40 openedAt;
        uint40 respondedAt;
        uint40 resolvedAt;
        bool userWon;
        bool providerSuspended;
        bytes32 evidenceHash;
        bytes32 responseHash;
    }

    RedemptionStorageHarness internal store;
    RedemptionViews internal views;

    function setUp() public {
        store = new RedemptionStorageHarness();
        views = new RedemptionViews(IRedemptionManager(address(store)));
    }

    function testFuzz_legacyRecord_decodesEveryField(LegacyFields memory fields, uint32 window) public {
        RedemptionRecords.LegacyRedemption memory r = RedemptionRecords.LegacyRedemption({
            user: fields.user,
            timestamp: fields.timestamp,
            deadline: fields.deadline,
            status: IRedemptionManager.RedemptionStatus(bound(fields.status, 1, 6)),
            flags: uint8(bound(fields.flags, 0, 15)),
            provider: fields.provider,
            fulfilledAt: fields.fulfilledAt,
            weight: fields.weight,
            lockRatioBps: fields.lockRatioBps,
            amount: fields.amount,
            lock: fields.lock
        });
        uint256 id = 7;
        store.setLegacy(id, r);
        store.setParameters([uint256(0), uint256(window) << 136, 0, 0]);
        IRedemptionManager.Redemption memory read = views.redemptionOf(id);
        assertEq(read.user, r.user);
        assertEq(read.timestamp, r.timestamp);
        assertEq(read.deadline, r.deadline);
        assertEq(uint8(read.status), uint8(r.status));
        assertEq(read.provider, r.provider);
        assertEq(read.fulfilledAt, r.fulfilledAt);
        assertEq(read.weight, r.weight);
        assertEq(read.lockRatioBps, r.lockRatioBps);
        assertEq(read.amount, r.amount);
        assertEq(read.lock, r.lock);
        assertEq(uint8(views.redemptionStatus(id)), uint8(r.status));
        (uint256 fulfilment, uint256 dispute) = views.deadlinesOf(id);
        assertEq(fulfilment, r.deadline);
        assertEq(dispute, uint256(r.fulfilledAt != 0 ? r.fulfilledAt : r.timestamp) + window);
        assertEq(views.renewalPeriodStart(id), 0);
    }

    function test_unknownRecord_isNotFound() public {
        vm.expectRevert(abi.encodeWithSelector(IRedemptionManager.RedemptionNotFound.selector, 9));
        views.redemptionOf(9);
        assertEq(uint8(views.leaseStatus(9)), uint8(IRedemptionManager.LeaseStatus.None));
    }

    function testFuzz_renewalRecord_decodesItsLeaseAndPeriod(
        address user,
        uint32 timestamp,
        uint32 leaseId,
        uint32 periodStart,
        uint24 providerIndex,
        address provider,
        uint32 window
    ) public {
        vm.assume(user != address(0));
        uint256 word0 =
            uint256(uint160(user)) |
                (uint256(timestamp) << 160) |
                (uint256(IRedemptionManager.RedemptionStatus.Fulfilled) << 192) |
                (uint256(2) << 196) | // FLAG_RENEWAL
                (uint256(providerIndex) << 200);
        uint256 word1 = (uint256(leaseId) << 192) | (uint256(periodStart) << 224);
        store.setPacked(3, word0, word1);
        store.setProviderAt(providerIndex, provider);
        store.setParameters([uint256(0), uint256(window) << 136, 0, 0]);
        assertEq(views.leaseIdOf(3), leaseId);
        assertEq(views.renewalPeriodStart(3), periodStart);
        assertEq(views.redemptionOf(3).provider, provider);
        assertEq(views.redemptionOf(3).fulfilledAt, timestamp);
        (, uint256 dispute) = views.deadlinesOf(3);
        // from the start of the paid period; a renewal recorded without one counts from its creation
        assertEq(dispute, uint256(periodStart != 0 ? periodStart : timestamp) + window);
        assertEq(uint8(views.leaseStatus(3)), uint8(IRedemptionManager.LeaseStatus.None));
    }

    function testFuzz_dispute_decodesEveryField(DisputeFields memory fields) public {
        IRedemptionManager.Dispute memory d = IRedemptionManager.Dispute({
            issueType: IRedemptionManager.IssueType(bound(fields.issueType, 0, 4)),
            openedAt: fields.openedAt,
            respondedAt: fields.respondedAt,
            resolvedAt: fields.resolvedAt,
            userWon: fields.userWon,
            providerSuspended: fields.providerSuspended,
            evidenceHash: fields.evidenceHash,
            responseHash: fields.responseHash
        });
        RedemptionRecords.LegacyRedemption memory r;
        r.status = IRedemptionManager.RedemptionStatus.Disputed;
        store.setLegacy(5, r);
        store.setDispute(5, d);
        store.setParameters([uint256(0), uint256(0), 0, 0]);
        IRedemptionManager.Dispute memory read = views.disputeOf(5);
        assertEq(uint8(read.issueType), uint8(d.issueType));
        assertEq(read.openedAt, d.openedAt);
        assertEq(read.respondedAt, d.respondedAt);
        assertEq(read.resolvedAt, d.resolvedAt);
        assertEq(read.userWon, d.userWon);
        assertEq(read.providerSuspended, d.providerSuspended);
        assertEq(read.evidenceHash, d.evidenceHash);
        assertEq(read.responseHash, d.responseHash);
    }

    function testFuzz_disputeResolutionDeadline_fromTheOpeningAndThePeriod(uint40 openedAt, uint32 period) public {
        RedemptionRecords.LegacyRedemption memory r;
        r.status = IRedemptionManager.RedemptionStatus.Disputed;
        store.setLegacy(5, r);
        IRedemptionManager.Dispute memory d;
        d.openedAt = openedAt;
        store.setDispute(5, d);
        store.setParameters([uint256(0), uint256(period) << 208, 0, 0]);
        assertEq(views.disputeResolutionDeadline(5), openedAt == 0 ? 0 : uint256(openedAt) + period);
    }

    function testFuzz_leaseWithAStatedEnd_decodesItsSlotAndOffer(
        address user,
        RedemptionRecords.LeaseSlot memory lease,
        RedemptionRecords.RenewalOffer memory offer,
        uint32 fulfilledAt
    ) public {
        vm.assume(user != address(0) && lease.provider != address(0) && fulfilledAt != 0);
        uint256 word0 =
            uint256(uint160(user)) |
                (uint256(IRedemptionManager.RedemptionStatus.Fulfilled) << 192) |
                (uint256(1) << 196); // FLAG_LEASE
        store.setPacked(4, word0, uint256(fulfilledAt) << 192);
        store.setLease(4, user, lease, offer);
        IRedemptionManager.Lease memory read = views.leaseOf(4);
        assertEq(read.user, user);
        assertEq(read.provider, lease.provider);
        assertEq(read.end, lease.end);
        assertEq(read.openDisputes, lease.openDisputes);
        assertEq(read.offerPrice, offer.price);
        assertEq(read.offerExtension, offer.extension);
        assertEq(read.offerValidUntil, offer.validUntil);
        IRedemptionManager.LeaseStatus expected =
            lease.terminated
                ? IRedemptionManager.LeaseStatus.Terminated
                : block.timestamp < lease.end
                    ? IRedemptionManager.LeaseStatus.Active
                    : IRedemptionManager.LeaseStatus.Ended;
        assertEq(uint8(read.status), uint8(expected));
        assertEq(uint8(views.leaseStatus(4)), uint8(expected));
        assertEq(views.leaseIdOf(4), 4);
    }

    function testFuzz_parameters_decodeEveryField(uint256[4] memory words, address user, bytes32 key) public {
        store.setParameters(words);
        store.setAccessKey(user, key);
        assertEq(views.treasury(), address(uint160(words[0])));
        assertEq(views.feeBps(), uint16(words[0] >> 160));
        assertEq(views.tierDeadline(IProviderRegistry.Tier.Standard), uint24(words[1]));
        assertEq(views.tierDeadline(IProviderRegistry.Tier.Premium), uint24(words[1] >> 24));
        assertEq(views.tierDeadline(IProviderRegistry.Tier.Enterprise), uint24(words[1] >> 48));
        assertEq(views.redemptionCount(), uint64(words[1] >> 72));
        assertEq(views.disputeWindow(), uint32(words[1] >> 136));
        assertEq(views.disputeResolutionPeriod(), uint32(words[1] >> 208));
        assertEq(views.minRedemptionAmount(), uint128(words[2]));
        assertEq(views.reputationUnit(), uint128(words[2] >> 128));
        assertEq(views.maxLeaseTerm(), uint32(words[3]));
        assertEq(views.accessKeyOf(user), key);
        (uint256 fee, uint256 total) = views.quoteFee(1e18);
        assertEq(fee, (1e18 * uint256(uint16(words[0] >> 160)) + 9_999) / 10_000);
        assertEq(total, 1e18 + fee);
        assertEq(address(views.manager()), address(store));
    }

    function test_extsload_readsConsecutiveWords() public {
        store.setParameters([uint256(1), uint256(2), uint256(3), uint256(4)]);
        bytes32 base = 0x4d4df5d96ab278df845ea28e0141acb1493eef02109d56f6781ba8518e940900;
        bytes32[] memory words = store.extsload(base, 2);
        assertEq(words.length, 2);
        // the first word: treasury 1 and the standard deadline 2 at bit 176
        assertEq(uint256(words[0]), 1 | (2 << 176));
        assertEq(words[0], store.extsload(base));
        assertEq(words[1], store.extsload(bytes32(uint256(base) + 1)));
        assertEq(store.extsload(base, 0).length, 0);
    }

    function test_constructor_refusesAZeroManager() public {
        vm.expectRevert(RedemptionViews.ZeroAddress.selector);
        new RedemptionViews(IRedemptionManager(address(0)));
    }
}
