// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IAny2EVMMessageReceiver} from "@chainlink/contracts-ccip/contracts/interfaces/IAny2EVMMessageReceiver.sol";
import {IRouterClient} from "@chainlink/contracts-ccip/contracts/interfaces/IRouterClient.sol";
import {Client} from "@chainlink/contracts-ccip/contracts/libraries/Client.sol";
import {ERC165Checker} from "@openzeppelin/contracts/utils/introspection/ERC165Checker.sol";

/// @title DevnetCCIPRouter
/// @notice DEVNET AND TESTS ONLY. A stand-in for a chain's Chainlink CCIP router on local chains,
/// where no CCIP network runs: it takes data-only messages like the real router (`getFee`,
/// `ccipSend` with native fee, the gas limit from the extra args) and lets one relayer account play
/// CCIP's executing network on the destination (`execute`). Real chains use Chainlink's router;
/// nothing here is deployed there.
/// @dev Written for this project against the MIT client interfaces only (no BUSL router or ramp
/// code). Like CCIP: message ids are unique per (source, destination, sequence number); each
/// message is executed once; a receiver that reverts leaves the message `Failure`, and it can be
/// executed again (optionally with more gas), as CCIP's manual execution allows; receivers that do
/// not declare `IAny2EVMMessageReceiver` through ERC-165 (the full check) are not called. Unlike
/// CCIP, nothing proves
/// a message was sent on the source: the relayer is trusted, as CCIP's network is.
contract DevnetCCIPRouter is IRouterClient {
    /// @notice Execution state of an inbound message, as CCIP's off-ramp names them.
    enum ExecutionState {
        Untouched,
        InProgress,
        Success,
        Failure
    }

    /// @dev Gas kept back around the receiver's call so that the call gets its whole gas limit
    /// (EIP-150 leaves 1/64 behind) and the state can still be recorded afterwards.
    uint256 private constant GAS_RESERVE = 30_000;
    /// @dev The gas limit CCIP applies when a message's extra args are empty.
    uint256 private constant DEFAULT_GAS_LIMIT = 200_000;

    /// @notice This chain's CCIP chain selector.
    uint64 public immutable localChainSelector;
    /// @notice The account that executes inbound messages (the devnet relayer).
    address public immutable relayer;
    /// @notice The flat transport fee per message, in native gas.
    uint256 public immutable flatFee;

    /// @dev Per remote chain, in one slot: whether it is served and the last sequence number sent there.
    struct Lane {
        bool supported;
        uint64 outboundSequence;
    }

    mapping(uint64 chainSelector => Lane) private _lanes;
    /// @dev Two bits of {ExecutionState} per inbound message, 128 messages per word.
    mapping(uint64 source => mapping(uint256 word => uint256 bits)) private _executionStates;

    /// @notice A message was accepted for `destinationChainSelector`; the relayer executes it there.
    event CCIPSendRequested(
        uint64 indexed destinationChainSelector,
        uint64 indexed sequenceNumber,
        bytes32 indexed messageId,
        address sender,
        address receiver,
        bytes data,
        uint256 gasLimit,
        uint256 fee
    );
    /// @notice An inbound message was executed (`Success`) or its receiver reverted (`Failure`).
    event ExecutionStateChanged(
        uint64 indexed sourceChainSelector,
        uint64 indexed sequenceNumber,
        bytes32 indexed messageId,
        ExecutionState state,
        bytes returnData
    );

    /// @notice Only the relayer executes messages.
    error OnlyRelayer(address caller);
    /// @notice This message was executed successfully already.
    error AlreadyExecuted(bytes32 messageId);
    /// @notice Only a failed message may be executed with another gas limit, at least the original.
    error InvalidGasLimitOverride(uint256 gasLimitOverride);
    /// @notice The transaction's gas cannot give the receiver its gas limit.
    error InsufficientGasForExecution(uint256 available, uint256 required);
    /// @notice Only data-only messages paid in native gas are supported.
    error UnsupportedMessage();
    /// @notice Unknown extra-args tag.
    error InvalidExtraArgsTag(bytes4 tag);

    /// @notice Deploys the router of one local chain.
    /// @param localChainSelector_ This chain's selector (the production selector of the chain id it plays).
    /// @param relayer_ The relayer account.
    /// @param flatFee_ Native fee per message.
    /// @param remoteChainSelectors Chains this router sends to and receives from.
    constructor(uint64 localChainSelector_, address relayer_, uint256 flatFee_, uint64[] memory remoteChainSelectors) {
        localChainSelector = localChainSelector_;
        relayer = relayer_;
        flatFee = flatFee_;
        for (uint256 i = 0; i < remoteChainSelectors.length; ++i) _lanes[remoteChainSelectors[i]].supported = true;
    }

    /// @inheritdoc IRouterClient
    function isChainSupported(uint64 destChainSelector) external view returns (bool) {
        return _lanes[destChainSelector].supported;
    }

    /// @inheritdoc IRouterClient
    function getFee(
        uint64 destinationChainSelector,
        Client.EVM2AnyMessage calldata message
    ) external view returns (uint256) {
        if (!_lanes[destinationChainSelector].supported) revert UnsupportedDestinationChain(destinationChainSelector);
        _checkMessage(message.tokenAmounts.length, message.feeToken);
        return flatFee;
    }

    /// @inheritdoc IRouterClient
    function ccipSend(
        uint64 destinationChainSelector,
        Client.EVM2AnyMessage calldata message
    ) external payable returns (bytes32 messageId) {
        Lane storage lane = _lanes[destinationChainSelector];
        if (!lane.supported) revert UnsupportedDestinationChain(destinationChainSelector);
        _checkMessage(message.tokenAmounts.length, message.feeToken);
        if (msg.value < flatFee) revert InsufficientFeeTokenAmount();
        address receiver = abi.decode(message.receiver, (address));
        uint256 gasLimit = _gasLimitOf(message.extraArgs);
        uint64 sequenceNumber = ++lane.outboundSequence;
        messageId = messageIdOf(
            localChainSelector,
            destinationChainSelector,
            sequenceNumber,
            msg.sender,
            receiver,
            message.data,
            gasLimit
        );
        emit CCIPSendRequested(
            destinationChainSelector,
            sequenceNumber,
            messageId,
            msg.sender,
            receiver,
            message.data,
            gasLimit,
            msg.value
        );
    }

    /// @notice Executes an inbound message (relayer only): calls the receiver's `ccipReceive` with the
    /// message's gas limit, or, when retrying a failed message, with `gasLimitOverride` if above zero.
    /// Records and returns `Success` or `Failure`; a receiver's revert does not revert this call.
    function execute(
        uint64 sourceChainSelector,
        uint64 sequenceNumber,
        address sender,
        address receiver,
        bytes calldata data,
        uint256 gasLimit,
        uint256 gasLimitOverride
    ) external returns (ExecutionState state) {
        if (msg.sender != relayer) revert OnlyRelayer(msg.sender);
        bytes32 messageId = messageIdOf(
            sourceChainSelector,
            localChainSelector,
            sequenceNumber,
            sender,
            receiver,
            data,
            gasLimit
        );
        ExecutionState previous = executionState(sourceChainSelector, sequenceNumber);
        if (previous == ExecutionState.Success) revert AlreadyExecuted(messageId);
        if (gasLimitOverride != 0) {
            if (previous != ExecutionState.Failure || gasLimitOverride < gasLimit) {
                revert InvalidGasLimitOverride(gasLimitOverride);
            }
            gasLimit = gasLimitOverride;
        }
        uint256 required = gasLimit + gasLimit / 63 + GAS_RESERVE;
        if (gasleft() < required) revert InsufficientGasForExecution(gasleft(), required);

        bytes memory returnData;
        state = ExecutionState.Success;
        if (
            receiver.code.length != 0 &&
            ERC165Checker.supportsInterface(receiver, type(IAny2EVMMessageReceiver).interfaceId)
        ) {
            Client.Any2EVMMessage memory message = Client.Any2EVMMessage({
                messageId: messageId,
                sourceChainSelector: sourceChainSelector,
                sender: abi.encode(sender),
                data: data,
                destTokenAmounts: new Client.EVMTokenAmount[](0)
            });
            try IAny2EVMMessageReceiver(receiver).ccipReceive{gas: gasLimit}(message) {} catch (bytes memory err) {
                state = ExecutionState.Failure;
                returnData = err;
            }
        }
        _setExecutionState(sourceChainSelector, sequenceNumber, state);
        emit ExecutionStateChanged(sourceChainSelector, sequenceNumber, messageId, state, returnData);
    }

    /// @notice The execution state of an inbound message.
    function executionState(uint64 sourceChainSelector, uint64 sequenceNumber) public view returns (ExecutionState) {
        uint256 bits = _executionStates[sourceChainSelector][sequenceNumber / 128];
        return ExecutionState((bits >> ((sequenceNumber % 128) * 2)) & 3);
    }

    /// @notice The last sequence number sent to `destinationChainSelector`.
    function outboundSequence(uint64 destinationChainSelector) external view returns (uint64) {
        return _lanes[destinationChainSelector].outboundSequence;
    }

    /// @notice The id of a message: unique per source, destination and sequence number, and bound to
    /// its sender, receiver, data and gas limit.
    function messageIdOf(
        uint64 sourceChainSelector,
        uint64 destinationChainSelector,
        uint64 sequenceNumber,
        address sender,
        address receiver,
        bytes calldata data,
        uint256 gasLimit
    ) public pure returns (bytes32) {
        return
            keccak256(
                abi.encode(
                    sourceChainSelector,
                    destinationChainSelector,
                    sequenceNumber,
                    sender,
                    receiver,
                    keccak256(data),
                    gasLimit
                )
            );
    }

    function _checkMessage(uint256 tokenAmounts, address feeToken) private pure {
        if (tokenAmounts != 0 || feeToken != address(0)) revert UnsupportedMessage();
    }

    function _setExecutionState(uint64 source, uint64 sequenceNumber, ExecutionState state) private {
        uint256 shift = (sequenceNumber % 128) * 2;
        mapping(uint256 => uint256) storage words = _executionStates[source];
        uint256 word = sequenceNumber / 128;
        words[word] = (words[word] & ~(uint256(3) << shift)) | (uint256(state) << shift);
    }

    function _gasLimitOf(bytes calldata extraArgs) private pure returns (uint256) {
        if (extraArgs.length == 0) return DEFAULT_GAS_LIMIT;
        bytes4 tag = bytes4(extraArgs[:4]);
        if (tag == Client.GENERIC_EXTRA_ARGS_V2_TAG) {
            return abi.decode(extraArgs[4:], (Client.GenericExtraArgsV2)).gasLimit;
        }
        if (tag == Client.EVM_EXTRA_ARGS_V1_TAG) return abi.decode(extraArgs[4:], (Client.EVMExtraArgsV1)).gasLimit;
        revert InvalidExtraArgsTag(tag);
    }
}
