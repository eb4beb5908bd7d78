// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test, Vm} from "forge-std/Test.sol";
import {StdInvariant} from "forge-std/StdInvariant.sol";
import {IRouterClient} from "@chainlink/contracts-ccip/contracts/interfaces/IRouterClient.sol";
import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

import {Bridge} from "../../contracts/bridge/Bridge.sol";
import {GovernanceChannel} from "../../contracts/bridge/GovernanceChannel.sol";
import {SatelliteExecutor} from "../../contracts/bridge/SatelliteExecutor.sol";
import {DevnetCCIPRouter} from "../../contracts/bridge/devnet/DevnetCCIPRouter.sol";
import {IBridge} from "../../contracts/interfaces/IBridge.sol";
import {IGovernanceChannel} from "../../contracts/interfaces/IGovernanceChannel.sol";
import {IBridgedToken} from "../../contracts/interfaces/IBridgedToken.sol";
import {Roles} from "../../contracts/libraries/Roles.sol";
import {TokenBucket} from "../../contracts/libraries/TokenBucket.sol";
import {MockStablecoin} from "../../contracts/mocks/MockStablecoin.sol";
import {BridgedGovernanceToken} from "../../contracts/tokens/BridgedGovernanceToken.sol";
import {GovernanceToken} from "../../contracts/tokens/GovernanceToken.sol";
import {SSTB} from "../../contracts/tokens/SSTB.sol";

/// @title BridgeHandler
/// @notice Three chains in one EVM (arbitrum, ethereum, polygon: three bridges, three governance
/// channels, three devnet routers, their tokens, an executor on each satellite) and two holders.
/// Random sequences of sends (any direction, either token, any fee option), governance messages
/// from arbitrum (the handler plays the timelock) setting a satellite's fee, deliveries in any order
/// (the handler is every router's relayer), executions of queued deliveries (any of them, or a
/// queue's head after waiting its bound), inbound limits lowered below what is in flight, pauses
/// and unpauses, time passing, and (issue 23) a compromised former peer on every route that forges
/// transfers nobody burned, which governance forgets at any moment, with its forgeries delivered,
/// queued or still to come. It keeps the messages in flight so the test can check conservation, a
/// model of every delivery queue (first in, first out), what the forgeries delivered while their
/// peer was trusted, and a model of each satellite's governance (the fee of the latest message run,
/// never an earlier one after it).
// the handler's counters and models are public state for the invariants to read
// solhint-disable-next-line max-states-count
contract BridgeHandler is Test {
    uint256 internal constant CHAINS = 3;
    uint256 public constant INITIAL = 1_000_000e18;
    uint256 internal constant NO_FEE = type(uint256).max;

    struct Pending {
        uint256 from;
        uint256 to;
        uint64 sequenceNumber;
        address sender;
        address receiver;
        bytes data;
        uint256 gasLimit;
        IBridge.Token token;
        uint256 amount;
        bytes32 messageId;
        // governance messages: the fee they set (NO_FEE for a transfer), their sequence and deadline
        uint256 fee;
        uint64 governanceSequence;
        uint256 deadline;
        // a transfer forged by the route's compromised former peer (never burned anywhere)
        bool forged;
    }

    Bridge[3] public bridges;
    DevnetCCIPRouter[3] public routers;
    SSTB[3] public sstbs;
    IERC20[3] public govs;
    MockStablecoin[3] public stablecoins;
    SatelliteExecutor[3] public executors;
    GovernanceChannel[3] public channels;
    uint64[3] public selectors = [uint64(4949039107694359620), 5009297550715157269, 4051577828743386545];
    address[2] public holders;
    address public treasury = makeAddr("treasury");
    /// @notice Who the compromised former peers forge transfers to.
    address public forger = makeAddr("forger");
    /// @notice The former peer of each route (`impostors[to][from]`: the bridge `to` trusted for
    /// what it sent from `from` before the route moved to today's bridge), compromised.
    address[3][3] public impostors;
    /// @notice Whether governance on `to` forgot the former peer of the route from `from`.
    bool[3][3] public forgotten;

    /// @notice The send of the last call left no CCIP message (cannot happen).
    error NoMessageRecorded();

    Pending[] internal _pending;
    Pending[] internal _queued;
    /// @notice Per token: amount burned or escrowed on a source whose tokens are not yet minted or
    /// released (undelivered, failed or queued, the undelivered part of a message delivered in parts).
    uint256[2] public inFlight;
    uint256 public sends;
    uint256 public deliveries;
    uint256 public queuedExecutions;
    uint256 public installments;
    uint256 public headsCompletedInBound;
    uint256 public governanceSent;
    uint256 public governanceRun;
    uint256 public governanceConsumed;
    /// @notice Deliveries executed twice, or queued ones completed twice (must stay 0).
    uint256 public doubleDeliveries;
    /// @notice A queued delivery completed before one queued earlier from the same chain in the same
    /// token, a fresh delivery that passed while one waited, or a bridge queue that differs from the
    /// model after a change (must stay 0).
    uint256 public fifoViolations;
    /// @notice A queue head that an unpaused bridge did not complete within its bound (must stay 0).
    uint256 public boundViolations;
    /// @notice A governance message that ran though a later one had run, or after its deadline, or
    /// did not run though it was the latest and on time (must stay 0).
    uint256 public governanceViolations;
    /// @notice Per destination chain and token: what forgeries minted or released while their peer
    /// was still trusted (the damage before governance acted; it does not grow after).
    uint256[2][3] public forgedDelivered;
    uint256 public forgeries;
    uint256 public forgeriesRefused;
    /// @notice A forgery that delivered anything, was accepted on arrival or was refused on arrival
    /// after its peer was forgotten, or one refused while trusted, or a genuine transfer refused
    /// (must stay 0).
    uint256 public forgottenPeerViolations;

    /// @dev The model of each delivery queue: message ids in arrival order from `_head` on.
    mapping(bytes32 queueKey => bytes32[]) internal _fifo;
    mapping(bytes32 queueKey => uint256) internal _head;
    /// @dev The model of each satellite's governance: the last sequence run and the fee it set.
    uint64[3] public lastRun;
    uint256[3] public modelFee;
    uint64[3] internal _sent;

    constructor() {
        holders = [makeAddr("holder-0"), makeAddr("holder-1")];
        for (uint256 i = 0; i < CHAINS; ++i) _deployChain(i);
        TokenBucket.Config memory limit = TokenBucket.Config({enabled: true, capacity: 50_000e18, rate: 1e18});
        for (uint256 i = 0; i < CHAINS; ++i) {
            // each route first to an old bridge of the other chain, then to today's: the old one
            // stays a former peer, and it is compromised
            for (uint256 round = 0; round < 2; ++round) {
                IBridge.RouteConfig[] memory routes = new IBridge.RouteConfig[](2);
                uint256 n;
                for (uint256 j = 0; j < CHAINS; ++j) {
                    if (j == i) continue;
                    if (round == 0) impostors[i][j] = makeAddr(string.concat("old-bridge-", vm.toString(i * 3 + j)));
                    routes[n++] = IBridge.RouteConfig({
                        chainSelector: selectors[j],
                        peer: round == 0 ? impostors[i][j] : address(bridges[j]),
                        gasLimit: 200_000,
                        outbound: [limit, limit],
                        inbound: [limit, limit]
                    });
                }
                bridges[i].setRoutes(routes);
            }
            modelFee[i] = 10;
        }
        _wireChannels();
        // the holders start with sSTB and STBGOV on arbitrum only
        sstbs[0].grantRole(Roles.MINTER_ROLE, address(this));
        for (uint256 h = 0; h < 2; ++h) {
            sstbs[0].mint(holders[h], INITIAL / 2);
            govs[0].transfer(holders[h], INITIAL / 2);
            for (uint256 i = 0; i < CHAINS; ++i) {
                stablecoins[i].mint(holders[h], 1e30);
                vm.startPrank(holders[h]);
                stablecoins[i].approve(address(bridges[i]), type(uint256).max);
                sstbs[i].approve(address(bridges[i]), type(uint256).max);
                govs[i].approve(address(bridges[i]), type(uint256).max);
                vm.stopPrank();
            }
        }
        vm.deal(address(this), 1_000_000 ether);
        for (uint256 h = 0; h < 2; ++h) vm.deal(holders[h], 1_000 ether);
    }

    // ---------------------------------------------------------------------------------------------
    // Actions
    // ---------------------------------------------------------------------------------------------

    function bridgeSend(uint256 seed, uint256 amount, uint8 option) external {
        uint256 from = seed % CHAINS;
        uint256 to = (from + 1 + ((seed >> 8) % 2)) % CHAINS;
        IBridge.Token token = IBridge.Token((seed >> 16) % 2);
        address holder = holders[(seed >> 24) % 2];
        IERC20 t = token == IBridge.Token.SSTB ? IERC20(address(sstbs[from])) : govs[from];
        uint256 balance = t.balanceOf(holder);
        if (balance < 2) return;
        // leave room for a fee in the same token; mostly within the routes' 50,000 outbound capacity
        amount = bound(amount, 1, balance / 2 < 60_000e18 ? balance / 2 : 60_000e18);
        IBridge.FeeOption feeOption = IBridge.FeeOption(option % 3);

        vm.recordLogs();
        vm.prank(holder);
        // Bridge.send, not address.send; the handler's bookkeeping after it is the test's own
        // solhint-disable-next-line check-send-result
        try bridges[from].send{value: 1e15}(selectors[to], holder, address(t), amount, feeOption) returns (
            bytes32 messageId
        ) {
            _record(_message(from, to, token, amount, messageId, NO_FEE, 0, 0));
            // solhint-disable-next-line reentrancy
            inFlight[uint256(token)] += amount;
            ++sends;
        } catch {
            // over the outbound limit, a fee the holder cannot pay, or paused: nothing happened
        }
    }

    /// @notice The timelock (this handler) sends a satellite a fee change; fees above the bridge's
    /// maximum make the call revert there.
    function sendGovernance(uint256 seed, uint256 fee) external {
        uint256 to = 1 + (seed % 2);
        fee = bound(fee, 0, 120);
        IGovernanceChannel.Call[] memory calls = new IGovernanceChannel.Call[](1);
        calls[0] = IGovernanceChannel.Call({
            target: address(bridges[to]),
            value: 0,
            data: abi.encodeCall(Bridge.setFee, (fee))
        });
        vm.recordLogs();
        bytes32 messageId = channels[0].sendGovernanceMessage{value: 1e15}(selectors[to], calls, 300_000);
        uint64 sequence = ++_sent[to];
        _record(_message(0, to, IBridge.Token.SSTB, 0, messageId, fee, sequence, block.timestamp + 3 days));
        ++governanceSent;
    }

    function deliver(uint256 index) external {
        if (_pending.length == 0) return;
        _deliverAt(index % _pending.length);
    }

    /// @notice A small transfer on a lane where deliveries wait, delivered at once: the case where a
    /// fresh delivery that the bucket could take must still queue behind the waiting ones.
    function sendBehindQueue(uint256 seed, uint256 amount) external {
        (uint256 to, uint256 from, IBridge.Token token, bool found) = _waitingLane(seed);
        if (!found) return;
        IERC20 t = token == IBridge.Token.SSTB ? IERC20(address(sstbs[from])) : govs[from];
        address holder = holders[seed % 2];
        if (t.balanceOf(holder) < 2e18) return;
        amount = bound(amount, 1, 1_000e18);
        vm.recordLogs();
        vm.prank(holder);
        try
            // solhint-disable-next-line check-send-result
            bridges[from].send{value: 1e15}(selectors[to], holder, address(t), amount, IBridge.FeeOption.Default)
        returns (bytes32 messageId) {
            _record(_message(from, to, token, amount, messageId, NO_FEE, 0, 0));
            // solhint-disable-next-line reentrancy
            inFlight[uint256(token)] += amount;
            ++sends;
            _deliverAt(_pending.length - 1);
        } catch {}
    }

    function _deliverAt(uint256 index) private {
        Pending memory p = _pending[index];
        Bridge destination = bridges[p.to];
        bool processed =
            p.fee == NO_FEE
                ? destination.messageStatus(p.messageId) != IBridge.MessageStatus.None
                : channels[p.to].messageStatus(p.messageId) != IGovernanceChannel.MessageStatus.None;
        if (processed) ++doubleDeliveries;
        DevnetCCIPRouter.ExecutionState state = routers[p.to].execute(
            selectors[p.from],
            p.sequenceNumber,
            p.sender,
            p.receiver,
            p.data,
            p.gasLimit,
            0
        );
        if (state != DevnetCCIPRouter.ExecutionState.Success) return; // stays pending, retried later
        ++deliveries;
        _pending[index] = _pending[_pending.length - 1];
        _pending.pop();
        if (p.fee != NO_FEE) return _checkGovernance(p);

        bytes32 key = _queueKey(p.to, p.from, p.token);
        bool waiting = _fifo[key].length > _head[key];
        if (destination.messageStatus(p.messageId) == IBridge.MessageStatus.Completed) {
            if (waiting) ++fifoViolations;
            inFlight[uint256(p.token)] -= p.amount;
        } else {
            _queued.push(p);
            _fifo[key].push(p.messageId);
        }
        _checkLane(p.to, p.from, p.token);
    }

    /// @notice Anyone tries any queued delivery: only the head of its queue may go through.
    function executeQueued(uint256 index) external {
        if (_queued.length == 0) return;
        _tryExecute(index % _queued.length);
    }

    /// @notice A keeper waits for the head of a queue of an unpaused bridge and executes it as soon as
    /// the bucket allows, installment by installment: it must complete within (remaining + capacity)
    /// / rate of the inbound bucket.
    /// Forgeries of a forgotten peer at the front leave the queue at once and take nothing from the
    /// bucket (issue 23): the bound of what follows them does not count them.
    function completeQueueHead(uint256 seed) external {
        (uint256 to, uint256 from, IBridge.Token token, bool found) = _waitingLane(seed);
        Bridge b = bridges[to];
        if (!found || b.paused()) return;
        bytes32 head = _dropRefusedHeads(to, from, token);
        if (head == bytes32(0)) return;
        uint256 index = _queuedIndexOf(head);
        // the bound is a promise to genuine transfers; a forgery still trusted may never complete (a
        // release the escrow cannot back) and holds its queue until governance forgets its peer
        if (_queued[index].forged) {
            _tryExecute(index);
            return;
        }
        (, , uint256 remaining, ) = b.queuedDeliveryOf(head);
        (TokenBucket.Config memory c, ) = b.rateLimitOf(selectors[from], token, false);
        uint256 deadline = block.timestamp + (c.enabled ? (remaining + c.capacity) / c.rate + 1 : 0);
        while (b.messageStatus(head) == IBridge.MessageStatus.Queued) {
            (, uint256 available) = b.rateLimitOf(selectors[from], token, false);
            (, , remaining, ) = b.queuedDeliveryOf(head);
            uint256 needed = c.enabled && c.capacity < remaining ? c.capacity : remaining;
            if (available < needed) vm.warp(block.timestamp + (needed - available + c.rate - 1) / c.rate);
            if (block.timestamp > deadline) {
                ++boundViolations;
                return;
            }
            if (!_tryExecute(index)) {
                ++boundViolations;
                return;
            }
        }
        ++headsCompletedInBound;
    }

    /// @notice Governance sets an inbound limit of a route, possibly below what is queued or in
    /// flight: the route of a transfer in flight when there is one.
    function setInboundCapacity(uint256 seed, uint256 capacity) external {
        uint256 to = seed % CHAINS;
        uint256 from = (to + 1 + ((seed >> 8) % 2)) % CHAINS;
        IBridge.Token token = IBridge.Token((seed >> 16) % 2);
        if (_pending.length > 0 && _pending[seed % _pending.length].fee == NO_FEE) {
            Pending storage p = _pending[seed % _pending.length];
            (to, from, token) = (p.to, p.from, p.token);
        }
        capacity = bound(capacity, 5_000e18, 60_000e18);
        bridges[to].setRateLimit(
            selectors[from],
            token,
            false,
            TokenBucket.Config({enabled: true, capacity: uint128(capacity), rate: 1e18})
        );
    }

    /// @notice The compromised former peer of a route forges a transfer of `amount` to the forger,
    /// which the destination's router executes as any message from that address. While the peer is
    /// trusted it is delivered at once or queued like any transfer (the damage before governance
    /// acts); once governance forgot the peer it is refused on arrival, nothing recorded.
    function forge(uint256 seed, uint256 amount) external {
        uint256 to = seed % CHAINS;
        uint256 from = (to + 1 + ((seed >> 8) % 2)) % CHAINS;
        IBridge.Token token = IBridge.Token((seed >> 16) % 2);
        amount = bound(amount, 1, 200_000e18);
        bytes32 key = _queueKey(to, from, token);
        bool waiting = _fifo[key].length > _head[key];
        uint256 supply = totalSupply(token);
        uint256 escrow = govs[0].balanceOf(address(bridges[0]));
        (bytes32 messageId, bool executed) = _executeForgery(to, from, token, amount);
        IBridge.MessageStatus status = bridges[to].messageStatus(messageId);
        if (forgotten[to][from]) {
            bool untouched = totalSupply(token) == supply && govs[0].balanceOf(address(bridges[0])) == escrow;
            if (executed || status != IBridge.MessageStatus.None || !untouched) ++forgottenPeerViolations;
            return;
        }
        // a trusted peer's release larger than the escrow fails there, as it would for anyone
        if (!executed) return;
        if (status == IBridge.MessageStatus.Completed) {
            if (waiting) ++fifoViolations;
            forgedDelivered[to][uint256(token)] += amount;
        } else {
            Pending memory p = _message(from, to, token, amount, messageId, NO_FEE, 0, 0);
            p.forged = true;
            _queued.push(p);
            _fifo[key].push(messageId);
        }
        _checkLane(to, from, token);
    }

    /// @notice Governance forgets the compromised former peer of a route, whatever of its forgeries
    /// wait there.
    function forgetPeer(uint256 seed) external {
        uint256 to = seed % CHAINS;
        uint256 from = (to + 1 + ((seed >> 8) % 2)) % CHAINS;
        if (forgotten[to][from]) return;
        bridges[to].forgetPeer(selectors[from], impostors[to][from]);
        forgotten[to][from] = true;
    }

    function pause(uint256 chain) external {
        Bridge b = bridges[chain % CHAINS];
        if (!b.paused()) b.pause();
    }

    function unpause(uint256 chain) external {
        Bridge b = bridges[chain % CHAINS];
        if (b.paused()) b.unpause();
    }

    function warp(uint256 seconds_) external {
        vm.warp(block.timestamp + bound(seconds_, 1, 3 days));
    }

    // ---------------------------------------------------------------------------------------------
    // Views for the invariants
    // ---------------------------------------------------------------------------------------------

    function pendingCount() external view returns (uint256) {
        return _pending.length + _queued.length;
    }

    function queuedCount() external view returns (uint256) {
        return _queued.length;
    }

    function totalSupply(IBridge.Token token) public view returns (uint256 sum) {
        for (uint256 i = 0; i < CHAINS; ++i) {
            sum += token == IBridge.Token.SSTB ? sstbs[i].totalSupply() : govs[i].totalSupply();
        }
    }

    /// @notice What forgeries delivered of `token` on every chain while their peers were trusted.
    function forgedTotal(IBridge.Token token) public view returns (uint256 sum) {
        for (uint256 i = 0; i < CHAINS; ++i) sum += forgedDelivered[i][uint256(token)];
    }

    function satelliteGovernanceSupply() external view returns (uint256) {
        return govs[1].totalSupply() + govs[2].totalSupply();
    }

    /// @notice Governance tokens in flight towards satellites (escrowed, not yet minted) and towards
    /// arbitrum (burned on a satellite, not yet released).
    function governanceInFlight() external view returns (uint256 toSatellites, uint256 toPrimary) {
        for (uint256 k = 0; k < 2; ++k) {
            Pending[] storage list = k == 0 ? _pending : _queued;
            for (uint256 i = 0; i < list.length; ++i) {
                // forgeries were never burned or escrowed: not in flight
                if (list[i].fee != NO_FEE || list[i].forged || list[i].token != IBridge.Token.Governance) continue;
                if (list[i].to == 0) toPrimary += list[i].amount;
                else toSatellites += list[i].amount;
            }
        }
    }

    /// @notice The model of a delivery queue: its head and its length.
    function modelQueue(uint256 to, uint256 from, IBridge.Token token) public view returns (bytes32, uint256) {
        bytes32 key = _queueKey(to, from, token);
        uint256 head = _head[key];
        uint256 length = _fifo[key].length - head;
        return (length == 0 ? bytes32(0) : _fifo[key][head], length);
    }

    // ---------------------------------------------------------------------------------------------
    // Set-up and bookkeeping
    // ---------------------------------------------------------------------------------------------

    /// @dev The governance channels: arbitrum's sends to each satellite's, which accept only it.
    function _wireChannels() private {
        IGovernanceChannel.PeerConfig[] memory satellites = new IGovernanceChannel.PeerConfig[](2);
        IGovernanceChannel.PeerConfig[] memory primary = new IGovernanceChannel.PeerConfig[](1);
        primary[0] = IGovernanceChannel.PeerConfig({chainSelector: selectors[0], peer: address(channels[0])});
        for (uint256 i = 1; i < CHAINS; ++i) {
            satellites[i - 1] = IGovernanceChannel.PeerConfig({
                chainSelector: selectors[i],
                peer: address(channels[i])
            });
            channels[i].setPeers(primary);
        }
        channels[0].setPeers(satellites);
    }

    function _deployChain(uint256 i) private {
        uint64[] memory remotes = new uint64[](2);
        uint256 n;
        for (uint256 j = 0; j < CHAINS; ++j) if (j != i) remotes[n++] = selectors[j];
        routers[i] = new DevnetCCIPRouter(selectors[i], address(this), 1e15, remotes);
        stablecoins[i] = new MockStablecoin();
        sstbs[i] = SSTB(
            address(new ERC1967Proxy(address(new SSTB()), abi.encodeCall(SSTB.initialize, (address(this)))))
        );
        if (i == 0) govs[i] = IERC20(address(new GovernanceToken(address(this), INITIAL)));
        else govs[i] = IERC20(address(new BridgedGovernanceToken(address(this))));
        Bridge implementation = new Bridge(
            IRouterClient(address(routers[i])),
            selectors[i],
            IBridgedToken(address(sstbs[i])),
            address(govs[i]),
            IERC20(address(stablecoins[i])),
            i == 0
        );
        bridges[i] = Bridge(
            address(
                new ERC1967Proxy(
                    address(implementation),
                    abi.encodeCall(Bridge.initialize, (address(this), treasury, 1e6, 1e6))
                )
            )
        );
        sstbs[i].grantRole(Roles.MINTER_ROLE, address(bridges[i]));
        sstbs[i].grantRole(Roles.BURNER_ROLE, address(bridges[i]));
        if (i != 0) {
            BridgedGovernanceToken(address(govs[i])).grantRole(Roles.MINTER_ROLE, address(bridges[i]));
            BridgedGovernanceToken(address(govs[i])).grantRole(Roles.BURNER_ROLE, address(bridges[i]));
        }
        GovernanceChannel channelImplementation = new GovernanceChannel(
            IRouterClient(address(routers[i])),
            selectors[i]
        );
        channels[i] = GovernanceChannel(
            address(
                new ERC1967Proxy(
                    address(channelImplementation),
                    abi.encodeCall(GovernanceChannel.initialize, (address(this)))
                )
            )
        );
        if (i != 0) {
            // the satellite's governance: an executor that obeys this handler as arbitrum's timelock
            executors[i] = new SatelliteExecutor(address(channels[i]), selectors[0], address(this));
            channels[i].setExecutor(address(executors[i]));
            bridges[i].grantRole(Roles.GOVERNANCE_ROLE, address(executors[i]));
        }
    }

    /// @dev Has the router of `to` execute a transfer of `amount` forged by the former peer of the
    /// route from `from`, at a sequence number no genuine message of the lane reaches; returns its
    /// id and whether the bridge accepted it.
    function _executeForgery(
        uint256 to,
        uint256 from,
        IBridge.Token token,
        uint256 amount
    ) private returns (bytes32 messageId, bool executed) {
        address impostor = impostors[to][from];
        address receiver = address(bridges[to]);
        bytes memory data = abi.encode(uint256(1), token, impostor, forger, amount);
        uint64 sequence = uint64(1 << 40) + uint64(++forgeries);
        messageId = routers[to].messageIdOf(
            selectors[from],
            selectors[to],
            sequence,
            impostor,
            receiver,
            data,
            200_000
        );
        DevnetCCIPRouter.ExecutionState state = routers[to].execute(
            selectors[from],
            sequence,
            impostor,
            receiver,
            data,
            200_000,
            0
        );
        executed = state == DevnetCCIPRouter.ExecutionState.Success;
    }

    /// @dev Executes the heads of a lane's queue while they are forgeries of a forgotten peer: each
    /// must be refused at once, taking nothing from the bucket. Returns the first other head (zero
    /// when the queue empties).
    function _dropRefusedHeads(uint256 to, uint256 from, IBridge.Token token) private returns (bytes32 head) {
        Bridge b = bridges[to];
        while (true) {
            (head, ) = b.queueOf(selectors[from], token);
            if (head == bytes32(0)) return head;
            uint256 index = _queuedIndexOf(head);
            if (!_queued[index].forged || !forgotten[to][from]) return head;
            (, uint256 before) = b.rateLimitOf(selectors[from], token, false);
            if (!_tryExecute(index) || b.messageStatus(head) != IBridge.MessageStatus.Failed) {
                ++boundViolations;
                return bytes32(0);
            }
            (, uint256 afterwards) = b.rateLimitOf(selectors[from], token, false);
            if (afterwards != before) ++boundViolations;
        }
    }

    /// @dev Tries to execute the queued delivery at `index`; keeps the books when it goes through. A
    /// forgery whose peer governance forgot must be refused (nothing delivered, out of its queue); a
    /// genuine transfer, or a forgery whose peer is still trusted, must never be.
    function _tryExecute(uint256 index) private returns (bool) {
        Pending memory p = _queued[index];
        Bridge b = bridges[p.to];
        (, , uint256 before, ) = b.queuedDeliveryOf(p.messageId);
        uint256 supply = p.token == IBridge.Token.SSTB ? sstbs[p.to].totalSupply() : govs[p.to].totalSupply();
        uint256 escrow = govs[0].balanceOf(address(bridges[0]));
        try b.executeQueued(p.messageId) {
            bytes32 key = _queueKey(p.to, p.from, p.token);
            if (_fifo[key][_head[key]] != p.messageId) ++fifoViolations;
            IBridge.MessageStatus status = b.messageStatus(p.messageId);
            if (status == IBridge.MessageStatus.Failed) {
                // refused: only a forgery of a forgotten peer, and nothing of it delivered
                if (!p.forged || !forgotten[p.to][p.from]) ++forgottenPeerViolations;
                uint256 supplyAfter =
                    p.token == IBridge.Token.SSTB ? sstbs[p.to].totalSupply() : govs[p.to].totalSupply();
                if (supplyAfter != supply || govs[0].balanceOf(address(bridges[0])) != escrow) {
                    ++forgottenPeerViolations;
                }
                ++forgeriesRefused;
                _dequeueModel(index, key, p);
                return true;
            }
            (, , uint256 remaining, ) = b.queuedDeliveryOf(p.messageId);
            if (p.forged) {
                if (forgotten[p.to][p.from]) ++forgottenPeerViolations;
                forgedDelivered[p.to][uint256(p.token)] += before - remaining;
            } else {
                inFlight[uint256(p.token)] -= before - remaining;
            }
            if (status != IBridge.MessageStatus.Completed) {
                _queued[index].amount = remaining;
                ++installments;
                return true;
            }
            ++queuedExecutions;
            _dequeueModel(index, key, p);
            // a second execution must fail
            try b.executeQueued(p.messageId) {
                ++doubleDeliveries;
            } catch {}
            return true;
        } catch {
            // paused, behind another, or still over the limit: waits
            return false;
        }
    }

    /// @dev The queued delivery at `index` left its queue: the model's head moves on.
    function _dequeueModel(uint256 index, bytes32 key, Pending memory p) private {
        ++_head[key];
        _checkLane(p.to, p.from, p.token);
        _queued[index] = _queued[_queued.length - 1];
        _queued.pop();
    }

    /// @dev After a governance message's delivery: it ran if and only if it was later than the last
    /// one run on its chain and on time; the satellite's fee is the model's.
    function _checkGovernance(Pending memory p) private {
        bool runs = p.governanceSequence > lastRun[p.to] && block.timestamp <= p.deadline;
        IGovernanceChannel.MessageStatus status = channels[p.to].messageStatus(p.messageId);
        if (runs) {
            lastRun[p.to] = p.governanceSequence;
            if (p.fee <= 100) modelFee[p.to] = p.fee;
            bool executed = status == IGovernanceChannel.MessageStatus.Executed;
            if (executed != (p.fee <= 100)) ++governanceViolations;
            ++governanceRun;
        } else {
            if (status != IGovernanceChannel.MessageStatus.Failed) ++governanceViolations;
            ++governanceConsumed;
        }
        if (bridges[p.to].feeBps() != modelFee[p.to]) ++governanceViolations;
    }

    /// @dev Counts a violation when the bridge's queue of a lane is not the model's (head and length).
    function _checkLane(uint256 to, uint256 from, IBridge.Token token) private {
        (bytes32 head, uint256 length) = bridges[to].queueOf(selectors[from], token);
        (bytes32 modelHead, uint256 modelLength) = modelQueue(to, from, token);
        if (head != modelHead || length != modelLength) ++fifoViolations;
    }

    /// @dev The first lane from `seed` on (destination, source, token) where the model has
    /// deliveries waiting.
    function _waitingLane(
        uint256 seed
    ) private view returns (uint256 to, uint256 from, IBridge.Token token, bool found) {
        for (uint256 k = 0; k < 12; ++k) {
            uint256 lane = (seed + k) % 12;
            (to, from, token) = (lane / 4, (lane / 4 + 1 + ((lane / 2) % 2)) % 3, IBridge.Token(lane % 2));
            bytes32 key = _queueKey(to, from, token);
            if (_fifo[key].length > _head[key]) return (to, from, token, true);
        }
    }

    function _queueKey(uint256 to, uint256 from, IBridge.Token token) private pure returns (bytes32) {
        return keccak256(abi.encode(to, from, token));
    }

    function _queuedIndexOf(bytes32 messageId) private view returns (uint256 i) {
        while (_queued[i].messageId != messageId) ++i;
    }

    /// @dev A message as the handler knows it before reading the router's event.
    function _message(
        uint256 from,
        uint256 to,
        IBridge.Token token,
        uint256 amount,
        bytes32 messageId,
        uint256 fee,
        uint64 governanceSequence,
        uint256 deadline
    ) private pure returns (Pending memory p) {
        p.from = from;
        p.to = to;
        p.token = token;
        p.amount = amount;
        p.messageId = messageId;
        p.fee = fee;
        p.governanceSequence = governanceSequence;
        p.deadline = deadline;
    }

    /// @dev Completes `p` from the router's send event of the last call, as the relayer would read
    /// it, and keeps it as pending.
    function _record(Pending memory p) private {
        Vm.Log[] memory logs = vm.getRecordedLogs();
        bytes32 topic = DevnetCCIPRouter.CCIPSendRequested.selector;
        for (uint256 i = 0; i < logs.length; ++i) {
            if (logs[i].emitter != address(routers[p.from]) || logs[i].topics[0] != topic) continue;
            p.sequenceNumber = uint64(uint256(logs[i].topics[2]));
            (p.sender, p.receiver, p.data, p.gasLimit, ) = abi.decode(
                logs[i].data,
                (address, address, bytes, uint256, uint256)
            );
            _pending.push(p);
            return;
        }
        revert NoMessageRecorded();
    }
}

/// @title BridgeInvariantsTest
/// @notice Supply conservation across the three chains (DESIGN.md section 4, invariants 1 and 5):
/// after any sequence of sends, governance messages, deliveries in any order, queued executions,
/// limit changes, pauses, time, forgeries by compromised former peers and governance forgetting
/// them, every token burned or escrowed on one chain is either minted or released on another or
/// still in flight, and nothing else was minted or released but what forgeries delivered while
/// their peer was trusted (issue 23, property 1: nothing once it is forgotten, whether it arrives
/// later or already waits). Delivery queues are first in, first out, and each head completes within
/// its bound once its bridge is unpaused, forgeries of a forgotten peer leaving the queue at once
/// (issue 17, property 3; issue 23). A satellite runs governance messages only in the order
/// arbitrum numbered them and before their deadline (issue 17, property 2).
contract BridgeInvariantsTest is StdInvariant, Test {
    BridgeHandler internal handler;

    function setUp() public {
        handler = new BridgeHandler();
        bytes4[] memory selectors = new bytes4[](14);
        selectors[0] = BridgeHandler.bridgeSend.selector;
        selectors[1] = BridgeHandler.deliver.selector;
        selectors[2] = BridgeHandler.executeQueued.selector;
        selectors[3] = BridgeHandler.pause.selector;
        selectors[4] = BridgeHandler.unpause.selector;
        selectors[5] = BridgeHandler.warp.selector;
        selectors[6] = BridgeHandler.sendGovernance.selector;
        selectors[7] = BridgeHandler.completeQueueHead.selector;
        selectors[8] = BridgeHandler.setInboundCapacity.selector;
        selectors[9] = BridgeHandler.sendBehindQueue.selector;
        selectors[10] = BridgeHandler.bridgeSend.selector; // transfers twice as often as the rest
        // issue 23: forgeries twice as often as forgetting, so that forgeries wait when it comes
        selectors[11] = BridgeHandler.forge.selector;
        selectors[12] = BridgeHandler.forge.selector;
        selectors[13] = BridgeHandler.forgetPeer.selector;
        targetSelector(FuzzSelector({addr: address(handler), selectors: selectors}));
        targetContract(address(handler));
    }

    /// @notice The handler's paths really move tokens: a send is in flight until its delivery, a
    /// delivery under a pause waits in the queue until the pause ends.
    function test_handler_sendsDeliversAndQueues() public {
        handler.bridgeSend(0, 100e18, 0); // arbitrum -> ethereum, sSTB, default fee
        assertEq(handler.sends(), 1);
        assertEq(handler.inFlight(0), 100e18);
        handler.deliver(0);
        assertEq(handler.deliveries(), 1);
        assertEq(handler.inFlight(0), 0);
        handler.bridgeSend(65_538, 50e18, 2); // arbitrum -> ethereum, STBGOV, stb_gov fee
        handler.pause(1);
        handler.deliver(0);
        assertEq(handler.pendingCount(), 1);
        handler.executeQueued(0);
        assertEq(handler.queuedExecutions(), 0);
        handler.unpause(1);
        handler.executeQueued(0);
        assertEq(handler.queuedExecutions(), 1);
        assertEq(handler.inFlight(1), 0);
        invariant_supplyConservedAcrossChains();
    }

    /// @notice The queue paths: a delivery behind a waiting one joins the queue, only the head goes
    /// through, and a head larger than its bucket completes in installments within its bound.
    function test_handler_queuesInOrderAndCompletesHeadsInBound() public {
        handler.setInboundCapacity(1 << 8, 5_000e18); // ethereum's inbound sSTB bucket from arbitrum
        handler.bridgeSend(0, 20_000e18, 0); // arbitrum -> ethereum, more than the bucket holds
        handler.bridgeSend(0, 1e18, 0); // a small one after it
        handler.deliver(0);
        handler.deliver(0);
        assertEq(handler.queuedCount(), 2);
        (bytes32 head, uint256 length) = handler.modelQueue(1, 0, IBridge.Token.SSTB);
        assertEq(length, 2);
        (bytes32 bridgeHead, uint256 bridgeLength) = handler.bridges(1).queueOf(
            handler.selectors(0),
            IBridge.Token.SSTB
        );
        assertEq(bridgeHead, head);
        assertEq(bridgeLength, 2);
        // the small one cannot go first, whatever the bucket holds
        handler.warp(3 days);
        handler.executeQueued(1); // the handler's list: [head, small]
        handler.executeQueued(1);
        assertEq(handler.fifoViolations(), 0);
        handler.completeQueueHead(0); // the only lane with deliveries waiting: ethereum, from arbitrum, sSTB
        assertGt(handler.installments(), 0);
        assertEq(handler.headsCompletedInBound(), 1);
        handler.completeQueueHead(0);
        assertEq(handler.headsCompletedInBound(), 2);
        assertEq(handler.inFlight(0), 0);
        assertEq(handler.boundViolations(), 0);
        assertEq(handler.fifoViolations(), 0);
        invariant_queuesFirstInFirstOutAndBounded();
        checkQueuesAreFirstInFirstOut();
        invariant_supplyConservedAcrossChains();
    }

    /// @notice The governance paths: a message delivered after a later one is consumed without effect,
    /// one delivered in order runs, one whose call reverts is consumed, one past its deadline too.
    function test_handler_runsGovernanceInOrder() public {
        handler.sendGovernance(0, 30); // to ethereum: fee 30
        handler.sendGovernance(0, 40); // to ethereum: fee 40
        handler.deliver(1); // the second first
        assertEq(handler.bridges(1).feeBps(), 40);
        handler.deliver(0); // then the first: stale
        assertEq(handler.bridges(1).feeBps(), 40);
        handler.sendGovernance(0, 120); // reverts there: consumed
        handler.deliver(0);
        handler.sendGovernance(0, 50);
        handler.warp(3 days);
        handler.warp(1);
        handler.deliver(0); // expired
        assertEq(handler.bridges(1).feeBps(), 40);
        assertEq(handler.governanceRun(), 2);
        assertEq(handler.governanceConsumed(), 2);
        assertEq(handler.governanceViolations(), 0);
        invariant_governanceRunsOnlyInOrderAndInTime();
    }

    /// @notice Issue 23's paths: a compromised former peer's forgery delivered while it is trusted,
    /// another queued larger than the bucket with a genuine transfer behind it; governance forgets
    /// the peer; a later forgery is refused on arrival, the queued one is refused when it reaches the
    /// head (nothing minted, nothing taken from the bucket), and the genuine one completes within
    /// its own bound.
    function test_handler_forgetsPeersWithForgeriesQueued() public {
        // the route into ethereum (1) from arbitrum (0): seed 256 (256 % 3 = 1, bit 8 set)
        handler.setInboundCapacity(256, 5_000e18);
        handler.forge(256, 100e18); // within the bucket, trusted: delivered
        handler.forge(256, 20_000e18); // above it: queued
        assertEq(handler.forgedDelivered(1, 0), 100e18);
        handler.bridgeSend(0, 1_000e18, 0); // arbitrum -> ethereum, sSTB
        handler.deliver(0); // queued behind the forgery
        assertEq(handler.queuedCount(), 2);
        handler.forgetPeer(256);
        assertTrue(handler.forgotten(1, 0));
        handler.forge(256, 1e18); // arrives after: refused at the door
        handler.completeQueueHead(6); // lane 6: ethereum, from arbitrum, sSTB
        assertEq(handler.forgeriesRefused(), 1);
        assertEq(handler.headsCompletedInBound(), 1);
        assertEq(handler.queuedCount(), 0);
        assertEq(handler.inFlight(0), 0);
        assertEq(handler.forgedDelivered(1, 0), 100e18);
        assertEq(handler.forgottenPeerViolations(), 0);
        assertEq(handler.boundViolations(), 0);
        assertEq(handler.sstbs(1).balanceOf(handler.forger()), 100e18);
        invariant_supplyConservedAcrossChains();
        invariant_queuesFirstInFirstOutAndBounded();
        checkQueuesAreFirstInFirstOut();
    }

    // Three campaigns (each invariant function runs its own): supply, queues, governance. Every check
    // below runs after every call of its campaign; grouping them keeps the deep profile's 10,000 runs
    // of each affordable.

    /// @notice DESIGN.md section 4, invariants 1 and 5, across the three chains: nothing is created or
    /// lost between a burn (or escrow) and its mint (or release), and no message is delivered twice.
    function invariant_supplyConservedAcrossChains() public view {
        checkSstbConserved();
        checkGovernanceEscrowBacksSatelliteSupply();
        checkBridgedTotalsAccountForSupply();
        assertEq(handler.doubleDeliveries(), 0, "a message delivered twice");
        assertEq(handler.forgottenPeerViolations(), 0, "something a forgotten peer sent was delivered");
    }

    /// @notice Issue 17, property 3: every delivery queue is first in first out, and every queue head
    /// a keeper waited for completed within its bound.
    function invariant_queuesFirstInFirstOutAndBounded() public view {
        // the handler compares a lane's queue with the model after every change to it
        assertEq(handler.fifoViolations(), 0, "a delivery out of its queue's order");
        assertEq(handler.boundViolations(), 0, "a queue head not completed within its bound");
        assertEq(handler.forgottenPeerViolations(), 0, "a forgotten peer's forgery delivered or not refused");
    }

    /// @notice Issue 17, property 2: each satellite ran its governance messages only in arbitrum's
    /// order and on time: its last sequence run and its fee are those of the latest message run,
    /// never an earlier one.
    function invariant_governanceRunsOnlyInOrderAndInTime() public view {
        assertEq(handler.governanceViolations(), 0, "a governance message out of order or late");
        for (uint256 to = 1; to < 3; ++to) {
            (, uint64 lastExecuted) = handler.channels(to).governanceSequences(
                handler.selectors(0),
                address(handler.channels(0))
            );
            assertEq(lastExecuted, handler.lastRun(to));
            assertEq(handler.bridges(to).feeBps(), handler.modelFee(to));
        }
    }

    /// @notice Invariant 5: sSTB across the chains plus what is in flight never changes, but for what
    /// forgeries minted while their peer was trusted.
    function checkSstbConserved() public view {
        assertEq(
            handler.totalSupply(IBridge.Token.SSTB) + handler.inFlight(0),
            handler.INITIAL() + handler.forgedTotal(IBridge.Token.SSTB)
        );
    }

    /// @notice The governance token: its fixed supply on arbitrum, and escrow on arbitrum equal to
    /// the satellites' supply plus what travels between them.
    function checkGovernanceEscrowBacksSatelliteSupply() public view {
        (uint256 toSatellites, uint256 toPrimary) = handler.governanceInFlight();
        uint256 escrow = IERC20(address(handler.govs(0))).balanceOf(address(handler.bridges(0)));
        // forgeries released from the escrow on arbitrum and minted on the satellites while trusted
        uint256 forgedMinted = handler.forgedDelivered(1, 1) + handler.forgedDelivered(2, 1);
        assertEq(
            escrow + handler.forgedDelivered(0, 1) + forgedMinted,
            handler.satelliteGovernanceSupply() + toSatellites + toPrimary
        );
        assertEq(IERC20(address(handler.govs(0))).totalSupply(), handler.INITIAL());
    }

    /// @notice Invariant 1 on arbitrum, with no minting in play: supply + bridgedOut - bridgedIn is
    /// what was minted there; and across chains, bridgedOut == bridgedIn + in flight, per token.
    function checkBridgedTotalsAccountForSupply() public view {
        (uint256 out0, uint256 in0) = handler.bridges(0).bridgedTotals(IBridge.Token.SSTB);
        assertEq(handler.sstbs(0).totalSupply() + out0 - in0, handler.INITIAL());
        for (uint256 t = 0; t < 2; ++t) {
            uint256 out;
            uint256 arrived;
            for (uint256 i = 0; i < 3; ++i) {
                (uint256 o, uint256 a) = handler.bridges(i).bridgedTotals(IBridge.Token(t));
                out += o;
                arrived += a;
            }
            assertEq(out + handler.forgedTotal(IBridge.Token(t)), arrived + handler.inFlight(t));
        }
    }

    /// @notice Every delivery queue is the model's, in arrival order (all twelve at once).
    function checkQueuesAreFirstInFirstOut() public view {
        assertEq(handler.fifoViolations(), 0, "a delivery out of its queue's order");
        for (uint256 to = 0; to < 3; ++to) {
            for (uint256 k = 1; k < 3; ++k) {
                uint256 from = (to + k) % 3;
                for (uint256 t = 0; t < 2; ++t) {
                    (bytes32 head, uint256 length) = handler.bridges(to).queueOf(
                        handler.selectors(from),
                        IBridge.Token(t)
                    );
                    (bytes32 modelHead, uint256 modelLength) = handler.modelQueue(to, from, IBridge.Token(t));
                    assertEq(head, modelHead);
                    assertEq(length, modelLength);
                }
            }
        }
    }
}
