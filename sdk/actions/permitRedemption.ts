import { Signature } from "ethers";
import type { TransactionReceipt } from "ethers";

import { redemptionViewsAbi } from "../abis/redemptionViews.js";
import { sstbAbi } from "../abis/sstb.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { deployedReader, encodeFunctionCall } from "../contract-calls.js";
import type { BaseError, ContractRevertedError, InvalidParameterError } from "../errors.js";
import { getPermitTypedData } from "../permits.js";
import type { PermitTypedData } from "../permits.js";

export interface RedemptionPermitParameters {
  /** The holder whose sSTB the manager may take. */
  owner: string;
  /** sSTB base units to redeem; the permit covers it plus the fee. */
  amount: bigint;
  /** Unix seconds after which the permit is void. */
  deadline: bigint;
}

export interface PermitRedemptionParameters extends RedemptionPermitParameters {
  /** The owner's signature of {@link getRedemptionPermit}'s typed data. */
  signature: string;
}

export type PermitRedemptionErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * The EIP-2612 permit a holder signs instead of sending an approval: the manager may take `amount`
 * plus the fee. Anyone may then submit it ({@link preparePermitRedemption}), so a holder without
 * gas, or a gateway acting for it, can approve.
 *
 * @example
 * const permit = await getRedemptionPermit(client, { owner, amount, deadline });
 * const signature = await wallet.signTypedData(permit.domain, permit.types, permit.message);
 */
export async function getRedemptionPermit(
  client: ProtocolClient,
  { owner, amount, deadline }: RedemptionPermitParameters,
): Promise<PermitTypedData & { total: bigint }> {
  const [, total] = await deployedReader(client, "RedemptionViews", redemptionViewsAbi).quoteFee(amount);
  const typed = await getPermitTypedData(
    deployedReader(client, "SSTB", sstbAbi),
    owner,
    addressOf(client, "RedemptionManager"),
    total,
    deadline,
    client.chainId,
  );
  return { ...typed, total };
}

/**
 * Builds the `permit` call that submits a signed redemption permit.
 *
 * @example
 * const transaction = await preparePermitRedemption(client, { owner, amount, deadline, signature });
 */
export async function preparePermitRedemption(
  client: ProtocolClient,
  { owner, amount, deadline, signature }: PermitRedemptionParameters,
): Promise<PreparedTransaction> {
  const [, total] = await deployedReader(client, "RedemptionViews", redemptionViewsAbi).quoteFee(amount);
  const { v, r, s } = Signature.from(signature);
  const data = encodeFunctionCall(sstbAbi, "permit", [
    owner,
    addressOf(client, "RedemptionManager"),
    total,
    deadline,
    v,
    r,
    s,
  ]);
  return { to: addressOf(client, "SSTB"), data, value: 0n };
}

/** Submits a signed redemption permit and returns the hash. */
export async function permitRedemption(
  client: ProtocolClient,
  parameters: PermitRedemptionParameters,
): Promise<string> {
  return sendPrepared(client, await preparePermitRedemption(client, parameters), "permit");
}

/** Submits a signed redemption permit and waits for the receipt. */
export async function permitRedemptionSync(
  client: ProtocolClient,
  parameters: PermitRedemptionParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await permitRedemption(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "permit") };
}
