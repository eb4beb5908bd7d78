import { isHexString } from "ethers";
import type { TransactionReceipt } from "ethers";

import { bridgeAbi } from "../abis/bridge.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import { InvalidParameterError } from "../errors.js";
import type { BaseError, ContractRevertedError } from "../errors.js";

export interface ExecuteQueuedMessageParameters {
  /** A message queued on the client's chain (the destination). */
  messageId: string;
}

export type ExecuteQueuedMessageErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds `executeQueued(messageId)`, which anyone may send: delivers a queued transfer once the
 * bridge is unpaused, it heads its queue and the inbound rate limit holds its amount (a message
 * larger than the bucket is delivered in installments, one per call).
 *
 * @example
 * const transaction = prepareExecuteQueuedMessage(destinationClient, { messageId });
 */
export function prepareExecuteQueuedMessage(
  client: ProtocolClient,
  { messageId }: ExecuteQueuedMessageParameters,
): PreparedTransaction {
  if (!isHexString(messageId, 32)) throw new InvalidParameterError("messageId", "must be 32 bytes of hex");
  const data = encodeFunctionCall(bridgeAbi, "executeQueued", [messageId]);
  return { to: addressOf(client, "Bridge"), data, value: 0n };
}

/**
 * Delivers a queued message and returns the transaction's hash; one that cannot go yet is refused
 * (`BridgeNotQueueHead`, `EnforcedPause`, a rate limit) before anything is sent.
 */
export async function executeQueuedMessage(
  client: ProtocolClient,
  parameters: ExecuteQueuedMessageParameters,
): Promise<string> {
  return sendPrepared(client, prepareExecuteQueuedMessage(client, parameters), "executeQueued");
}

/** Delivers a queued message and waits for the receipt. */
export async function executeQueuedMessageSync(
  client: ProtocolClient,
  parameters: ExecuteQueuedMessageParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await executeQueuedMessage(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "executeQueued") };
}
