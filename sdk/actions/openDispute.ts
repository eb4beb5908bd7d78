import { isHexString } from "ethers";
import type { TransactionReceipt } from "ethers";

import { redemptionManagerAbi } from "../abis/redemptionManager.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import { InvalidParameterError } from "../errors.js";
import type { BaseError, ContractRevertedError } from "../errors.js";

export interface OpenDisputeParameters {
  redemptionId: bigint;
  /** `IssueType` (`IssueType.NotDelivered` ... `IssueType.Other`). */
  issueType: bigint;
  /** keccak256 of the evidence document (32 bytes, hex), kept off-chain. */
  evidenceHash: string;
}

export type OpenDisputeErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds the user's `openDispute(id, issueType, evidenceHash)` (within 72 h of the request or of
 * the fulfilment).
 *
 * @example
 * const transaction = prepareOpenDispute(client, { redemptionId, issueType: IssueType.AccessFailure, evidenceHash });
 */
export function prepareOpenDispute(
  client: ProtocolClient,
  { redemptionId, issueType, evidenceHash }: OpenDisputeParameters,
): PreparedTransaction {
  if (!isHexString(evidenceHash, 32)) throw new InvalidParameterError("evidenceHash", "must be 32 bytes of hex");
  const data = encodeFunctionCall(redemptionManagerAbi, "openDispute", [redemptionId, issueType, evidenceHash]);
  return { to: addressOf(client, "RedemptionManager"), data, value: 0n };
}

/** Opens a dispute and returns the hash. */
export async function openDispute(client: ProtocolClient, parameters: OpenDisputeParameters): Promise<string> {
  return sendPrepared(client, prepareOpenDispute(client, parameters), "openDispute");
}

/** Opens a dispute and waits for the receipt. */
export async function openDisputeSync(
  client: ProtocolClient,
  parameters: OpenDisputeParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await openDispute(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "openDispute") };
}
