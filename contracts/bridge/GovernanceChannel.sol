// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IAny2EVMMessageReceiver} from "@chainlink/contracts-ccip/contracts/interfaces/IAny2EVMMessageReceiver.sol";
import {IRouterClient} from "@chainlink/contracts-ccip/contracts/interfaces/IRouterClient.sol";
import {Client} from "@chainlink/contracts-ccip/contracts/libraries/Client.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";

import {IGovernanceChannel} from "../interfaces/IGovernanceChannel.sol";
import {ISatelliteExecutor} from "../interfaces/ISatelliteExecutor.sol";
import {Roles} from "../libraries/Roles.sol";
import {ProtocolUpgradeable} from "../utils/ProtocolUpgradeable.sol";

/// @title GovernanceChannel
/// @notice Carries the arbitrum timelock's calls to the satellites' executors over Chainlink CCIP,
/// so a proposal passed on arbitrum is the only way to change anything on ethereum or polygon. On
/// arbitrum the timelock sends; on a satellite the channel runs what arrives from its arbitrum peer
/// through the satellite executor, only in the order the timelock numbered the messages and before
/// their deadline, and records every message as run or failed, never to run again.
/// @dev Split out of the bridge (issue 23): a separate message kind with its own state (sequence
/// numbers, executor, peers) and none of the bridge's (tokens, fees, rate limits, pause). The
/// order is the application's (sequence numbers), not CCIP's: CCIP's ordered execution is per
/// sending contract, so one stuck message would hold up every one behind it. Not pausable:
/// governance must reach a satellite to unpause its bridge.
contract GovernanceChannel is
    ProtocolUpgradeable,
    ReentrancyGuardTransient,
    IGovernanceChannel,
    IAny2EVMMessageReceiver
{
    /// @notice Least destination gas a governance message may give its delivery.
    uint256 public constant MIN_GAS_LIMIT = 50_000;
    /// @notice Most destination gas a governance message may give its delivery.
    uint256 public constant MAX_GAS_LIMIT = 3_000_000;
    /// @notice How long after the timelock sent it a governance message may still run on its
    /// destination: CCIP's 8-hour automatic execution window, then time for anyone to notice a failed
    /// delivery and execute it manually, a weekend included.
    uint256 public constant GOVERNANCE_MESSAGE_TTL = 3 days;

    bytes32 internal constant PARAM_GAS_LIMIT = "gasLimit";
    bytes32 internal constant PARAM_CHAIN = "chainSelector";

    /// @dev Gas kept back from a governance message's calls so that their failure can be recorded.
    uint256 private constant GAS_RESERVE = 20_000;

    /// @custom:storage-location erc7201:computeprotocol.storage.GovernanceChannel
    struct GovernanceChannelStorage {
        // satellites: the executor that runs the calls (zero on the primary chain)
        address executor;
        // the channel on each other chain: where messages go (primary), where they may come from
        // (satellites)
        mapping(uint64 chainSelector => address) peers;
        // primary: the last sequence number sent to each chain
        mapping(uint64 chainSelector => uint64) lastSent;
        // satellites: the last sequence number run per source chain and sending channel
        mapping(uint64 chainSelector => mapping(address sender => uint64)) lastExecuted;
        mapping(bytes32 messageId => MessageStatus) messages;
    }

    // keccak256(abi.encode(uint256(keccak256("computeprotocol.storage.GovernanceChannel")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 private constant STORAGE_LOCATION = 0x2d73b676348ef804146f7379a83ca49c2d7ae736b17dde9f6d2afa552847c300;

    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    IRouterClient private immutable _router;
    /// @custom:oz-upgrades-unsafe-allow state-variable-immutable
    uint64 private immutable _localChainSelector;

    /// @notice Deploys an implementation for one chain.
    /// @param router_ The chain's CCIP router.
    /// @param localChainSelector_ This chain's CCIP chain selector.
    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor(IRouterClient router_, uint64 localChainSelector_) {
        if (address(router_) == address(0)) revert ZeroAddress();
        if (localChainSelector_ == 0) revert ParameterOutOfBounds(PARAM_CHAIN, 0);
        _router = router_;
        _localChainSelector = localChainSelector_;
    }

    /// @notice Initializes the proxy; the deployment sets the peers and, on a satellite, the executor.
    /// @param admin Receives the admin, governance and upgrader roles (handed to the timelock on
    /// arbitrum, to the satellite executor elsewhere).
    function initialize(address admin) external initializer {
        __ProtocolUpgradeable_init(admin);
    }

    /// @inheritdoc IGovernanceChannel
    function sendGovernanceMessage(
        uint64 destinationChain,
        Call[] calldata calls,
        uint32 gasLimit
    ) external payable onlyRole(Roles.GOVERNANCE_ROLE) nonReentrant returns (bytes32 messageId) {
        if (gasLimit < MIN_GAS_LIMIT || gasLimit > MAX_GAS_LIMIT)
            revert ParameterOutOfBounds(PARAM_GAS_LIMIT, gasLimit);
        uint64 sequence;
        uint256 deadline;
        (messageId, sequence, deadline) = _dispatch(destinationChain, calls, gasLimit);
        emit GovernanceMessageSent(messageId, destinationChain, sequence, deadline, keccak256(abi.encode(calls)));
    }

    /// @inheritdoc IAny2EVMMessageReceiver
    /// @dev Router and peer checked first; a message id is processed once. The message runs only
    /// if it is later than the last one run from its sender and its deadline has not passed; it is
    /// recorded as run before the executor's call, and as failed if the executor reverts, with
    /// {GAS_RESERVE} kept back so that a call running out of gas is recorded too. Only a delivery
    /// without that much gas reverts (nothing recorded: CCIP may execute it again, and the same
    /// checks then apply).
    function ccipReceive(Client.Any2EVMMessage calldata message) external {
        if (msg.sender != address(_router)) revert GovernanceChannelInvalidRouter(msg.sender);
        GovernanceChannelStorage storage $ = _storage();
        uint64 source = message.sourceChainSelector;
        address sender = abi.decode(message.sender, (address));
        address peer = $.peers[source];
        if (peer == address(0) || sender != peer) revert GovernanceChannelUnknownPeer(source, sender);
        bytes32 messageId = message.messageId;
        if ($.messages[messageId] != MessageStatus.None) revert GovernanceChannelMessageAlreadyProcessed(messageId);
        address executor_ = $.executor;
        if (executor_ == address(0)) revert GovernanceChannelNoExecutor(source);

        (address origin, uint64 sequence, uint256 deadline, Call[] memory calls) = abi.decode(
            message.data,
            (address, uint64, uint256, Call[])
        );
        mapping(address => uint64) storage executed = $.lastExecuted[source];
        GovernanceFailure failure;
        bytes memory returnData;
        // solhint-disable-next-line gas-strict-inequalities
        if (sequence <= executed[sender]) {
            failure = GovernanceFailure.Stale;
        } else if (block.timestamp > deadline) {
            failure = GovernanceFailure.Expired;
        } else {
            executed[sender] = sequence;
            $.messages[messageId] = MessageStatus.Executed;
            uint256 gas = gasleft();
            // solhint-disable-next-line gas-strict-inequalities
            if (gas <= GAS_RESERVE) revert GovernanceChannelInsufficientGas(gas, GAS_RESERVE);
            try ISatelliteExecutor(executor_).executeFromPrimary{gas: gas - GAS_RESERVE}(source, origin, calls) {
                emit GovernanceMessageExecuted(messageId, source, origin);
                return;
            } catch (bytes memory reason) {
                (failure, returnData) = (GovernanceFailure.Reverted, reason);
            }
        }
        $.messages[messageId] = MessageStatus.Failed;
        emit GovernanceMessageFailed(messageId, source, sequence, failure, returnData);
    }

    /// @inheritdoc IGovernanceChannel
    function setPeers(PeerConfig[] calldata peers) external onlyRole(Roles.GOVERNANCE_ROLE) {
        mapping(uint64 => address) storage stored = _storage().peers;
        for (uint256 i = 0; i < peers.length; ++i) {
            (uint64 chain, address peer) = (peers[i].chainSelector, peers[i].peer);
            if (chain == 0 || chain == _localChainSelector) revert ParameterOutOfBounds(PARAM_CHAIN, chain);
            stored[chain] = peer;
            emit PeerUpdated(chain, peer);
        }
    }

    /// @inheritdoc IGovernanceChannel
    function setExecutor(address executor_) external onlyRole(Roles.GOVERNANCE_ROLE) {
        GovernanceChannelStorage storage $ = _storage();
        emit ExecutorUpdated($.executor, executor_);
        $.executor = executor_;
    }

    /// @inheritdoc IGovernanceChannel
    function quoteTransportFee(
        uint64 destinationChain,
        Call[] calldata calls,
        uint32 gasLimit
    ) external view returns (uint256) {
        address peer = _storage().peers[destinationChain];
        if (peer == address(0)) revert GovernanceChannelUnsupportedChain(destinationChain);
        // the payload as the timelock's message would carry it (the sequence and deadline take the
        // same room whatever their values)
        bytes memory data = abi.encode(msg.sender, uint64(0), uint256(0), calls);
        return _router.getFee(destinationChain, _message(peer, gasLimit, data));
    }

    /// @inheritdoc IGovernanceChannel
    function peerOf(uint64 chainSelector) external view returns (address) {
        return _storage().peers[chainSelector];
    }

    /// @inheritdoc IGovernanceChannel
    function executor() external view returns (address) {
        return _storage().executor;
    }

    /// @inheritdoc IGovernanceChannel
    function governanceSequences(
        uint64 chainSelector,
        address sender
    ) external view returns (uint64 lastSent, uint64 lastExecuted) {
        GovernanceChannelStorage storage $ = _storage();
        return ($.lastSent[chainSelector], $.lastExecuted[chainSelector][sender]);
    }

    /// @inheritdoc IGovernanceChannel
    function messageStatus(bytes32 messageId) external view returns (MessageStatus) {
        return _storage().messages[messageId];
    }

    /// @notice This chain's CCIP router (the only caller {ccipReceive} accepts).
    function getRouter() external view returns (address) {
        return address(_router);
    }

    /// @notice This chain's CCIP chain selector.
    function localChainSelector() external view returns (uint64) {
        return _localChainSelector;
    }

    /// @notice ERC-165: CCIP routers deliver only to receivers that declare {IAny2EVMMessageReceiver}.
    function supportsInterface(bytes4 interfaceId) public view override returns (bool) {
        return interfaceId == type(IAny2EVMMessageReceiver).interfaceId || super.supportsInterface(interfaceId);
    }

    function _storage() private pure returns (GovernanceChannelStorage storage $) {
        assembly {
            $.slot := STORAGE_LOCATION
        }
    }

    /// @dev Numbers the caller's message to `destinationChain`, gives it its deadline, hands it to the
    /// router with the whole `msg.value` (CCIP refuses less than its fee and keeps more: the sender
    /// passes the quoted fee) and records it as sent.
    function _dispatch(
        uint64 destinationChain,
        Call[] calldata calls,
        uint32 gasLimit
    ) private returns (bytes32 messageId, uint64 sequence, uint256 deadline) {
        GovernanceChannelStorage storage $ = _storage();
        address peer = $.peers[destinationChain];
        if (peer == address(0)) revert GovernanceChannelUnsupportedChain(destinationChain);
        sequence = ++$.lastSent[destinationChain];
        deadline = block.timestamp + GOVERNANCE_MESSAGE_TTL;
        bytes memory data = abi.encode(msg.sender, sequence, deadline, calls);
        messageId = _router.ccipSend{value: msg.value}(destinationChain, _message(peer, gasLimit, data));
        $.messages[messageId] = MessageStatus.Sent;
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
}
