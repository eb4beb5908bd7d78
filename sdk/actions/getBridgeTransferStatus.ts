import { isHexString } from "ethers";

import { bridgeAbi } from "../abis/bridge.js";
import { MESSAGE_STATUSES } from "../bridge.js";
import { addressOf } from "../client.js";
import type { ProtocolClient } from "../client.js";
import { readContract } from "../contract-calls.js";
import { InvalidParameterError } from "../errors.js";
import type { BaseError, ContractRevertedError } from "../errors.js";

export interface GetBridgeMessageParameters {
  /** The CCIP message id (32 bytes of hex). */
  messageId: string;
}

/** A message as one chain's bridge records it (`messageOf`). */
export interface BridgeMessage {
  /** `none` (this chain never saw it), `sent` (source), `queued`, `completed`, `failed` (destination). */
  status: (typeof MESSAGE_STATUSES)[number];
  /** Source: when it was sent; destination: when it arrived (Unix seconds; 0 for `none`). */
  createdAt: bigint;
  /** Destination: when its tokens were delivered (0 before). */
  completedAt: bigint;
  /** The other chain's CCIP selector. */
  remoteChainSelector: bigint;
}

export type GetBridgeMessageErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Reads a message on the client's chain (`messageOf`).
 *
 * @example
 * const { status, completedAt } = await getBridgeMessage(destinationClient, { messageId });
 */
export async function getBridgeMessage(
  client: ProtocolClient,
  { messageId }: GetBridgeMessageParameters,
): Promise<BridgeMessage> {
  if (!isHexString(messageId, 32)) throw new InvalidParameterError("messageId", "must be 32 bytes of hex");
  const message = await readContract(client, {
    abi: bridgeAbi,
    address: addressOf(client, "Bridge"),
    functionName: "messageOf",
    args: [messageId],
  });
  return {
    status: MESSAGE_STATUSES[Number(message.status)] ?? "none",
    createdAt: message.createdAt,
    completedAt: message.completedAt,
    remoteChainSelector: message.remoteChainSelector,
  };
}

export interface GetBridgeTransferStatusParameters extends GetBridgeMessageParameters {
  /** A client of the destination chain (the source is the client the action is called with). */
  destination: ProtocolClient;
}

/** Where a transfer is, as the API's `GET /bridge/status/{message_id}` names it. */
export type BridgeTransferStatus = "unknown" | "pending" | "queued" | "completed" | "failed";

export interface GetBridgeTransferStatusReturnType {
  /**
   * `unknown`: the source chain never sent it; `pending`: sent, not arrived yet; `queued`: arrived,
   * its delivery waits (a pause, a rate limit, earlier deliveries: `executeQueuedMessage` delivers
   * it once possible); `completed`: delivered; `failed`: a governance message consumed without effect.
   */
  status: BridgeTransferStatus;
  source: BridgeMessage;
  destination: BridgeMessage;
}

/**
 * A transfer's status from source to destination: the message on both chains' bridges.
 *
 * @example
 * const { status } = await getBridgeTransferStatus(arbitrum, { messageId, destination: ethereum });
 */
export async function getBridgeTransferStatus(
  client: ProtocolClient,
  { messageId, destination }: GetBridgeTransferStatusParameters,
): Promise<GetBridgeTransferStatusReturnType> {
  const [source, arrived] = await Promise.all([
    getBridgeMessage(client, { messageId }),
    getBridgeMessage(destination, { messageId }),
  ]);
  const status: BridgeTransferStatus =
    arrived.status === "queued" || arrived.status === "completed" || arrived.status === "failed"
      ? arrived.status
      : source.status === "sent"
        ? "pending"
        : "unknown";
  return { status, source, destination: arrived };
}
