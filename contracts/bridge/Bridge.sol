// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IAny2EVMMessageReceiver} from "@chainlink/contracts-ccip/contracts/interfaces/IAny2EVMMessageReceiver.sol";
import {IRouterClient} from "@chainlink/contracts-ccip/contracts/interfaces/IRouterClient.sol";
import {Client} from "@chainlink/contracts-ccip/contracts/libraries/Client.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

import {IBridge} from "../interfaces/IBridge.sol";
import {IBridgedToken} from "../interfaces/IBridgedToken.sol";
import {Roles} from "../libraries/Roles.sol";
import {TokenBucket} from "../libraries/TokenBucket.sol";
import {EmergencyPausable} from "../utils/EmergencyPausable.sol";

/// @title Bridge
/// @notice Moves sSTB and the governance token between arbitrum, ethereum and polygon over
/// Chainlink CCIP, one data-only message per transfer. The sender pays a protocol fee (stablecoin,
/// or sSTB or the governance token at a discount) to the treasury and CCIP's transport fee in
/// native gas. (The arbitrum timelock's calls to the satellites travel on {GovernanceChannel}.)
/// @dev Safety of supply: the source burns (escrows) before the message exists and the destination
/// mints (releases) once per message id, only for a message its router delivers from its peer (or,
/// for a transfer, from a former peer: what it sent before the route changed). A delivery never
/// reverts for the pause or the inbound rate limit: it is recorded as `Queued`, in a first-in
/// first-out queue per source chain and token, and anyone completes it later (in installments of
/// the bucket's capacity if it is larger), so a message whose tokens were burned is never stranded.
/// A transfer delivery that reverts for any other reason (out of gas, a misconfigured role) is left
/// failed by CCIP and can be executed again there (manual execution; on the devnet, the relayer's
/// retry). Trust in a peer is checked when a message arrives and, for a message that was waiting
/// when governance forgot a peer, again before anything of it is delivered: nothing a forgotten peer
/// sent is minted or released, and its queued messages leave their queues without delay to the
/// ones behind (issue 23).
contract Bridge is EmergencyPausable, ReentrancyGuardTransient, IBridge, IAny2EVMMessageReceiver {
    using SafeERC20 for IERC20;
    using TokenBucket for TokenBucket.Bucket;

    /// @notice Highest protocol fee governance may set: 1% of the value moved.
    uint256 public constant MAX_FEE_BPS = 100;
    /// @notice Highest discount governance may give a fee option: 50%.
    uint256 public constant MAX_DISCOUNT_BPS = 5_000;
    /// @notice Highest token price governance may set, in stablecoin base units per whole token.
    uint256 public constant MAX_PRICE = 1e18;
    /// @notice Least destination gas a route may give a delivery.
    uint256 public constant MIN_GAS_LIMIT = 50_000;
    /// @notice Most destination gas a route may give a delivery.
    uint256 public constant MAX_GAS_LIMIT = 3_000_000;

    bytes32 internal constant PARAM_FEE = "feeBps";
    bytes32 internal constant PARAM_SERVICE_DISCOUNT = "serviceDiscountBps";
    bytes32 internal constant PARAM_GOVERNANCE_DISCOUNT = "governanceDiscountBps";
    bytes32 internal constant PARAM_SSTB_PRICE = "sstbPrice";
    bytes32 internal constant PARAM_GOVERNANCE_PRICE = "governancePrice";
    bytes32 internal constant PARAM_GAS_LIMIT = "gasLimit";
    bytes32 internal constant PARAM_CHAIN = "chainSelector";

    /// @dev The kind a transfer's payload starts with (kind 2 was the governance messages this
    /// contract carried before issue 23; they now go over {GovernanceChannel}).
    uint256 private constant KIND_TRANSFER = 1;
    uint256 private constant BPS = 10_000;

    /// @dev A route: the peer, its delivery gas, whether it is in `chains` and which tokens have
    /// deliveries waiting in their queue (bit 1 << token) in one slot, the slot every delivery reads
    /// anyway; then the buckets per token and direction, whose `total`s are the route's flows.
    /// `waiting` took 8 of the slot's 56 free bits: the layout of the fields after it is unchanged.
    struct Route {
        address peer;
        uint32 gasLimit;
        bool listed;
        uint8 waiting;
        TokenBucket.Bucket[2] outbound;
        TokenBucket.Bucket[2] inbound;
    }

    /// @dev The deliveries waiting from one chain in one token, first in first out: positions
    /// [head, tail) of `ids`. `forgetMark` is 0 until governance forgets a peer of the chain, then
    /// one more than the tail at the last such moment: positions below `forgetMark - 1` were
    /// waiting then, and their sender's trust is checked again before they deliver (a message
    /// queued before issue 17, in no queue, is checked once any forget happened). It (issue 23)
    /// took 64 of the first slot's 128 free bits: `ids` stays where it was.
    struct DeliveryQueue {
        uint64 head;
        uint64 tail;
        uint64 forgetMark;
        mapping(uint64 position => bytes32 messageId) ids;
    }

    /// @dev What a queued delivery still has to deliver, and the peer that sent it (issue 23; zero
    /// for a message queued before): two slots, written only when a delivery waits (a rare path).
    /// `peer` shares the second slot with `amount`.
    // solhint-disable-next-line gas-struct-packing
    struct QueuedDelivery {
        address recipient;
        Token token;
        uint96 amount;
        address peer;
    }

    /// @custom:storage-location erc7201:computeprotocol.storage.Bridge
    struct BridgeStorage {
        // one slot, read by every send and every delivery
        address treasury;
        uint40 pausedUntil;
        uint16 feeBps;
        uint16 serviceDiscountBps;
        uint16 governanceDiscountBps;
        // one slot, read by sends
        uint64 sstbPrice;
        uint64 governancePrice;
        // retired by issue 23 (cross-chain governance moved to {GovernanceChannel}); never written
        // again, kept so that the fields after it stay where they are
        address governanceExecutor;
        mapping(uint64 chainSelector => Route) routes;
        mapping(bytes32 messageId => Message) messages;
        mapping(bytes32 messageId => QueuedDelivery) queued;
        // every chain that ever had a route, for the flow totals
        uint64[] chains;
        // appended by issue 17
        mapping(uint64 chainSelector => DeliveryQueue[2]) queues;
        // previous peers whose transfers, sent before their route changed, are still delivered
        mapping(uint64 chainSelector => mapping(address peer => bool)) formerPeers;
        // retired by issue 23, as `governanceExecutor`: the governance sequence numbers sent and run
        mapping(uint64 chainSelector => uint64) governanceSent;
        mapping(uint64 chainSelector => mapping(address sender => uint64)) governanceExecuted;
        // --- issue 23 ---
        // peers governance forgot, for good: never trusted or set as a route's peer again
        mapping(uint64 chainSelector => mapping(address peer => bool)) forgottenPeers;
    }

    // keccak256(abi.encode(uint256(keccak256("computeprotocol.storage.Bridge")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant STORAGE_LOCATION = 0xc8944843ede9fe5d59f5591b397430239c1c533c7cefe5680199c95b1ac74800;

    /// @dev Fixed per chain: changing any of them is an upgrade.
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    IRouterClient private immutable _router;
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    uint64 private immutable _localChainSelector;
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    IBridgedToken private immutable _sstb;
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    address private immutable _governanceToken;
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    IERC20 private immutable _stablecoin;
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    bool private immutable _escrowsGovernance;

    /// @notice Deploys an implementation for one chain.
    /// @param router_ The chain's CCIP router.
    /// @param localChainSelector_ This chain's CCIP chain selector.
    /// @param sstb_ sSTB on this chain.
    /// @param governanceToken_ The governance token (arbitrum) or its bridged representation.
    /// @param stablecoin_ The stablecoin of the `Default` fee option (USDC).
    /// @param escrowsGovernance_ True on the primary chain, where the governance token's fixed supply
    /// lives and is escrowed; false on satellites, where it is burned and minted.
    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor(
        IRouterClient router_,
        uint64 localChainSelector_,
        IBridgedToken sstb_,
        address governanceToken_,
        IERC20 stablecoin_,
        bool escrowsGovernance_
    ) {
        if (
            address(router_) == address(0) ||
            address(sstb_) == address(0) ||
            governanceToken_ == address(0) ||
            address(stablecoin_) == address(0)
        ) revert ZeroAddress();
        if (localChainSelector_ == 0) revert ParameterOutOfBounds(PARAM_CHAIN, 0);
        _router = router_;
        _localChainSelector = localChainSelector_;
        _sstb = sstb_;
        _governanceToken = governanceToken_;
        _stablecoin = stablecoin_;
        _escrowsGovernance = escrowsGovernance_;
    }

    /// @notice Initializes the proxy: fee 10 bps of the value moved, discounts 10% (`service`) and
    /// 25% (`stb_gov`), no routes (the deployment sets them).
    /// @param admin Receives the admin, governance and upgrader roles (handed to governance).
    /// @param treasury_ Receives the protocol fees.
    /// @param sstbPrice_ Stablecoin base units per whole sSTB, for converting fees.
    /// @param governancePrice_ Stablecoin base units per whole governance token.
    function initialize(
        address admin,
        address treasury_,
        uint256 sstbPrice_,
        uint256 governancePrice_
    ) external initializer {
        __ProtocolUpgradeable_init(admin);
        __EmergencyPausable_init();
        BridgeStorage storage $ = _storage();
        _setTreasury($, treasury_);
        _setFee($, 10);
        _setDiscounts($, 1_000, 2_500);
        _setPrices($, sstbPrice_, governancePrice_);
    }

    // ---------------------------------------------------------------------------------------------
    // Transfers
    // ---------------------------------------------------------------------------------------------

    /// @inheritdoc IBridge
    /// @dev Stopped while paused. Effects in order: the outbound limit, the protocol fee, the burn or
    /// escrow, then the CCIP message, whose id keys the record.
    function send(
        uint64 destinationChain,
        address recipient,
        address token,
        uint256 amount,
        FeeOption feeOption
    ) external payable nonReentrant returns (bytes32 messageId) {
        uint256 fee;
        uint256 transportFee;
        {
            BridgeStorage storage $ = _storage();
            if (block.timestamp < $.pausedUntil) revert EnforcedPause();
            if (recipient == address(0)) revert ZeroAddress();
            if (amount == 0 || amount > type(uint96).max) revert BridgeInvalidAmount(amount);
            Token t = _tokenOf(token);
            Route storage route = _useRoute($, destinationChain, t, amount);
            fee = _collectFee($, t, amount, feeOption);
            _take(t, amount);
            (messageId, transportFee) = _dispatchTransfer($, route, destinationChain, t, recipient, amount);
        }
        emit MessageSent(
            messageId,
            destinationChain,
            msg.sender,
            recipient,
            token,
            amount,
            feeOption,
            fee,
            transportFee
        );
    }

    /// @inheritdoc IAny2EVMMessageReceiver
    /// @dev Router and peer checked first (the route's peer, or a former peer of the route that
    /// governance has not forgotten: what it sent before the route changed); a message id is
    /// processed once (the record exists from the first delivery on, whatever its outcome).
    function ccipReceive(Client.Any2EVMMessage calldata message) external {
        if (msg.sender != address(_router)) revert BridgeInvalidRouter(msg.sender);
        BridgeStorage storage $ = _storage();
        uint64 source = message.sourceChainSelector;
        Route storage route = $.routes[source];
        address sender = abi.decode(message.sender, (address));
        (address peer, uint8 waiting) = (route.peer, route.waiting);
        if ((peer == address(0) || sender != peer) && !$.formerPeers[source][sender]) {
            revert BridgeUnknownPeer(source, sender);
        }
        bytes32 messageId = message.messageId;
        if ($.messages[messageId].status != MessageStatus.None) revert BridgeMessageAlreadyProcessed(messageId);
        uint256 kind = abi.decode(message.data, (uint256));
        if (kind != KIND_TRANSFER) revert BridgeUnknownMessageKind(kind);
        _receiveTransfer($, route, waiting, messageId, source, sender, message.data);
    }

    /// @inheritdoc IBridge
    /// @dev A delivery takes min(remaining, capacity) out of the bucket, so the queue drains at the
    /// bucket's rate whatever the sizes: a message completes within (what waits before it, plus its
    /// own amount, plus one capacity) / rate after the pause, given callers. Fresh deliveries join the
    /// tail while anything waits, so they cannot take the refill from the head. A refused message
    /// takes nothing from the bucket, so what waits before a message counts only what is delivered.
    /// A message queued by the implementation before issue 17 is in no queue: it goes whenever its
    /// queue is empty.
    function executeQueued(bytes32 messageId) external nonReentrant {
        BridgeStorage storage $ = _storage();
        if (block.timestamp < $.pausedUntil) revert EnforcedPause();
        Message storage record = $.messages[messageId];
        if (record.status != MessageStatus.Queued) revert BridgeMessageNotQueued(messageId);
        QueuedDelivery storage q = $.queued[messageId];
        (address recipient, Token token, uint256 remaining) = (q.recipient, q.token, q.amount);
        uint64 source = record.remoteChainSelector;
        Route storage route = $.routes[source];
        DeliveryQueue storage queue = $.queues[source][uint256(token)];
        (bool inQueue, bool recheck) = _requireHead(queue, messageId);
        if (recheck) {
            // governance forgot a peer of this chain while the message waited: its own peer must
            // not be that one (a message queued before issue 23 names none, and is refused)
            address peer = q.peer;
            if (peer == address(0) || $.forgottenPeers[source][peer]) {
                record.status = MessageStatus.Failed;
                record.completedAt = uint40(block.timestamp);
                delete $.queued[messageId];
                if (inQueue) _dequeue(queue, route, token);
                emit MessageRefused(messageId, source, peer, remaining);
                return;
            }
        }
        uint256 amount = _installment(route.inbound[uint256(token)], remaining);
        remaining -= amount;
        if (remaining == 0) {
            record.status = MessageStatus.Completed;
            record.completedAt = uint40(block.timestamp);
            delete $.queued[messageId];
            if (inQueue) _dequeue(queue, route, token);
            emit MessageCompleted(messageId);
        } else {
            q.amount = uint96(remaining);
            emit MessagePartlyDelivered(messageId, amount, remaining);
        }
        _deliver(token, recipient, amount);
    }

    // ---------------------------------------------------------------------------------------------
    // Governance
    // ---------------------------------------------------------------------------------------------

    /// @notice Sets routes: each remote chain's peer bridge (zero closes the route to sends), the gas
    /// its deliveries get, and its four rate limits (per token, outbound and inbound). A peer that is
    /// replaced (or closed) stays trusted for the transfers it sent before, so none of them is
    /// stranded in flight; {forgetPeer} ends that (a compromised peer). A forgotten peer cannot be
    /// set again.
    function setRoutes(RouteConfig[] calldata routes) external onlyRole(Roles.GOVERNANCE_ROLE) {
        BridgeStorage storage $ = _storage();
        for (uint256 i = 0; i < routes.length; ++i) {
            RouteConfig calldata config = routes[i];
            uint64 chain = config.chainSelector;
            if (chain == 0 || chain == _localChainSelector) revert ParameterOutOfBounds(PARAM_CHAIN, chain);
            if (config.peer != address(0) && (config.gasLimit < MIN_GAS_LIMIT || config.gasLimit > MAX_GAS_LIMIT)) {
                revert ParameterOutOfBounds(PARAM_GAS_LIMIT, config.gasLimit);
            }
            if ($.forgottenPeers[chain][config.peer]) revert BridgePeerForgotten(chain, config.peer);
            Route storage route = $.routes[chain];
            address previous = route.peer;
            if (previous != address(0) && previous != config.peer) {
                $.formerPeers[chain][previous] = true;
                emit FormerPeerUpdated(chain, previous, true);
            }
            route.peer = config.peer;
            route.gasLimit = config.gasLimit;
            if (!route.listed) {
                route.listed = true;
                $.chains.push(chain);
            }
            emit RouteUpdated(chain, config.peer, config.gasLimit);
            for (uint256 t = 0; t < 2; ++t) {
                _setRateLimit(route, chain, Token(t), true, config.outbound[t]);
                _setRateLimit(route, chain, Token(t), false, config.inbound[t]);
            }
        }
    }

    /// @notice Stops delivering transfers from a former peer of a route (one replaced or closed by
    /// {setRoutes}), for good: for a compromised peer, or once everything it sent has arrived. What
    /// it sends afterwards is refused on arrival, what it sent that waits in a queue is refused when
    /// it reaches the head ({MessageRefused}: nothing of it minted or released, and its queue moves
    /// on at once), and it can never be a peer again.
    /// @dev Marks both tokens' queues from the chain up to their tails for a check of the sender's
    /// trust; messages that arrive later need none (they were checked on arrival, and only this
    /// function takes trust away).
    function forgetPeer(uint64 chainSelector, address peer) external onlyRole(Roles.GOVERNANCE_ROLE) {
        BridgeStorage storage $ = _storage();
        mapping(address => bool) storage former = $.formerPeers[chainSelector];
        if (!former[peer]) revert BridgeUnknownPeer(chainSelector, peer);
        former[peer] = false;
        $.forgottenPeers[chainSelector][peer] = true;
        DeliveryQueue[2] storage queues = $.queues[chainSelector];
        for (uint256 t = 0; t < 2; ++t) queues[t].forgetMark = queues[t].tail + 1;
        emit FormerPeerUpdated(chainSelector, peer, false);
    }

    /// @notice Sets one rate limit of a route: `token` in one direction.
    function setRateLimit(
        uint64 chainSelector,
        Token token,
        bool outbound,
        TokenBucket.Config calldata config
    ) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _setRateLimit(_storage().routes[chainSelector], chainSelector, token, outbound, config);
    }

    /// @notice Sets the protocol fee, in basis points of the value moved, at most {MAX_FEE_BPS}.
    function setFee(uint256 feeBps_) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _setFee(_storage(), feeBps_);
    }

    /// @notice Sets the discounts of the `service` and `stb_gov` options, each at most {MAX_DISCOUNT_BPS}.
    function setDiscounts(uint256 serviceBps, uint256 governanceBps) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _setDiscounts(_storage(), serviceBps, governanceBps);
    }

    /// @notice Sets the prices that convert fees between the stablecoin and the two tokens, in
    /// stablecoin base units per whole token, within [1, {MAX_PRICE}].
    function setPrices(uint256 sstbPrice_, uint256 governancePrice_) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _setPrices(_storage(), sstbPrice_, governancePrice_);
    }

    /// @notice Sets the account that receives protocol fees.
    function setTreasury(address treasury_) external onlyRole(Roles.GOVERNANCE_ROLE) {
        _setTreasury(_storage(), treasury_);
    }

    // ---------------------------------------------------------------------------------------------
    // Views
    // ---------------------------------------------------------------------------------------------

    /// @inheritdoc IBridge
    function quoteFee(
        uint64 destinationChain,
        address token,
        uint256 amount
    ) external view returns (FeeQuote memory quote) {
        BridgeStorage storage $ = _storage();
        Token t = _tokenOf(token);
        Route storage route = $.routes[destinationChain];
        if (route.peer == address(0)) revert BridgeUnsupportedChain(destinationChain);
        quote.stablecoin = address(_stablecoin);
        quote.defaultFee = _fee($, t, amount, FeeOption.Default);
        quote.serviceFee = _fee($, t, amount, FeeOption.Service);
        quote.serviceDiscountBps = $.serviceDiscountBps;
        quote.governanceFee = _fee($, t, amount, FeeOption.StbGov);
        quote.governanceDiscountBps = $.governanceDiscountBps;
        quote.transportFee = _router.getFee(
            destinationChain,
            _message(route.peer, route.gasLimit, abi.encode(KIND_TRANSFER, t, msg.sender, msg.sender, amount))
        );
    }

    /// @inheritdoc IBridge
    function messageOf(bytes32 messageId) external view returns (Message memory) {
        return _storage().messages[messageId];
    }

    /// @notice The status of a message id on this chain.
    function messageStatus(bytes32 messageId) external view returns (MessageStatus) {
        return _storage().messages[messageId].status;
    }

    /// @notice What a queued message will still deliver, and the peer that sent it (zero for one
    /// queued before issue 23).
    function queuedDeliveryOf(
        bytes32 messageId
    ) external view returns (address recipient, Token token, uint256 amount, address peer) {
        QueuedDelivery storage q = _storage().queued[messageId];
        return (q.recipient, q.token, q.amount, q.peer);
    }

    /// @notice The deliveries from `sourceChainSelector` in `token` waiting here: the first (the only
    /// one {executeQueued} takes now; zero if none) and how many.
    function queueOf(uint64 sourceChainSelector, Token token) external view returns (bytes32 head, uint256 length) {
        DeliveryQueue storage queue = _storage().queues[sourceChainSelector][uint256(token)];
        return (queue.ids[queue.head], queue.tail - queue.head);
    }

    /// @notice A route's peer and delivery gas (zero peer: no route).
    function routeOf(uint64 chainSelector) external view returns (address peer, uint32 gasLimit) {
        Route storage route = _storage().routes[chainSelector];
        return (route.peer, route.gasLimit);
    }

    /// @notice Whether transfers from `peer`, a former peer of the route to `chainSelector`, are
    /// still delivered.
    function isFormerPeer(uint64 chainSelector, address peer) external view returns (bool) {
        return _storage().formerPeers[chainSelector][peer];
    }

    /// @notice Whether governance forgot `peer` on the route to `chainSelector` (for good).
    function isForgottenPeer(uint64 chainSelector, address peer) external view returns (bool) {
        return _storage().forgottenPeers[chainSelector][peer];
    }

    /// @notice A rate limit's configuration and the amount it lets through now.
    function rateLimitOf(
        uint64 chainSelector,
        Token token,
        bool outbound
    ) external view returns (TokenBucket.Config memory config, uint256 available) {
        TokenBucket.Bucket storage bucket = _bucket(_storage().routes[chainSelector], token, outbound);
        return (bucket.configOf(), bucket.available());
    }

    /// @notice A rate limit's stored bucket: its level at its last update, and its configuration.
    function bucketOf(
        uint64 chainSelector,
        Token token,
        bool outbound
    ) external view returns (TokenBucket.Bucket memory) {
        return _bucket(_storage().routes[chainSelector], token, outbound);
    }

    /// @notice Cumulative amounts of `token` that left this chain and that arrived (completed
    /// deliveries): the `bridgedOut` and `bridgedIn` of DESIGN.md section 4, invariant 1. Summed
    /// over the routes' buckets, which count every amount that passes them.
    function bridgedTotals(Token token) external view returns (uint256 bridgedOut, uint256 bridgedIn) {
        BridgeStorage storage $ = _storage();
        for (uint256 i = 0; i < $.chains.length; ++i) {
            Route storage route = $.routes[$.chains[i]];
            bridgedOut += route.outbound[uint256(token)].total;
            bridgedIn += route.inbound[uint256(token)].total;
        }
    }

    /// @notice The protocol fee in basis points of the value moved.
    function feeBps() external view returns (uint256) {
        return _storage().feeBps;
    }

    /// @notice The discounts of the `service` and `stb_gov` options, in basis points.
    function discounts() external view returns (uint256 serviceBps, uint256 governanceBps) {
        BridgeStorage storage $ = _storage();
        return ($.serviceDiscountBps, $.governanceDiscountBps);
    }

    /// @notice Stablecoin base units per whole sSTB and per whole governance token.
    function prices() external view returns (uint256 sstbPrice, uint256 governancePrice) {
        BridgeStorage storage $ = _storage();
        return ($.sstbPrice, $.governancePrice);
    }

    /// @notice The account that receives protocol fees.
    function treasury() external view returns (address) {
        return _storage().treasury;
    }

    /// @notice This chain's CCIP router (the only caller {ccipReceive} accepts).
    function getRouter() external view returns (address) {
        return address(_router);
    }

    /// @notice This chain's CCIP chain selector.
    function localChainSelector() external view returns (uint64) {
        return _localChainSelector;
    }

    /// @notice The address of a token on this chain.
    function tokenAddress(Token token) external view returns (address) {
        return _tokenAddress(token);
    }

    /// @notice The stablecoin of the `Default` fee option.
    function stablecoin() external view returns (address) {
        return address(_stablecoin);
    }

    /// @notice Whether this chain escrows the governance token (the primary chain) or burns and
    /// mints its bridged representation (satellites).
    function escrowsGovernance() external view returns (bool) {
        return _escrowsGovernance;
    }

    /// @notice ERC-165: CCIP routers deliver only to receivers that declare {IAny2EVMMessageReceiver}.
    function supportsInterface(bytes4 interfaceId) public view override returns (bool) {
        return interfaceId == type(IAny2EVMMessageReceiver).interfaceId || super.supportsInterface(interfaceId);
    }

    // ---------------------------------------------------------------------------------------------
    // Internals
    // ---------------------------------------------------------------------------------------------

    function _storage() private pure returns (BridgeStorage storage $) {
        assembly {
            $.slot := STORAGE_LOCATION
        }
    }

    function _pausedUntil() internal view override returns (uint40) {
        return _storage().pausedUntil;
    }

    function _setPausedUntil(uint40 until) internal override {
        _storage().pausedUntil = until;
    }

    function _tokenOf(address token) private view returns (Token) {
        if (token == address(_sstb)) return Token.SSTB;
        if (token == _governanceToken) return Token.Governance;
        revert BridgeUnsupportedToken(token);
    }

    /// @dev The bit of `token` in a route's `waiting`.
    function _bit(Token token) private pure returns (uint8) {
        return uint8(1) << uint8(token);
    }

    function _tokenAddress(Token token) private view returns (address) {
        return token == Token.SSTB ? address(_sstb) : _governanceToken;
    }

    function _bucket(
        Route storage route,
        Token token,
        bool outbound
    ) private view returns (TokenBucket.Bucket storage) {
        return outbound ? route.outbound[uint256(token)] : route.inbound[uint256(token)];
    }

    /// @dev The fee of an option, rounded up (so no transfer above zero is free while the fee is
    /// above zero). From the value moved in the stablecoin, `amount * price / 1e18`, times the fee
    /// rate; the discounted options convert that into their token at its price and take the
    /// discount off, in one rounding.
    function _fee(
        BridgeStorage storage $,
        Token token,
        uint256 amount,
        FeeOption option
    ) private view returns (uint256) {
        uint256 price = token == Token.SSTB ? $.sstbPrice : $.governancePrice;
        uint256 rate = price * $.feeBps; // < 2^64 * 2^7
        if (option == FeeOption.Default) return Math.mulDiv(amount, rate, 1e18 * BPS, Math.Rounding.Ceil);
        (uint256 discount, uint256 feeTokenPrice) = option == FeeOption.Service
            ? ($.serviceDiscountBps, uint256($.sstbPrice))
            : ($.governanceDiscountBps, uint256($.governancePrice));
        return Math.mulDiv(amount, rate * (BPS - discount), feeTokenPrice * BPS * BPS, Math.Rounding.Ceil);
    }

    function _collectFee(
        BridgeStorage storage $,
        Token token,
        uint256 amount,
        FeeOption option
    ) private returns (uint256 fee) {
        fee = _fee($, token, amount, option);
        if (fee == 0) return 0;
        IERC20 feeToken =
            option == FeeOption.Default
                ? _stablecoin
                : IERC20(option == FeeOption.Service ? address(_sstb) : _governanceToken);
        feeToken.safeTransferFrom(msg.sender, $.treasury, fee);
    }

    /// @dev Burns (or escrows) what leaves this chain.
    function _take(Token token, uint256 amount) private {
        if (token == Token.SSTB) {
            _sstb.burnFrom(msg.sender, amount);
        } else if (_escrowsGovernance) {
            IERC20(_governanceToken).safeTransferFrom(msg.sender, address(this), amount);
        } else {
            IBridgedToken(_governanceToken).burnFrom(msg.sender, amount);
        }
    }

    /// @dev Mints (or releases) what arrives on this chain.
    function _deliver(Token token, address recipient, uint256 amount) private {
        if (token == Token.SSTB) {
            _sstb.mint(recipient, amount);
        } else if (_escrowsGovernance) {
            IERC20(_governanceToken).safeTransfer(recipient, amount);
        } else {
            IBridgedToken(_governanceToken).mint(recipient, amount);
        }
    }

    /// @dev Whether `queue` holds anything (every message queued since issue 17 is in its queue, so
    /// a queued message whose queue is empty was queued before), and whether the message must have
    /// its sender's trust checked again: its position is below the queue's mark (for one in no
    /// queue: any peer of the chain was ever forgotten). Reverts unless `messageId` is the head.
    function _requireHead(
        DeliveryQueue storage queue,
        bytes32 messageId
    ) private view returns (bool inQueue, bool recheck) {
        (uint64 head, uint64 tail) = (queue.head, queue.tail);
        inQueue = head != tail;
        bytes32 first = queue.ids[head];
        if (inQueue && first != messageId) revert BridgeNotQueueHead(messageId, first);
        uint64 mark = queue.forgetMark;
        recheck = inQueue ? head + 1 < mark : mark != 0;
    }

    /// @dev Takes the next installment of a queued delivery out of `bucket`: what remains, or the
    /// bucket's capacity if that is less.
    function _installment(TokenBucket.Bucket storage bucket, uint256 remaining) private returns (uint256 amount) {
        amount = remaining;
        if (bucket.enabled && bucket.capacity < amount) amount = bucket.capacity;
        bucket.consume(amount);
    }

    /// @dev Removes the head of `queue`; clears the route's waiting bit of `token` when it empties.
    function _dequeue(DeliveryQueue storage queue, Route storage route, Token token) private {
        uint64 head = queue.head;
        delete queue.ids[head];
        queue.head = ++head;
        if (head == queue.tail) route.waiting &= ~_bit(token);
    }

    /// @dev The route to `destinationChain`, after taking `amount` out of its outbound limit.
    function _useRoute(
        BridgeStorage storage $,
        uint64 destinationChain,
        Token token,
        uint256 amount
    ) private returns (Route storage route) {
        route = $.routes[destinationChain];
        if (route.peer == address(0)) revert BridgeUnsupportedChain(destinationChain);
        route.outbound[uint256(token)].consume(amount);
    }

    /// @dev Sends the transfer's message and records it as `Sent` under the id CCIP gave it.
    function _dispatchTransfer(
        BridgeStorage storage $,
        Route storage route,
        uint64 destinationChain,
        Token token,
        address recipient,
        uint256 amount
    ) private returns (bytes32 messageId, uint256 transportFee) {
        (messageId, transportFee) = _ccipSend(
            destinationChain,
            route.peer,
            route.gasLimit,
            abi.encode(KIND_TRANSFER, token, msg.sender, recipient, amount)
        );
        _recordSent($, messageId, destinationChain);
    }

    /// @dev Records a message this chain sent.
    function _recordSent(BridgeStorage storage $, bytes32 messageId, uint64 destinationChain) private {
        $.messages[messageId] = Message({
            status: MessageStatus.Sent,
            createdAt: uint40(block.timestamp),
            completedAt: 0,
            remoteChainSelector: destinationChain
        });
    }

    /// @dev A transfer from `peer` (trusted now): delivered at once, or queued with its peer recorded.
    function _receiveTransfer(
        BridgeStorage storage $,
        Route storage route,
        uint8 waiting,
        bytes32 messageId,
        uint64 source,
        address peer,
        bytes calldata data
    ) private {
        (, Token token, address sender, address recipient, uint256 amount) = abi.decode(
            data,
            (uint256, Token, address, address, uint256)
        );
        bool paused = block.timestamp < $.pausedUntil;
        uint8 bit = _bit(token);
        if (paused || waiting & bit != 0 || !route.inbound[uint256(token)].tryConsume(amount)) {
            $.messages[messageId] = Message({
                status: MessageStatus.Queued,
                createdAt: uint40(block.timestamp),
                completedAt: 0,
                remoteChainSelector: source
            });
            $.queued[messageId] = QueuedDelivery({
                recipient: recipient,
                token: token,
                amount: uint96(amount),
                peer: peer
            });
            DeliveryQueue storage queue = $.queues[source][uint256(token)];
            queue.ids[queue.tail] = messageId;
            ++queue.tail;
            route.waiting = waiting | bit;
            emit MessageReceived(messageId, source, recipient, sender, _tokenAddress(token), amount, false);
            emit MessageQueued(messageId, paused);
            return;
        }
        $.messages[messageId] = Message({
            status: MessageStatus.Completed,
            createdAt: uint40(block.timestamp),
            completedAt: uint40(block.timestamp),
            remoteChainSelector: source
        });
        emit MessageReceived(messageId, source, recipient, sender, _tokenAddress(token), amount, true);
        _deliver(token, recipient, amount);
    }

    /// @dev Sends a data-only message to `peer`, paying CCIP the whole `msg.value` in native gas. The
    /// router refuses less than its fee and, as CCIP documents, keeps an overpayment: senders pass
    /// the quoted `transportFee` exactly. Asking the router for its fee here to return an excess
    /// would cost every send another router call (a fee-quoter call in production).
    function _ccipSend(
        uint64 destinationChain,
        address peer,
        uint32 gasLimit,
        bytes memory data
    ) private returns (bytes32 messageId, uint256 transportFee) {
        transportFee = msg.value;
        messageId = _router.ccipSend{value: transportFee}(destinationChain, _message(peer, gasLimit, data));
    }

    function _message(
        address peer,
        uint32 gasLimit,
        bytes memory data
    ) private pure returns (Client.EVM2AnyMessage memory) {
        return
            Client.EVM2AnyMessage({
                receiver: abi.encode(peer),
                data: data,
                tokenAmounts: new Client.EVMTokenAmount[](0),
                feeToken: address(0),
                extraArgs: Client._argsToBytes(
                    Client.GenericExtraArgsV2({gasLimit: gasLimit, allowOutOfOrderExecution: true})
                )
            });
    }

    function _setRateLimit(
        Route storage route,
        uint64 chain,
        Token token,
        bool outbound,
        TokenBucket.Config memory config
    ) private {
        _bucket(route, token, outbound).configure(config);
        emit RateLimitUpdated(chain, token, outbound, config);
    }

    function _setFee(BridgeStorage storage $, uint256 feeBps_) private {
        if (feeBps_ > MAX_FEE_BPS) revert ParameterOutOfBounds(PARAM_FEE, feeBps_);
        emit ParameterUpdated(PARAM_FEE, $.feeBps, feeBps_);
        $.feeBps = uint16(feeBps_);
    }

    function _setDiscounts(BridgeStorage storage $, uint256 serviceBps, uint256 governanceBps) private {
        if (serviceBps > MAX_DISCOUNT_BPS) revert ParameterOutOfBounds(PARAM_SERVICE_DISCOUNT, serviceBps);
        if (governanceBps > MAX_DISCOUNT_BPS) revert ParameterOutOfBounds(PARAM_GOVERNANCE_DISCOUNT, governanceBps);
        emit ParameterUpdated(PARAM_SERVICE_DISCOUNT, $.serviceDiscountBps, serviceBps);
        emit ParameterUpdated(PARAM_GOVERNANCE_DISCOUNT, $.governanceDiscountBps, governanceBps);
        $.serviceDiscountBps = uint16(serviceBps);
        $.governanceDiscountBps = uint16(governanceBps);
    }

    function _setPrices(BridgeStorage storage $, uint256 sstbPrice_, uint256 governancePrice_) private {
        if (sstbPrice_ == 0 || sstbPrice_ > MAX_PRICE) revert ParameterOutOfBounds(PARAM_SSTB_PRICE, sstbPrice_);
        if (governancePrice_ == 0 || governancePrice_ > MAX_PRICE) {
            revert ParameterOutOfBounds(PARAM_GOVERNANCE_PRICE, governancePrice_);
        }
        emit ParameterUpdated(PARAM_SSTB_PRICE, $.sstbPrice, sstbPrice_);
        emit ParameterUpdated(PARAM_GOVERNANCE_PRICE, $.governancePrice, governancePrice_);
        $.sstbPrice = uint64(sstbPrice_);
        $.governancePrice = uint64(governancePrice_);
    }

    function _setTreasury(BridgeStorage storage $, address treasury_) private {
        if (treasury_ == address(0)) revert ZeroAddress();
        emit TreasuryUpdated($.treasury, treasury_);
        $.treasury = treasury_;
    }
}
