// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Test, Vm} from "forge-std/Test.sol";
import {StdInvariant} from "forge-std/StdInvariant.sol";
import {IRouterClient} from "@chainlink/contracts-ccip/contracts/interfaces/IRouterClient.sol";
import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

import {Bridge} from "../../contracts/bridge/Bridge.sol";
import {DevnetCCIPRouter} from "../../contracts/bridge/devnet/DevnetCCIPRouter.sol";
import {IBridge} from "../../contracts/interfaces/IBridge.sol";
import {IBridgedToken} from "../../contracts/interfaces/IBridgedToken.sol";
import {Roles} from "../../contracts/libraries/Roles.sol";
import {TokenBucket} from "../../contracts/libraries/TokenBucket.sol";
import {MockStablecoin} from "../../contracts/mocks/MockStablecoin.sol";
import {BridgedGovernanceToken} from "../../contracts/tokens/BridgedGovernanceToken.sol";
import {GovernanceToken} from "../../contracts/tokens/GovernanceToken.sol";
import {SSTB} from "../../contracts/tokens/SSTB.sol";

/// @title BridgeHandler
/// @notice Three chains in one EVM (arbitrum, ethereum, polygon: three bridges, three devnet routers,
/// their tokens) and two holders. Random sequences of sends (any direction, either token, any fee
/// option), deliveries in any order (the handler is every router's relayer), executions of queued
/// deliveries, pauses and unpauses, and time passing. It keeps the messages in flight so the test
/// can check conservation: nothing is created or lost between a burn and its mint.
contract BridgeHandler is Test {
    uint256 internal constant CHAINS = 3;
    uint256 public constant INITIAL = 1_000_000e18;

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
    }

    Bridge[3] public bridges;
    DevnetCCIPRouter[3] public routers;
    SSTB[3] public sstbs;
    IERC20[3] public govs;
    MockStablecoin[3] public stablecoins;
    uint64[3] public selectors = [uint64(4949039107694359620), 5009297550715157269, 4051577828743386545];
    address[2] public holders;
    address public treasury = makeAddr("treasury");

    /// @notice The send of the last call left no CCIP message (cannot happen).
    error NoMessageRecorded();

    Pending[] internal _pending;
    Pending[] internal _queued;
    /// @notice Per token: amount burned or escrowed on a source whose tokens are not yet minted or
    /// released (undelivered, failed or queued).
    uint256[2] public inFlight;
    uint256 public sends;
    uint256 public deliveries;
    uint256 public queuedExecutions;
    /// @notice Deliveries executed twice, or queued ones completed twice (must stay 0).
    uint256 public doubleDeliveries;

    constructor() {
        holders = [makeAddr("holder-0"), makeAddr("holder-1")];
        for (uint256 i = 0; i < CHAINS; ++i) _deployChain(i);
        TokenBucket.Config memory limit = TokenBucket.Config({enabled: true, capacity: 50_000e18, rate: 1e18});
        for (uint256 i = 0; i < CHAINS; ++i) {
            IBridge.RouteConfig[] memory routes = new IBridge.RouteConfig[](2);
            uint256 n;
            for (uint256 j = 0; j < CHAINS; ++j) {
                if (j == i) continue;
                routes[n++] = IBridge.RouteConfig({
                    chainSelector: selectors[j],
                    peer: address(bridges[j]),
                    gasLimit: 200_000,
                    outbound: [limit, limit],
                    inbound: [limit, limit]
                });
            }
            bridges[i].setRoutes(routes);
        }
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
        vm.deal(address(this), 1_000 ether);
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
        amount = bound(amount, 1, balance / 2); // leave room for a fee in the same token
        IBridge.FeeOption feeOption = IBridge.FeeOption(option % 3);

        vm.recordLogs();
        vm.prank(holder);
        // Bridge.send, not address.send; the handler's bookkeeping after it is the test's own
        // solhint-disable-next-line check-send-result
        try bridges[from].send{value: 1e15}(selectors[to], holder, address(t), amount, feeOption) returns (
            bytes32 messageId
        ) {
            _record(from, to, token, amount, messageId);
            // solhint-disable-next-line reentrancy
            inFlight[uint256(token)] += amount;
            ++sends;
        } catch {
            // over the outbound limit, a fee the holder cannot pay, or paused: nothing happened
        }
    }

    function deliver(uint256 index) external {
        if (_pending.length == 0) return;
        index = index % _pending.length;
        Pending memory p = _pending[index];
        Bridge destination = bridges[p.to];
        IBridge.MessageStatus before = destination.messageStatus(p.messageId);
        if (before != IBridge.MessageStatus.None) ++doubleDeliveries;
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
        if (destination.messageStatus(p.messageId) == IBridge.MessageStatus.Completed) {
            inFlight[uint256(p.token)] -= p.amount;
        } else {
            _queued.push(p);
        }
        _pending[index] = _pending[_pending.length - 1];
        _pending.pop();
    }

    function executeQueued(uint256 index) external {
        if (_queued.length == 0) return;
        index = index % _queued.length;
        Pending memory p = _queued[index];
        try bridges[p.to].executeQueued(p.messageId) {
            inFlight[uint256(p.token)] -= p.amount;
            ++queuedExecutions;
            _queued[index] = _queued[_queued.length - 1];
            _queued.pop();
            // a second execution must fail
            try bridges[p.to].executeQueued(p.messageId) {
                ++doubleDeliveries;
            } catch {}
        } catch {
            // paused or still over the limit: waits
        }
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

    function totalSupply(IBridge.Token token) public view returns (uint256 sum) {
        for (uint256 i = 0; i < CHAINS; ++i) {
            sum += token == IBridge.Token.SSTB ? sstbs[i].totalSupply() : govs[i].totalSupply();
        }
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
                if (list[i].token != IBridge.Token.Governance) continue;
                if (list[i].to == 0) toPrimary += list[i].amount;
                else toSatellites += list[i].amount;
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Set-up
    // ---------------------------------------------------------------------------------------------

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
    }

    /// @dev The router's send event of the last call, as the relayer would read it.
    function _record(uint256 from, uint256 to, IBridge.Token token, uint256 amount, bytes32 messageId) private {
        Vm.Log[] memory logs = vm.getRecordedLogs();
        bytes32 topic = DevnetCCIPRouter.CCIPSendRequested.selector;
        for (uint256 i = 0; i < logs.length; ++i) {
            if (logs[i].emitter != address(routers[from]) || logs[i].topics[0] != topic) continue;
            (address sender, address receiver, bytes memory data, uint256 gasLimit, ) = abi.decode(
                logs[i].data,
                (address, address, bytes, uint256, uint256)
            );
            _pending.push(
                Pending({
                    from: from,
                    to: to,
                    sequenceNumber: uint64(uint256(logs[i].topics[2])),
                    sender: sender,
                    receiver: receiver,
                    data: data,
                    gasLimit: gasLimit,
                    token: token,
                    amount: amount,
                    messageId: messageId
                })
            );
            return;
        }
        revert NoMessageRecorded();
    }
}

/// @title BridgeInvariantsTest
/// @notice Supply conservation across the three chains (DESIGN.md section 4, invariants 1 and 5):
/// after any sequence of sends, deliveries in any order, queued executions, pauses and time, every
/// token burned or escrowed on one chain is either minted or released on another or still in flight.
contract BridgeInvariantsTest is StdInvariant, Test {
    BridgeHandler internal handler;

    function setUp() public {
        handler = new BridgeHandler();
        bytes4[] memory selectors = new bytes4[](6);
        selectors[0] = BridgeHandler.bridgeSend.selector;
        selectors[1] = BridgeHandler.deliver.selector;
        selectors[2] = BridgeHandler.executeQueued.selector;
        selectors[3] = BridgeHandler.pause.selector;
        selectors[4] = BridgeHandler.unpause.selector;
        selectors[5] = BridgeHandler.warp.selector;
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
        invariant_sstbConservedAcrossChains();
        invariant_governanceEscrowBacksSatelliteSupply();
    }

    /// @notice Invariant 5: sSTB across the chains plus what is in flight never changes.
    function invariant_sstbConservedAcrossChains() public view {
        assertEq(handler.totalSupply(IBridge.Token.SSTB) + handler.inFlight(0), handler.INITIAL());
    }

    /// @notice The governance token: its fixed supply on arbitrum, and escrow on arbitrum equal to
    /// the satellites' supply plus what travels between them.
    function invariant_governanceEscrowBacksSatelliteSupply() public view {
        (uint256 toSatellites, uint256 toPrimary) = handler.governanceInFlight();
        uint256 escrow = IERC20(address(handler.govs(0))).balanceOf(address(handler.bridges(0)));
        assertEq(escrow, handler.satelliteGovernanceSupply() + toSatellites + toPrimary);
        assertEq(IERC20(address(handler.govs(0))).totalSupply(), handler.INITIAL());
    }

    /// @notice Invariant 1 on arbitrum, with no minting in play: supply + bridgedOut - bridgedIn is
    /// what was minted there; and across chains, bridgedOut == bridgedIn + in flight, per token.
    function invariant_bridgedTotalsAccountForSupply() public view {
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
            assertEq(out, arrived + handler.inFlight(t));
        }
    }

    /// @notice No message is delivered twice.
    function invariant_eachMessageDeliveredOnce() public view {
        assertEq(handler.doubleDeliveries(), 0);
    }
}
