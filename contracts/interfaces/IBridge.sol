// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TokenBucket} from "../libraries/TokenBucket.sol";

/// @title IBridge
/// @notice Moves sSTB and the governance token between the protocol's three chains over Chainlink
/// CCIP (the arbitrum timelock's calls to the satellites travel on a channel of their own,
/// {IGovernanceChannel}, since issue 23). A transfer burns
/// (sSTB everywhere, the bridged governance token on satellites) or escrows (the governance token on
/// arbitrum) on the source and mints or releases on the destination, once per CCIP message id.
/// @dev One contract per chain, peers of each other. Messages are data-only CCIP messages; tokens
/// never travel through CCIP token pools, so the protocol's fee options, rate limits and statuses
/// apply to every transfer.
interface IBridge {
    /// @notice The two tokens the bridge moves, as named in messages (their addresses differ per chain).
    enum Token {
        SSTB,
        Governance
    }

    /// @notice How the protocol fee of a transfer is paid (SPEC.md "Bridge fee quote"): `Default` in
    /// the chain's stablecoin, `Service` in sSTB with a discount, `StbGov` in the governance token
    /// with a discount. The CCIP transport fee is paid in native gas on top, whatever the option.
    enum FeeOption {
        Default,
        Service,
        StbGov
    }

    /// @notice Where a message is. On the source chain: `Sent`. On the destination: `Queued` while a
    /// delivery waits (the bridge was paused, earlier deliveries from the same chain and of the same
    /// token were waiting, or the inbound rate limit was reached when it arrived; anyone executes it
    /// later with {executeQueued}), then `Completed`. `Failed`: a queued transfer refused because
    /// governance forgot the peer that sent it while it waited (issue 23; {MessageRefused}): nothing
    /// of what remained was minted or released, and it never will be. (Before issue 23 the bridge
    /// also carried governance messages, and `Failed` named one consumed without effect.)
    enum MessageStatus {
        None,
        Sent,
        Queued,
        Completed,
        Failed
    }

    /// @notice A message as this chain records it, in one slot.
    /// @param status See {MessageStatus}.
    /// @param createdAt Source: block time of the send. Destination: block time of the arrival.
    /// @param completedAt Destination: block time the tokens were minted or released (0 before).
    /// @param remoteChainSelector The other chain: the destination on the source, the source on the
    /// destination.
    struct Message {
        MessageStatus status;
        uint40 createdAt;
        uint40 completedAt;
        uint64 remoteChainSelector;
    }

    /// @notice A route to a remote chain: its bridge, the gas its deliveries get there, and the rate
    /// limits per token (indexed by {Token}) in each direction.
    struct RouteConfig {
        uint64 chainSelector;
        address peer;
        uint32 gasLimit;
        TokenBucket.Config[2] outbound;
        TokenBucket.Config[2] inbound;
    }

    /// @notice The fees of a transfer (SPEC.md "Bridge fee quote"), in base units of each token.
    /// @param stablecoin Token of the `Default` option.
    /// @param defaultFee Protocol fee in the stablecoin.
    /// @param serviceFee Protocol fee in sSTB, discounted by `serviceDiscountBps`.
    /// @param governanceFee Protocol fee in the governance token, discounted by `governanceDiscountBps`.
    /// @param transportFee CCIP's fee in native gas, sent as `msg.value` with any option.
    struct FeeQuote {
        address stablecoin;
        uint256 defaultFee;
        uint256 serviceFee;
        uint256 serviceDiscountBps;
        uint256 governanceFee;
        uint256 governanceDiscountBps;
        uint256 transportFee;
    }

    // --- events ---

    /// @notice A transfer left this chain: `amount` of `token` burned or escrowed from `sender`, to be
    /// minted or released to `recipient` on the destination (webhook `bridge.message_sent`).
    event MessageSent(
        bytes32 indexed messageId,
        uint64 indexed destinationChainSelector,
        address indexed sender,
        address recipient,
        address token,
        uint256 amount,
        FeeOption feeOption,
        uint256 fee,
        uint256 transportFee
    );
    /// @notice A transfer arrived from `sourceChainSelector` (webhook `bridge.message_received`; the
    /// send time and transaction are on the source chain's {MessageSent} with the same id). `completed`: the tokens were minted or released to `recipient` in
    /// the same transaction; otherwise {MessageQueued} says why the delivery waits and
    /// {MessageCompleted} follows when {executeQueued} delivers it.
    event MessageReceived(
        bytes32 indexed messageId,
        uint64 indexed sourceChainSelector,
        address indexed recipient,
        address sender,
        address token,
        uint256 amount,
        bool completed
    );
    /// @notice The delivery of a message waits: the bridge is paused (`paused`) or the inbound rate
    /// limit is reached. {executeQueued} delivers it later.
    event MessageQueued(bytes32 indexed messageId, bool paused);
    /// @notice A queued message was delivered: its tokens (the last installment of them, if it was
    /// delivered in parts) were minted or released to its recipient.
    event MessageCompleted(bytes32 indexed messageId);
    /// @notice Part of a queued message larger than its inbound bucket's capacity was delivered:
    /// `amount` minted or released to its recipient, `remaining` still queued at the head.
    event MessagePartlyDelivered(bytes32 indexed messageId, uint256 amount, uint256 remaining);
    /// @notice A queued transfer was refused: governance forgot `peer`, the former peer that sent it,
    /// while it waited. `amount` (what it still had to deliver) is neither minted nor released, and
    /// the message no longer holds up its queue.
    event MessageRefused(bytes32 indexed messageId, uint64 indexed sourceChainSelector, address peer, uint256 amount);
    /// @notice A route was set (a zero peer closes it to sends).
    event RouteUpdated(uint64 indexed chainSelector, address peer, uint32 gasLimit);
    /// @notice A route's previous peer is still trusted for transfers it sent before the route changed
    /// (`accepted`), or governance stopped trusting it: forgot it, for good.
    event FormerPeerUpdated(uint64 indexed chainSelector, address indexed peer, bool accepted);
    /// @notice A rate limit was set.
    event RateLimitUpdated(uint64 indexed chainSelector, Token token, bool outbound, TokenBucket.Config config);
    /// @notice A governed number changed.
    event ParameterUpdated(bytes32 indexed parameter, uint256 previous, uint256 current);
    /// @notice The fee recipient changed.
    event TreasuryUpdated(address previous, address current);
    // --- errors ---

    /// @notice `ccipReceive` was called by something other than this chain's CCIP router.
    error BridgeInvalidRouter(address caller);
    /// @notice A message came from a chain without a route or from an address other than its peer.
    error BridgeUnknownPeer(uint64 chainSelector, address sender);
    /// @notice No route to this chain.
    error BridgeUnsupportedChain(uint64 chainSelector);
    /// @notice The bridge does not move this token.
    error BridgeUnsupportedToken(address token);
    /// @notice A message id was already processed here.
    error BridgeMessageAlreadyProcessed(bytes32 messageId);
    /// @notice The message is not waiting for delivery.
    error BridgeMessageNotQueued(bytes32 messageId);
    /// @notice Queued deliveries go first in, first out: `head` waits before this message.
    error BridgeNotQueueHead(bytes32 messageId, bytes32 head);
    /// @notice Amounts must be above zero and below 2^96 (79 billion tokens).
    error BridgeInvalidAmount(uint256 amount);
    /// @notice A message's payload has an unknown kind (governance messages travel on the
    /// governance channel since issue 23).
    error BridgeUnknownMessageKind(uint256 kind);
    /// @notice Governance forgot this peer of the route: it can never be a peer again.
    error BridgePeerForgotten(uint64 chainSelector, address peer);
    /// @notice A governed value outside its bounds.
    error ParameterOutOfBounds(bytes32 parameter, uint256 value);

    // --- operations ---

    /// @notice Sends `amount` of `token` to `recipient` on `destinationChain` (a CCIP chain selector),
    /// paying the protocol fee with `feeOption` and the CCIP transport fee as `msg.value`: the whole
    /// value goes to CCIP, which refuses less than its fee and keeps more (send the quoted fee). Burns the tokens (escrows the governance token on the primary chain); the bridge
    /// must be approved for `amount`, and for the fee in its token.
    /// @return messageId The CCIP message id, the key of the transfer's status on both chains.
    function send(
        uint64 destinationChain,
        address recipient,
        address token,
        uint256 amount,
        FeeOption feeOption
    ) external payable returns (bytes32 messageId);

    /// @notice Delivers a queued message once the bridge is unpaused, it is the first waiting from
    /// its chain in its token (first in, first out), and the inbound bucket holds its amount. A
    /// message larger than the bucket's capacity is delivered in installments of the capacity, one per
    /// call, each once the bucket is full again. Anyone may call it. A message whose sending peer
    /// governance forgot while it waited is refused instead ({MessageRefused}): it delivers nothing,
    /// takes nothing from the bucket, and leaves its queue to the next one.
    function executeQueued(bytes32 messageId) external;

    /// @notice The fees of sending `amount` of `token` to `destinationChain`, every option.
    function quoteFee(
        uint64 destinationChain,
        address token,
        uint256 amount
    ) external view returns (FeeQuote memory quote);

    /// @notice The record of a message id on this chain.
    function messageOf(bytes32 messageId) external view returns (Message memory);
}
