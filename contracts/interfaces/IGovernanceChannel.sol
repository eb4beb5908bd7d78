// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title IGovernanceChannel
/// @notice Carries the arbitrum timelock's calls to the satellites' executors over Chainlink CCIP:
/// one data-only message per proposal's worth of calls, numbered per destination, executable there
/// only in order and before a deadline, and consumed whatever the calls do. A CCIP application of
/// its own beside the bridge (issue 23): its own peers, sequence numbers and executor, and no
/// tokens, fees, rate limits or pause (governance must reach a satellite to unpause it).
interface IGovernanceChannel {
    /// @notice Where a governance message is on this chain. On the primary chain: `Sent`. On a
    /// satellite: `Executed` (its calls ran) or `Failed` (consumed without effect: see
    /// {GovernanceFailure}; it never runs again).
    enum MessageStatus {
        None,
        Sent,
        Executed,
        Failed
    }

    /// @notice Why a governance message was consumed without effect: a message with the same or a
    /// later sequence number from the same sending channel ran before it (`Stale`), it arrived after
    /// its deadline (`Expired`), or the executor reverted (`Reverted`: a call failed, or the origin
    /// is not the primary chain's timelock).
    enum GovernanceFailure {
        Stale,
        Expired,
        Reverted
    }

    /// @notice The channel on another chain: where messages to that chain go, and the only sender
    /// accepted from it (zero: none).
    struct PeerConfig {
        uint64 chainSelector;
        address peer;
    }

    /// @notice A call the arbitrum timelock has a satellite's executor make.
    struct Call {
        address target;
        uint256 value;
        bytes data;
    }

    /// @notice The timelock sent calls to a satellite's executor, numbered `sequence` among the
    /// governance messages of this channel to that chain, to run there no later than `deadline`.
    event GovernanceMessageSent(
        bytes32 indexed messageId,
        uint64 indexed destinationChainSelector,
        uint64 sequence,
        uint256 deadline,
        bytes32 callsHash
    );
    /// @notice A governance message from the primary chain was executed by this chain's executor.
    event GovernanceMessageExecuted(bytes32 indexed messageId, uint64 indexed sourceChainSelector, address origin);
    /// @notice A governance message was consumed without effect (see {GovernanceFailure}); it is
    /// never executed again. `returnData` is the executor's revert data when `reason` is `Reverted`.
    event GovernanceMessageFailed(
        bytes32 indexed messageId,
        uint64 indexed sourceChainSelector,
        uint64 sequence,
        GovernanceFailure reason,
        bytes returnData
    );
    /// @notice The channel on another chain that this one sends to and accepts messages from was set
    /// (zero: none).
    event PeerUpdated(uint64 indexed chainSelector, address peer);
    /// @notice The executor that runs governance messages here changed (zero on the primary chain).
    event ExecutorUpdated(address previous, address current);

    /// @notice `ccipReceive` was called by something other than this chain's CCIP router.
    error GovernanceChannelInvalidRouter(address caller);
    /// @notice A message came from a chain without a peer here, or from an address other than its peer.
    error GovernanceChannelUnknownPeer(uint64 chainSelector, address sender);
    /// @notice No peer on this chain.
    error GovernanceChannelUnsupportedChain(uint64 chainSelector);
    /// @notice A message id was already processed here.
    error GovernanceChannelMessageAlreadyProcessed(bytes32 messageId);
    /// @notice A delivery's gas cannot cover its calls and still record their outcome.
    error GovernanceChannelInsufficientGas(uint256 available, uint256 required);
    /// @notice A governance message arrived where no executor is set (the primary chain).
    error GovernanceChannelNoExecutor(uint64 sourceChainSelector);
    /// @notice A governed value outside its bounds (a gas limit, a chain selector).
    error ParameterOutOfBounds(bytes32 parameter, uint256 value);

    /// @notice Sends `calls` to the executor on `destinationChain` (governance role: the timelock),
    /// numbered after the previous governance message to that chain and executable there for
    /// `GOVERNANCE_MESSAGE_TTL`: the destination runs it only if nothing later ran before it and
    /// its deadline has not passed, and consumes it whatever the outcome of its calls. `gasLimit`
    /// is what the delivery gets there; `msg.value` pays CCIP's transport fee, all of it to CCIP.
    function sendGovernanceMessage(
        uint64 destinationChain,
        Call[] calldata calls,
        uint32 gasLimit
    ) external payable returns (bytes32 messageId);

    /// @notice CCIP's transport fee of sending `calls` to `destinationChain` with `gasLimit`, in
    /// native gas.
    function quoteTransportFee(
        uint64 destinationChain,
        Call[] calldata calls,
        uint32 gasLimit
    ) external view returns (uint256);

    /// @notice Sets, for each chain listed, the channel there that this one sends to and accepts
    /// messages from (governance role; a zero peer closes the chain). The primary chain's channel
    /// lists the satellites; a satellite's lists the primary chain only.
    function setPeers(PeerConfig[] calldata peers) external;

    /// @notice Sets the executor that runs governance messages here (governance role; satellites).
    function setExecutor(address executor_) external;

    /// @notice The channel on `chainSelector` (zero: none).
    function peerOf(uint64 chainSelector) external view returns (address);

    /// @notice The executor that runs governance messages here (zero on the primary chain).
    function executor() external view returns (address);

    /// @notice Sequence numbers: the last one this channel sent to `chainSelector`, and the last one
    /// it ran from `sender` on `chainSelector`.
    function governanceSequences(
        uint64 chainSelector,
        address sender
    ) external view returns (uint64 lastSent, uint64 lastExecuted);

    /// @notice The status of a message id on this chain.
    function messageStatus(bytes32 messageId) external view returns (MessageStatus);
}
