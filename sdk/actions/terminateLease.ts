import type { TransactionReceipt } from "ethers";

import { redemptionManagerAbi } from "../abis/redemptionManager.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall } from "../contract-calls.js";
import type { BaseError, ContractRevertedError, InvalidParameterError } from "../errors.js";

export interface TerminateLeaseParameters {
  leaseId: bigint;
}

export type TerminateLeaseErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds the user's `terminateLease(leaseId)`: the lease ends now and the provider reclaims the
 * resources (told by `LeaseTerminated`, a webhook and an e-mail). The lease's redemptions keep their
 * state: the user may still confirm, or dispute within the window. There is no refund.
 *
 * @example
 * const transaction = prepareTerminateLease(client, { leaseId: 3n });
 */
export function prepareTerminateLease(
  client: ProtocolClient,
  { leaseId }: TerminateLeaseParameters,
): PreparedTransaction {
  const data = encodeFunctionCall(redemptionManagerAbi, "terminateLease", [leaseId]);
  return { to: addressOf(client, "RedemptionManager"), data, value: 0n };
}

/**
 * Terminates the lease and returns the hash; a refusal (not the lease's user, already terminated,
 * ended, not a lease) throws a `ContractRevertedError`.
 *
 * @example
 * const hash = await terminateLease(client, { leaseId });
 */
export async function terminateLease(client: ProtocolClient, parameters: TerminateLeaseParameters): Promise<string> {
  return sendPrepared(client, prepareTerminateLease(client, parameters), "terminateLease");
}

/**
 * Terminates the lease and waits for the receipt.
 *
 * @example
 * await terminateLeaseSync(client, { leaseId });
 */
export async function terminateLeaseSync(
  client: ProtocolClient,
  parameters: TerminateLeaseParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await terminateLease(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "terminateLease") };
}
