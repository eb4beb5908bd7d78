// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test} from "forge-std/Test.sol";

import {ProviderRegistry} from "../../contracts/core/ProviderRegistry.sol";
import {RedemptionManager} from "../../contracts/core/RedemptionManager.sol";
import {RedemptionViews} from "../../contracts/core/RedemptionViews.sol";
import {IProviderRegistry} from "../../contracts/interfaces/IProviderRegistry.sol";
import {IRedemptionManager} from "../../contracts/interfaces/IRedemptionManager.sol";
import {SSTB} from "../../contracts/tokens/SSTB.sol";
import {ProtocolSetup} from "./utils/ProtocolSetup.sol";

/// @title ProtocolHandler
/// @notice Drives random sequences of mint, retire, deposit, withdraw, sSTB transfers, time,
/// suspension and reinstatement, every redemption transition (initiate, fulfil, confirm,
/// finalize, expire, dispute, resolve, close a lapsed dispute, and calls by the wrong party, a
/// provider redeeming against itself, dust, and a second mint of a unit) and every lease
/// transition (fulfil with a stated end, offer, withdraw and accept a renewal, terminate) through
/// the real contracts, as three providers and two users would. After every call it checks that
/// each redemption moved at most one step forward and that each lease only moved forward.
// the handler's counters are public state for the invariants to read
// solhint-disable-next-line max-states-count
contract ProtocolHandler is ProtocolSetup {
    address[3] public providers;
    address[2] public users;
    uint256 public mints;
    uint256 public retirements;
    uint256 public withdrawals;
    uint256 public redemptionsEnded;
    /// @notice Transitions observed that the state machine does not allow (must stay 0).
    uint256 public backwardOrSkippedMoves;
    /// @notice Collateral paid to users as compensation, summed from their balances' changes.
    uint256 public compensationPaid;
    /// @notice Collateral paid to the treasury as early-exit penalties, from its balance's changes.
    uint256 public penaltiesPaid;
    /// @notice Calls that the protocol must refuse but accepted (a provider redeeming against
    /// itself, a redemption below the minimum, a second mint of a unit, a suspended provider
    /// withdrawing collateral that backs something). Must stay 0.
    uint256 public forbiddenCallsAccepted;
    uint256 public suspensions;
    uint256 public lapsedDisputesClosed;
    /// @notice Lease moves the lease rules forbid (must stay 0): a status going back or skipping
    /// (None -> Active -> Ended | Terminated, the last two final), a stated end that decreased, or
    /// an end that changed once the lease ended or was terminated.
    uint256 public leaseBackwardMoves;
    /// @notice A renewal finalized by anyone before the dispute window after the start of the
    /// period it paid for ran out, or its user refused a dispute within that window (must stay 0;
    /// issue 23, property 2).
    uint256 public renewalWindowViolations;
    uint256 private _nextUnit;
    /// @dev Each renewal's paid period start, as the handler saw the lease's end before accepting.
    mapping(uint256 renewalId => uint256) private _paidFrom;

    /// @dev What the observer last saw of an id: the redemption's status, and the lease's.
    struct Seen {
        IRedemptionManager.RedemptionStatus status;
        IRedemptionManager.LeaseStatus leaseStatus;
        uint256 leaseEnd;
    }

    mapping(uint256 redemptionId => Seen) private _seen;

    constructor() {
        _deployProtocol();
        providers = [makeAddr("provider-0"), makeAddr("provider-1"), makeAddr("provider-2")];
        users = [makeAddr("user-0"), makeAddr("user-1")];
        for (uint256 i = 0; i < 3; ++i) _registerActive(providers[i]);
        for (uint256 i = 0; i < 2; ++i) {
            vm.prank(users[i]);
            sstb.approve(address(manager), type(uint256).max);
        }
    }

    /// @dev Records every redemption's status after the call and counts illegal moves.
    modifier observed() {
        uint256 before = collateral.balanceOf(users[0]) + collateral.balanceOf(users[1]);
        uint256 treasuryBefore = collateral.balanceOf(treasury);
        _;
        compensationPaid += collateral.balanceOf(users[0]) + collateral.balanceOf(users[1]) - before;
        penaltiesPaid += collateral.balanceOf(treasury) - treasuryBefore;
        uint256 count = views.redemptionCount();
        for (uint256 id = 1; id <= count; ++id) {
            IRedemptionManager.RedemptionStatus current = views.redemptionStatus(id);
            IRedemptionManager.RedemptionStatus previous = _seen[id].status;
            if (current != previous) {
                if (!_allowed(id, previous, current)) ++backwardOrSkippedMoves;
                if (_isFinal(current)) ++redemptionsEnded;
                _seen[id].status = current;
            }
            _observeLease(id);
        }
    }

    /// @dev A lease's status only moves None -> Active -> Ended | Terminated; its stated end never
    /// decreases, and is frozen once the lease ended or was terminated.
    function _observeLease(uint256 id) private {
        Seen storage seen = _seen[id];
        IRedemptionManager.LeaseStatus current = views.leaseStatus(id);
        IRedemptionManager.LeaseStatus previous = seen.leaseStatus;
        if (current != previous) {
            bool forward =
                (previous == IRedemptionManager.LeaseStatus.None && current == IRedemptionManager.LeaseStatus.Active) ||
                    (previous == IRedemptionManager.LeaseStatus.Active &&
                        (current == IRedemptionManager.LeaseStatus.Ended ||
                            current == IRedemptionManager.LeaseStatus.Terminated));
            if (!forward) ++leaseBackwardMoves;
            seen.leaseStatus = current;
        }
        if (current == IRedemptionManager.LeaseStatus.None) return;
        uint256 end = views.leaseOf(id).end;
        uint256 last = seen.leaseEnd;
        // the end is set when the lease starts and moves (forward) only while it runs
        bool settable =
            previous == IRedemptionManager.LeaseStatus.None || previous == IRedemptionManager.LeaseStatus.Active;
        if (end < last || (end != last && !settable)) ++leaseBackwardMoves;
        seen.leaseEnd = end;
    }

    function mint(uint256 seed, uint256 cuValue, uint256 extra, uint256 period) external observed {
        address provider = providers[seed % 3];
        // only an active provider adds capacity
        if (registry.accountOf(provider).status != IProviderRegistry.ProviderStatus.Active) return;
        _mint(provider, bound(cuValue, 1, 1e24), extra, period);
    }

    function retire(uint256 seed, uint256 amount) external observed {
        address provider = providers[seed % 3];
        uint256 available = registry.accountOf(provider).availableCU;
        uint256 balance = sstb.balanceOf(provider);
        uint256 most = available < balance ? available : balance;
        if (most == 0) return;
        amount = bound(amount, 1, most);
        uint40 stakedUntil = registry.accountOf(provider).stakedUntil;
        if (stakedUntil > block.timestamp) vm.warp(stakedUntil);
        vm.prank(provider);
        agent.retireCapacity(amount);
        ++retirements;
    }

    function deposit(uint256 seed, uint256 amount) external observed {
        address provider = providers[seed % 3];
        amount = bound(amount, 1, 1e15);
        vm.prank(provider);
        registry.depositCollateral(amount);
    }

    function withdraw(uint256 seed, uint256 amount) external observed {
        address provider = providers[seed % 3];
        uint256 excess = registry.excessCollateral(provider);
        if (excess == 0) return;
        amount = bound(amount, 1, excess);
        IProviderRegistry.ProviderAccount memory account = registry.accountOf(provider);
        if (account.stakedUntil > block.timestamp) vm.warp(account.stakedUntil);
        vm.prank(provider);
        if (
            account.status == IProviderRegistry.ProviderStatus.Suspended &&
            (account.availableCU != 0 || account.lockedCollateral != 0)
        ) {
            // a suspended provider's collateral stays while it backs anything
            try registry.withdrawCollateral(amount) {
                ++forbiddenCallsAccepted;
            } catch {}
            return;
        }
        registry.withdrawCollateral(amount);
        ++withdrawals;
    }

    /// @dev The arbitrator suspends a provider; its capacity stays redeemable.
    function suspend(uint256 seed) external observed {
        address provider = providers[seed % 3];
        if (registry.accountOf(provider).status != IProviderRegistry.ProviderStatus.Active) return;
        vm.prank(arbitrator);
        registry.suspendProvider(provider);
        ++suspensions;
    }

    /// @dev Governance reinstates a suspended provider.
    function reinstate(uint256 seed) external observed {
        address provider = providers[seed % 3];
        if (registry.accountOf(provider).status != IProviderRegistry.ProviderStatus.Suspended) return;
        bytes32 reviewed = registry.reviewedProfileHash(provider);
        vm.prank(admin);
        registry.reinstateProvider(provider, reviewed);
    }

    /// @dev Providers sell sSTB to users and to each other.
    function transferSSTB(uint256 fromSeed, uint256 toSeed, uint256 amount) external observed {
        address from = providers[fromSeed % 3];
        address to = toSeed % 5 < 3 ? providers[toSeed % 5] : users[(toSeed % 5) - 3];
        uint256 balance = sstb.balanceOf(from);
        if (balance == 0) return;
        amount = bound(amount, 1, balance);
        vm.prank(from);
        sstb.transfer(to, amount);
    }

    function passTime(uint256 seconds_) external observed {
        vm.warp(block.timestamp + bound(seconds_, 1, 60 days));
    }

    function redeem(uint256 userSeed, uint256 providerSeed, uint256 amount) external observed {
        address user = users[userSeed % 2];
        uint256 minimum = views.minRedemptionAmount();
        // the first provider from the seed on with the minimum available (an active one without it
        // first proves some capacity); suspended providers stay redeemable
        address provider;
        for (uint256 i = 0; i < 3 && provider == address(0); ++i) {
            address candidate = providers[(providerSeed + i) % 3];
            IProviderRegistry.ProviderAccount memory account = registry.accountOf(candidate);
            if (account.availableCU < minimum && account.status == IProviderRegistry.ProviderStatus.Active) {
                _mint(candidate, 1e21, 0, 0);
            }
            if (registry.accountOf(candidate).availableCU >= minimum) provider = candidate;
        }
        if (provider == address(0)) return;
        // a user short of the minimum plus fee buys from a provider that has enough
        if (sstb.balanceOf(user) < 2 * minimum) _fund(user, 2 * minimum);
        uint256 balance = sstb.balanceOf(user);
        uint256 available = registry.accountOf(provider).availableCU;
        // amount + fee (10 bps, rounded up) must fit the balance
        uint256 most = balance > 1 ? balance - balance / 1_000 - 1 : 0;
        if (available < most) most = available;
        if (most < minimum) return;
        amount = bound(amount, minimum, most);
        vm.prank(user);
        manager.initiateRedemption(amount, provider);
    }

    function fulfil(uint256 idSeed) external observed {
        (uint256 id, IRedemptionManager.Redemption memory r) = _pick(idSeed);
        if (r.status != IRedemptionManager.RedemptionStatus.Pending) return;
        vm.prank(r.provider);
        manager.fulfillRedemption(id, "envelope");
    }

    /// @dev The provider fulfils with a stated end, anywhere in (now, now + maximum term].
    function fulfilWithLease(uint256 idSeed, uint256 term) external observed {
        (uint256 id, IRedemptionManager.Redemption memory r) = _pick(idSeed);
        if (r.status != IRedemptionManager.RedemptionStatus.Pending) return;
        uint256 end = block.timestamp + bound(term, 1, views.maxLeaseTerm());
        vm.prank(r.provider);
        manager.fulfillRedemptionWithLease(id, "envelope", end);
    }

    /// @dev The provider offers a renewal of a running, undisputed lease with a stated end.
    function offer(uint256 idSeed, uint256 price, uint256 extension, uint256 validity) external observed {
        (uint256 id, IRedemptionManager.Lease memory lease) = _pickRenewable(idSeed);
        if (id == 0) return;
        uint256 latest = block.timestamp + views.maxLeaseTerm();
        if (latest <= lease.end) return;
        price = bound(price, views.minRedemptionAmount(), 50e18);
        extension = bound(extension, 1, latest - lease.end);
        uint256 validUntil = bound(validity, block.timestamp + 1, lease.end);
        vm.prank(lease.provider);
        manager.offerRenewal(id, price, extension, validUntil);
    }

    function withdrawOffer(uint256 idSeed) external observed {
        (uint256 id, IRedemptionManager.Lease memory lease) = _pickLease(idSeed);
        if (id == 0 || lease.offerPrice == 0 || lease.end == 0) return;
        vm.prank(lease.provider);
        manager.withdrawRenewalOffer(id);
    }

    /// @dev The user accepts a standing offer it can pay for; the provider proves more capacity
    /// first if it has too little (as `redeem` does).
    function renew(uint256 idSeed) external observed {
        (uint256 id, IRedemptionManager.Lease memory lease) = _pickRenewable(idSeed);
        if (id == 0 || lease.offerPrice == 0 || block.timestamp > lease.offerValidUntil) return;
        IProviderRegistry.ProviderAccount memory account = registry.accountOf(lease.provider);
        if (account.availableCU < lease.offerPrice) {
            if (account.status != IProviderRegistry.ProviderStatus.Active) return;
            _mint(lease.provider, lease.offerPrice, 0, 0);
        }
        (, uint256 total) = views.quoteFee(lease.offerPrice);
        if (!_fund(lease.user, total)) return;
        vm.prank(lease.user);
        uint256 renewalId = manager.acceptRenewal(id, lease.offerPrice, lease.offerExtension);
        _paidFrom[renewalId] = lease.end;
    }

    /// @dev The user ends a running lease (with or without a stated end).
    function terminate(uint256 idSeed) external observed {
        (uint256 id, IRedemptionManager.Lease memory lease) = _pickLease(idSeed);
        if (id == 0 || lease.status != IRedemptionManager.LeaseStatus.Active) return;
        vm.prank(lease.user);
        manager.terminateLease(id);
    }

    function confirm(uint256 idSeed) external observed {
        (uint256 id, IRedemptionManager.Redemption memory r) = _pick(idSeed);
        if (r.status != IRedemptionManager.RedemptionStatus.Fulfilled) return;
        vm.prank(r.user);
        manager.confirmRedemption(id);
    }

    function finalize(uint256 idSeed) external observed {
        (uint256 id, IRedemptionManager.Redemption memory r) = _pick(idSeed);
        if (r.status != IRedemptionManager.RedemptionStatus.Fulfilled) return;
        (, uint256 disputeDeadline) = views.deadlinesOf(id);
        if (block.timestamp <= disputeDeadline) vm.warp(disputeDeadline + 1);
        manager.finalizeRedemption(id);
        _checkFinalized(id);
    }

    /// @dev A renewal just finalized: its paid period must have begun, and the window after it passed.
    function _checkFinalized(uint256 id) private {
        uint256 paidFrom = _paidFrom[id];
        if (paidFrom != 0 && block.timestamp <= paidFrom + views.disputeWindow()) ++renewalWindowViolations;
    }

    function expire(uint256 idSeed) external observed {
        (uint256 id, IRedemptionManager.Redemption memory r) = _pick(idSeed);
        if (r.status != IRedemptionManager.RedemptionStatus.Pending) return;
        if (block.timestamp <= r.deadline) vm.warp(uint256(r.deadline) + 1);
        manager.expireRedemption(id);
    }

    function dispute(uint256 idSeed, uint8 issue) external observed {
        (uint256 id, IRedemptionManager.Redemption memory r) = _pick(idSeed);
        if (
            r.status != IRedemptionManager.RedemptionStatus.Pending &&
            r.status != IRedemptionManager.RedemptionStatus.Fulfilled
        ) return;
        // a pending redemption is disputed once its fulfilment deadline has passed
        if (r.status == IRedemptionManager.RedemptionStatus.Pending && block.timestamp <= r.deadline) {
            vm.warp(uint256(r.deadline) + 1);
        }
        (, uint256 disputeDeadline) = views.deadlinesOf(id);
        uint256 paidFrom = _paidFrom[id];
        // a renewal stays disputable until the window after its paid period's start, by the model
        bool mustAccept = paidFrom != 0 && block.timestamp <= paidFrom + views.disputeWindow();
        if (block.timestamp > disputeDeadline && !mustAccept) return;
        vm.prank(r.user);
        try manager.openDispute(id, IRedemptionManager.IssueType(issue % 5), keccak256(abi.encode(id))) {} catch {
            if (mustAccept) ++renewalWindowViolations;
        }
    }

    /// @dev Nobody ruled: anyone closes the dispute with its default outcome after the deadline.
    function closeLapsed(uint256 idSeed) external observed {
        (uint256 id, IRedemptionManager.Redemption memory r) = _pick(idSeed);
        if (r.status != IRedemptionManager.RedemptionStatus.Disputed) return;
        uint256 deadline = views.disputeResolutionDeadline(id);
        if (block.timestamp <= deadline) vm.warp(deadline + 1);
        manager.closeLapsedDispute(id);
        ++lapsedDisputesClosed;
    }

    function resolve(uint256 idSeed, bool userWins, bool suspendProvider) external observed {
        (uint256 id, IRedemptionManager.Redemption memory r) = _pick(idSeed);
        if (r.status != IRedemptionManager.RedemptionStatus.Disputed) return;
        vm.prank(arbitrator);
        manager.resolveDispute(id, userWins, suspendProvider);
    }

    /// @dev Any operation by any party on any redemption, in any state: the contract must refuse
    /// whatever the state machine does not allow (the observer counts it otherwise).
    function anything(uint256 idSeed, uint256 callerSeed, uint256 op) external observed {
        (uint256 id, ) = _pick(idSeed);
        if (id == 0) return;
        address[6] memory parties = [users[0], users[1], providers[0], providers[1], providers[2], arbitrator];
        address caller = parties[callerSeed % 6];
        vm.startPrank(caller);
        op = op % 13;
        if (op == 0) try manager.fulfillRedemption(id, "x") {} catch {}
        else if (op == 1) try manager.confirmRedemption(id) {} catch {}
        else if (op == 2)
            try manager.finalizeRedemption(id) {
                _checkFinalized(id);
            } catch {}
        else if (op == 3) try manager.expireRedemption(id) {} catch {}
        else if (op == 4) try manager.openDispute(id, IRedemptionManager.IssueType.Other, bytes32("e")) {} catch {}
        else if (op == 5) try manager.respondToDispute(id, bytes32("r")) {} catch {}
        else if (op == 6) try manager.closeLapsedDispute(id) {} catch {}
        else if (op == 7) try manager.resolveDispute(id, callerSeed % 2 == 0, false) {} catch {}
        else if (op == 8) try manager.fulfillRedemptionWithLease(id, "x", block.timestamp + 1 days) {} catch {}
        else if (op == 9) try manager.offerRenewal(id, 1e18, 1 days, block.timestamp + 1) {} catch {}
        else if (op == 10) try manager.withdrawRenewalOffer(id) {} catch {}
        else if (op == 11) {
            uint256 endBefore =
                views.leaseStatus(id) == IRedemptionManager.LeaseStatus.None ? 0 : views.leaseOf(id).end;
            try manager.acceptRenewal(id, 1e18, 1 days) returns (uint256 renewalId) {
                _paidFrom[renewalId] = endBefore;
            } catch {}
        } else try manager.terminateLease(id) {} catch {}
        vm.stopPrank();
    }

    /// @dev What the protocol must always refuse: a provider redeeming against itself, a
    /// redemption below the minimum, and a second mint of a unit that already backs sSTB.
    function forbidden(uint256 seed, uint256 amount) external observed {
        address provider = providers[seed % 3];
        uint256 op = seed % 3;
        if (op == 0) {
            vm.startPrank(provider);
            sstb.approve(address(manager), type(uint256).max);
            try manager.initiateRedemption(bound(amount, 1, 1e24), provider) {
                ++forbiddenCallsAccepted;
            } catch {}
            vm.stopPrank();
        } else if (op == 1) {
            uint256 dust = bound(amount, 0, views.minRedemptionAmount() - 1);
            vm.prank(users[seed % 2]);
            try manager.initiateRedemption(dust, provider) {
                ++forbiddenCallsAccepted;
            } catch {}
        } else if (_nextUnit > 0) {
            bytes32 cuHash = keccak256(abi.encode("unit", 1 + (amount % _nextUnit)));
            bytes memory proof = _proof(cuToken.computeUnit(cuToken.unitOfHash(cuHash)).provider, cuHash, 1e18);
            vm.prank(cuToken.computeUnit(cuToken.unitOfHash(cuHash)).provider);
            try agent.verifyAndMintSSTB(proof, 1e30, 7 days) {
                ++forbiddenCallsAccepted;
            } catch {}
        }
    }

    /// @dev What the lease rules must always refuse: the user terminating or renewing a lease that
    /// ended or was terminated, anyone but the user terminating or accepting, anyone but the
    /// provider offering or withdrawing, and a stated end beyond the maximum term.
    function forbiddenLease(uint256 idSeed, uint256 callerSeed) external observed {
        (uint256 id, IRedemptionManager.Lease memory lease) = _pickLease(idSeed);
        if (id == 0) return;
        address[5] memory parties = [users[0], users[1], providers[0], providers[1], providers[2]];
        address other = parties[callerSeed % 5];
        if (lease.status != IRedemptionManager.LeaseStatus.Active) {
            vm.startPrank(lease.user);
            try manager.terminateLease(id) {
                ++forbiddenCallsAccepted;
            } catch {}
            if (lease.offerPrice != 0) {
                try manager.acceptRenewal(id, lease.offerPrice, lease.offerExtension) {
                    ++forbiddenCallsAccepted;
                } catch {}
            }
            vm.stopPrank();
        }
        vm.startPrank(other);
        if (other != lease.user) {
            try manager.terminateLease(id) {
                ++forbiddenCallsAccepted;
            } catch {}
            try manager.acceptRenewal(id, lease.offerPrice, lease.offerExtension) {
                ++forbiddenCallsAccepted;
            } catch {}
        }
        if (other != lease.provider) {
            try manager.offerRenewal(id, 1e18, 1 days, block.timestamp + 1) {
                ++forbiddenCallsAccepted;
            } catch {}
            try manager.withdrawRenewalOffer(id) {
                ++forbiddenCallsAccepted;
            } catch {}
        }
        vm.stopPrank();
        (uint256 pendingId, IRedemptionManager.Redemption memory r) = _pick(idSeed + 1);
        if (r.status == IRedemptionManager.RedemptionStatus.Pending) {
            vm.prank(r.provider);
            try manager.fulfillRedemptionWithLease(pendingId, "x", block.timestamp + views.maxLeaseTerm() + 1) {
                ++forbiddenCallsAccepted;
            } catch {}
        }
    }

    /// @notice The redemption manager under test.
    function managerContract() external view returns (RedemptionManager) {
        return manager;
    }

    /// @notice The manager's read contract.
    function viewsContract() external view returns (RedemptionViews) {
        return views;
    }

    /// @notice The locks of redemptions, in one pass over the records: `open`, of those that have
    /// not ended; `owed`, of those paid out (expired, or a dispute the user won, by ruling or
    /// lapse), each of which went to the user as compensation and, during the provider's stake, to
    /// the treasury as the early-exit penalty.
    function lockTotals() external view returns (uint256 open, uint256 owed) {
        uint256 count = views.redemptionCount();
        for (uint256 id = 1; id <= count; ++id) {
            IRedemptionManager.Redemption memory r = views.redemptionOf(id);
            if (!_isFinal(r.status)) open += r.lock;
            else if (
                r.status == IRedemptionManager.RedemptionStatus.Expired ||
                (r.status == IRedemptionManager.RedemptionStatus.Resolved && views.disputeOf(id).userWon)
            ) owed += r.lock;
        }
    }

    /// @notice Renewals made: redemptions that belong to another id's lease.
    function renewals() external view returns (uint256 count) {
        uint256 total = views.redemptionCount();
        for (uint256 id = 1; id <= total; ++id) {
            uint256 leaseId = views.leaseIdOf(id);
            if (leaseId != 0 && leaseId != id) ++count;
        }
    }

    /// @notice Leases terminated by their users.
    function terminations() external view returns (uint256 count) {
        uint256 total = views.redemptionCount();
        for (uint256 id = 1; id <= total; ++id) {
            if (views.leaseStatus(id) == IRedemptionManager.LeaseStatus.Terminated) ++count;
        }
    }

    /// @notice Leases whose count of disputes differs from the number of their redemptions under
    /// dispute (must be 0).
    /// @dev One pass over the redemptions counts each disputed one against its lease, a second
    /// compares each lease's count: linear in the records, where a scan of every record per lease
    /// was quadratic and, checked after every call, the largest cost of a deep run (issue 27).
    function miscountedLeaseDisputes() external view returns (uint256 miscounted) {
        uint256 count = views.redemptionCount();
        uint256[] memory disputed = new uint256[](count + 1);
        for (uint256 id = 1; id <= count; ++id) {
            if (views.redemptionStatus(id) != IRedemptionManager.RedemptionStatus.Disputed) continue;
            uint256 leaseId = views.leaseIdOf(id); // the lease's first redemption: never after `id`
            if (leaseId != 0) ++disputed[leaseId];
        }
        for (uint256 leaseId = 1; leaseId <= count; ++leaseId) {
            if (views.leaseStatus(leaseId) == IRedemptionManager.LeaseStatus.None) continue;
            if (views.leaseOf(leaseId).openDisputes != disputed[leaseId]) ++miscounted;
        }
    }

    /// @dev A user short of `needed` sSTB buys half the holdings of the first provider with at
    /// least twice what it lacks; false if none has.
    function _fund(address user, uint256 needed) private returns (bool) {
        uint256 balance = sstb.balanceOf(user);
        if (balance >= needed) return true;
        for (uint256 i = 0; i < 3; ++i) {
            address seller = providers[i];
            uint256 held = sstb.balanceOf(seller);
            if (held >= 2 * (needed - balance)) {
                vm.prank(seller);
                sstb.transfer(user, held / 2);
                return true;
            }
        }
        return false;
    }

    function _pickLease(uint256 seed) private view returns (uint256 id, IRedemptionManager.Lease memory lease) {
        (id, ) = _pick(seed);
        if (id == 0 || views.leaseStatus(id) == IRedemptionManager.LeaseStatus.None) return (0, lease);
        lease = views.leaseOf(id);
    }

    /// @dev A running, undisputed lease with a stated end from the seed on, or 0.
    function _pickRenewable(uint256 seed) private view returns (uint256, IRedemptionManager.Lease memory lease) {
        uint256 count = views.redemptionCount();
        for (uint256 i = 0; i < count; ++i) {
            uint256 id = 1 + ((seed + i) % count);
            if (views.leaseStatus(id) != IRedemptionManager.LeaseStatus.Active) continue;
            lease = views.leaseOf(id);
            if (lease.end != 0 && lease.openDisputes == 0) return (id, lease);
        }
        return (0, lease);
    }

    function _mint(address provider, uint256 cuValue, uint256 extra, uint256 period) private {
        period = bound(period, 7 days, 365 days);
        IProviderRegistry.ProviderAccount memory account = registry.accountOf(provider);
        uint256 needed = registry.requiredCollateral(account.availableCU + cuValue);
        uint256 shortfall = needed > account.freeCollateral ? needed - account.freeCollateral : 0;
        uint256 amount = shortfall + bound(extra, 0, 1e12);
        bytes memory proof = _proof(provider, keccak256(abi.encode("unit", ++_nextUnit)), cuValue);
        vm.prank(provider);
        agent.verifyAndMintSSTB(proof, amount, period);
        ++mints;
    }

    function _pick(uint256 seed) private view returns (uint256 id, IRedemptionManager.Redemption memory r) {
        uint256 count = views.redemptionCount();
        if (count == 0) return (0, r);
        id = 1 + (seed % count);
        r = views.redemptionOf(id);
    }

    function _isFinal(IRedemptionManager.RedemptionStatus s) private pure returns (bool) {
        return
            s == IRedemptionManager.RedemptionStatus.Confirmed ||
            s == IRedemptionManager.RedemptionStatus.Expired ||
            s == IRedemptionManager.RedemptionStatus.Resolved;
    }

    /// @dev The one-step transitions of DESIGN.md section 5; a renewal starts fulfilled.
    function _allowed(
        uint256 id,
        IRedemptionManager.RedemptionStatus from,
        IRedemptionManager.RedemptionStatus to
    ) private view returns (bool) {
        if (from == IRedemptionManager.RedemptionStatus.None) {
            if (to == IRedemptionManager.RedemptionStatus.Pending) return true;
            uint256 leaseId = views.leaseIdOf(id);
            return to == IRedemptionManager.RedemptionStatus.Fulfilled && leaseId != 0 && leaseId != id;
        }
        if (from == IRedemptionManager.RedemptionStatus.Pending) {
            return
                to == IRedemptionManager.RedemptionStatus.Fulfilled ||
                to == IRedemptionManager.RedemptionStatus.Expired ||
                to == IRedemptionManager.RedemptionStatus.Disputed;
        }
        if (from == IRedemptionManager.RedemptionStatus.Fulfilled) {
            return
                to == IRedemptionManager.RedemptionStatus.Confirmed ||
                to == IRedemptionManager.RedemptionStatus.Disputed;
        }
        if (from == IRedemptionManager.RedemptionStatus.Disputed)
            return to == IRedemptionManager.RedemptionStatus.Resolved;
        return false; // final states never move
    }

    /// @notice The registry under test.
    function registryContract() external view returns (ProviderRegistry) {
        return registry;
    }

    /// @notice The sSTB token under test.
    function sstbContract() external view returns (SSTB) {
        return sstb;
    }
}

/// @title ProtocolInvariantsTest
/// @notice DESIGN.md section 4, invariants 1-4, and the leases' (issue 19), over random sequences
/// of handler calls.
contract ProtocolInvariantsTest is Test {
    ProtocolHandler internal handler;
    ProviderRegistry internal registry;

    function setUp() public {
        handler = new ProtocolHandler();
        registry = handler.registryContract();
        bytes4[] memory selectors = new bytes4[](34);
        _redemptionSelectors(selectors);
        // leases (issue 19): stated ends twice as likely as the spec's fulfilment, offers and
        // renewals twice as likely as withdrawals and terminations
        selectors[25] = ProtocolHandler.fulfilWithLease.selector;
        selectors[26] = ProtocolHandler.fulfilWithLease.selector;
        selectors[27] = ProtocolHandler.offer.selector;
        selectors[28] = ProtocolHandler.renew.selector;
        selectors[29] = ProtocolHandler.renew.selector;
        selectors[30] = ProtocolHandler.withdrawOffer.selector;
        selectors[31] = ProtocolHandler.terminate.selector;
        selectors[32] = ProtocolHandler.forbiddenLease.selector;
        selectors[33] = ProtocolHandler.forbiddenLease.selector;
        targetSelector(FuzzSelector({addr: address(handler), selectors: selectors}));
        targetContract(address(handler));
    }

    /// @dev The actions of the first handler (issues 5 and 9) in `selectors[0..24]`.
    function _redemptionSelectors(bytes4[] memory selectors) private pure {
        selectors[0] = ProtocolHandler.mint.selector;
        selectors[1] = ProtocolHandler.retire.selector;
        selectors[2] = ProtocolHandler.deposit.selector;
        selectors[3] = ProtocolHandler.withdraw.selector;
        selectors[4] = ProtocolHandler.transferSSTB.selector;
        selectors[5] = ProtocolHandler.passTime.selector;
        selectors[6] = ProtocolHandler.redeem.selector;
        selectors[7] = ProtocolHandler.fulfil.selector;
        selectors[8] = ProtocolHandler.confirm.selector;
        selectors[9] = ProtocolHandler.finalize.selector;
        selectors[10] = ProtocolHandler.expire.selector;
        selectors[11] = ProtocolHandler.dispute.selector;
        selectors[12] = ProtocolHandler.resolve.selector;
        selectors[13] = ProtocolHandler.anything.selector;
        // redemptions more likely than other actions (three of these, three more below)
        selectors[14] = ProtocolHandler.redeem.selector;
        selectors[15] = ProtocolHandler.redeem.selector;
        selectors[16] = ProtocolHandler.mint.selector;
        selectors[17] = ProtocolHandler.suspend.selector;
        selectors[18] = ProtocolHandler.reinstate.selector;
        selectors[19] = ProtocolHandler.closeLapsed.selector;
        selectors[20] = ProtocolHandler.forbidden.selector;
        selectors[21] = ProtocolHandler.dispute.selector;
        // redemptions six times as likely in all, so that nearly every sequence reaches the
        // redemption paths (test_handlerRunsEveryPath shows each path works)
        selectors[22] = ProtocolHandler.redeem.selector;
        selectors[23] = ProtocolHandler.redeem.selector;
        selectors[24] = ProtocolHandler.redeem.selector;
    }

    /// @notice DESIGN.md section 4, invariants 1 to 4, issue 9's settlement and refusal
    /// properties, and issue 19's two lease properties, every one asserted after every call of
    /// each sequence. A lease only moves forward: its status goes None -> Active -> Ended or
    /// Terminated and never back (no renewal revives an ended lease, nothing un-terminates one),
    /// and its stated end never decreases (a renewal moves it by the extension, termination leaves
    /// it) nor changes once the lease ended or was terminated. A lease counts exactly its
    /// redemptions under dispute (the count that stops renewals), whatever ends the disputes. And
    /// issue 23's: a renewal, however early accepted, stays disputable by its user and is finalized
    /// by nobody until the dispute window after the start of the period it paid for has passed.
    /// @dev One campaign checks all seven: six campaigns (one per property, as before) each paid for
    /// the handler's calls, so a deep run of 10,000 sequences per property cost six times the
    /// calls of this one (docs/decisions/0052-deep-run-time-budget.md). CI keeps the 384 sequences
    /// (6 x 64) it ran before, now each checking every property. The deep profile keeps this
    /// suite's sequences at 64 calls (its default is 32): here states build up across providers,
    /// stakes, reputation and time.
    /// hardhat-config: default.invariant.runs = 384
    /// hardhat-config: deep.invariant.depth = 64
    function invariant_protocol() public view {
        _supplyEqualsAvailableCapacity();
        _vaultBalanceEqualsFreePlusLocked();
        _everyProviderFullyCollateralized();
        assertEq(handler.backwardOrSkippedMoves(), 0, "4. a redemption's state only moves forward");
        _eachLockSettledOnce();
        assertEq(handler.forbiddenCallsAccepted(), 0, "issues 9 and 19: what must be refused always is");
        assertEq(handler.leaseBackwardMoves(), 0, "issue 19: a lease only moves forward");
        assertEq(handler.miscountedLeaseDisputes(), 0, "issue 19: a lease counts its disputed redemptions");
        assertEq(handler.renewalWindowViolations(), 0, "issue 23: a renewal released before its paid period");
    }

    /// @dev 1. sSTB supply equals the sum of available capacity (no bridge on this chain yet).
    function _supplyEqualsAvailableCapacity() private view {
        uint256 sum;
        for (uint256 i = 0; i < 3; ++i) sum += registry.accountOf(handler.providers(i)).availableCU;
        assertEq(handler.sstbContract().totalSupply(), sum, "1. sSTB supply equals available capacity");
    }

    /// @dev 2. The vault's balance is exactly the providers' free plus locked collateral.
    function _vaultBalanceEqualsFreePlusLocked() private view {
        uint256 sum;
        for (uint256 i = 0; i < 3; ++i) {
            IProviderRegistry.ProviderAccount memory account = registry.accountOf(handler.providers(i));
            sum += account.freeCollateral + account.lockedCollateral;
        }
        assertEq(registry.collateralToken().balanceOf(address(registry)), sum, "2. vault equals free + locked");
    }

    /// @dev 3. Every provider's free collateral covers ratio x price x available capacity.
    function _everyProviderFullyCollateralized() private view {
        for (uint256 i = 0; i < 3; ++i) {
            IProviderRegistry.ProviderAccount memory account = registry.accountOf(handler.providers(i));
            assertGe(
                account.freeCollateral,
                registry.requiredCollateral(account.availableCU),
                "3. free collateral covers available capacity"
            );
            assertLe(account.availableCU, account.totalCU, "3. available capacity within total");
        }
    }

    /// @dev No lock is paid or released twice: the collateral locked in the vault is exactly the
    /// locks of open redemptions, users (and the treasury's penalties) received exactly the locks
    /// owed to them, and the user is always made whole at 100% (the penalty is at most the
    /// over-collateralization).
    function _eachLockSettledOnce() private view {
        uint256 locked;
        for (uint256 i = 0; i < 3; ++i) locked += registry.accountOf(handler.providers(i)).lockedCollateral;
        (uint256 open, uint256 owed) = handler.lockTotals();
        assertEq(locked, open, "each lock settled once: locked equals open locks");
        uint256 penalties = handler.penaltiesPaid();
        assertEq(handler.compensationPaid() + penalties, owed, "each lock settled once: paid equals owed");
        assertLe(penalties * 12_000, owed * 2_000, "each lock settled once: users made whole");
    }

    /// @notice Every redemption action of the handler works end to end, so the invariant sees what
    /// each one does.
    /// @dev This test and the next are where "the handler does real work" is checked, once, on a
    /// fixed sequence: a check per random sequence (an `afterInvariant` requiring a mint and a
    /// redemption) fails a campaign on a sequence that happens to do neither although no invariant
    /// broke, and it stopped four of the six invariants of a deep run early (issue 17).
    function test_handlerRunsEveryRedemptionPath() public {
        handler.mint(0, 100e18, 0, 7 days);
        handler.redeem(0, 0, 10e18); // 1: pending -> fulfilled -> confirmed
        handler.fulfil(0);
        handler.confirm(0);
        handler.redeem(1, 0, 5e18); // 2: pending -> expired
        handler.expire(1);
        handler.redeem(0, 0, 1e18); // 3: pending -> disputed -> resolved (user wins, suspension)
        handler.dispute(2, 1);
        handler.resolve(2, true, true);
        handler.redeem(1, 0, 2e18); // 4: the suspended provider stays redeemable; dispute lapses
        handler.dispute(3, 0);
        handler.closeLapsed(3);
        handler.redeem(0, 0, 1e18); // 5: pending -> fulfilled -> finalized after the window
        handler.fulfil(4);
        handler.finalize(4);
        handler.forbidden(0, 5e18);
        handler.forbidden(1, 5e18);
        handler.forbidden(2, 5e18);
        for (uint256 op = 0; op < 8; ++op) handler.anything(op, op, op);

        RedemptionViews views = handler.viewsContract();
        assertEq(views.redemptionCount(), 5);
        assertEq(uint8(views.redemptionStatus(1)), uint8(IRedemptionManager.RedemptionStatus.Confirmed));
        assertEq(uint8(views.redemptionStatus(2)), uint8(IRedemptionManager.RedemptionStatus.Expired));
        assertEq(uint8(views.redemptionStatus(3)), uint8(IRedemptionManager.RedemptionStatus.Resolved));
        assertEq(uint8(views.redemptionStatus(4)), uint8(IRedemptionManager.RedemptionStatus.Resolved));
        assertEq(uint8(views.redemptionStatus(5)), uint8(IRedemptionManager.RedemptionStatus.Confirmed));
        assertEq(handler.redemptionsEnded(), 5);
        assertEq(handler.lapsedDisputesClosed(), 1);
        assertEq(handler.backwardOrSkippedMoves(), 0);
        assertEq(handler.forbiddenCallsAccepted(), 0);
        assertGt(handler.compensationPaid(), 0);
        assertGt(handler.penaltiesPaid(), 0); // the expiry of 2 fell within the stake
        (uint256 open, uint256 owed) = handler.lockTotals();
        assertEq(open, 0);
        assertEq(handler.compensationPaid() + handler.penaltiesPaid(), owed);
        invariant_protocol();
    }

    /// @notice The handler's lease actions work end to end (so the invariants see them).
    function test_handlerRunsEveryLeasePath() public {
        handler.mint(0, 100e18, 0, 7 days);
        handler.redeem(0, 0, 3e18); // 1: a lease, offered, renewed (2), disputed, terminated
        handler.fulfilWithLease(0, 30 days);
        handler.offer(0, 2e18, 10 days, 20 days);
        handler.renew(0);
        handler.dispute(1, 2);
        handler.terminate(0);
        handler.redeem(1, 0, 2e18); // 3: a lease with an offer withdrawn, then ended
        handler.fulfilWithLease(2, 1 days);
        handler.offer(2, 1e18, 1 days, 1 hours);
        handler.withdrawOffer(2);
        handler.forbiddenLease(0, 2); // terminated lease 1: its user and a provider are refused
        handler.passTime(2 days);
        handler.forbiddenLease(2, 0); // ended lease 3 likewise
        RedemptionViews views = handler.viewsContract();
        assertEq(views.redemptionCount(), 3);
        assertEq(views.leaseIdOf(2), 1);
        assertEq(uint8(views.leaseStatus(1)), uint8(IRedemptionManager.LeaseStatus.Terminated));
        assertEq(uint8(views.redemptionStatus(2)), uint8(IRedemptionManager.RedemptionStatus.Disputed));
        assertEq(views.leaseOf(1).openDisputes, 1);
        assertEq(uint8(views.leaseStatus(3)), uint8(IRedemptionManager.LeaseStatus.Ended));
        assertEq(views.leaseOf(3).offerPrice, 0);
        assertEq(handler.renewals(), 1);
        assertEq(handler.terminations(), 1);
        assertEq(handler.leaseBackwardMoves(), 0);
        assertEq(handler.miscountedLeaseDisputes(), 0);
        assertEq(handler.backwardOrSkippedMoves(), 0);
        assertEq(handler.forbiddenCallsAccepted(), 0);
        invariant_protocol();
    }

    /// @notice Every provider action of the handler works end to end: minting, sales, deposits,
    /// suspension and reinstatement, time, retirement and withdrawal.
    function test_handlerRunsEveryProviderPath() public {
        address seller = handler.providers(0);
        address other = handler.providers(1);
        SSTB token = handler.sstbContract();
        handler.mint(0, 100e18, 0, 7 days);
        handler.transferSSTB(0, 3, 1e18);
        assertEq(token.balanceOf(handler.users(0)), 1e18);
        uint256 free = registry.accountOf(other).freeCollateral;
        handler.deposit(1, 1e12);
        assertEq(registry.accountOf(other).freeCollateral, free + 1e12);
        handler.suspend(1);
        assertEq(uint8(registry.accountOf(other).status), uint8(IProviderRegistry.ProviderStatus.Suspended));
        handler.reinstate(1);
        assertEq(uint8(registry.accountOf(other).status), uint8(IProviderRegistry.ProviderStatus.Active));
        uint256 before = block.timestamp;
        handler.passTime(1 days);
        assertEq(block.timestamp, before + 1 days);
        handler.retire(0, 20e18);
        assertEq(registry.accountOf(seller).availableCU, 80e18);
        handler.withdraw(0, type(uint256).max);
        assertEq(registry.excessCollateral(seller), 0);
        assertEq(handler.mints(), 1);
        assertEq(handler.suspensions(), 1);
        assertEq(handler.retirements(), 1);
        assertEq(handler.withdrawals(), 1);
        invariant_protocol();
    }
}
