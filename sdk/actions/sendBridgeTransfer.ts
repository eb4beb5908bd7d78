import { isAddress } from "ethers";
import type { TransactionReceipt } from "ethers";

import { bridgeAbi } from "../abis/bridge.js";
import { FeeOption } from "../bridge.js";
import type { FeeOptionName } from "../bridge.js";
import { bridgeTokenAddress, destinationSelector } from "../bridge-tokens.js";
import type { BridgeTokenSymbol } from "../bridge-tokens.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall, parseEventLogs } from "../contract-calls.js";
import { BaseError, InvalidParameterError } from "../errors.js";
import type { ContractRevertedError } from "../errors.js";
import type { TokenApproval } from "../token-approval.js";
import { quoteBridgeTransfer } from "./quoteBridgeTransfer.js";

export interface SendBridgeTransferParameters {
  /** The destination's EVM chain id. */
  destinationChainId: bigint | number;
  /** Who receives the tokens there. */
  recipient: string;
  token: BridgeTokenSymbol;
  /** Base units to move. */
  amount: bigint;
  /** How the protocol fee is paid: `default` (the stablecoin), `service` (sSTB), `stb_gov` (the governance token). */
  feeOption: FeeOptionName;
}

export interface SendBridgeTransferReturnType extends PreparedTransaction {
  /** What the bridge takes: the tokens moved, and the fee in its token (one approval when they are the same token). */
  approvals: TokenApproval[];
  /** The protocol fee in the chosen option's token. */
  fee: bigint;
  /** CCIP's fee: the transaction's `value`. */
  transportFee: bigint;
}

export type SendBridgeTransferErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds `send(destinationChain, recipient, token, amount, feeOption)` with the quoted transport
 * fee as its value. The bridge burns the tokens (escrows the governance token on the primary
 * chain) and takes the fee; `approvals` lists what it must be allowed to take first.
 *
 * @example
 * const { approvals, fee, value } = await prepareSendBridgeTransfer(client, {
 *   destinationChainId: 1, recipient, token: "sSTB", amount, feeOption: "service",
 * });
 */
export async function prepareSendBridgeTransfer(
  client: ProtocolClient,
  { destinationChainId, recipient, token, amount, feeOption }: SendBridgeTransferParameters,
): Promise<SendBridgeTransferReturnType> {
  if (!isAddress(recipient)) throw new InvalidParameterError("recipient", "must be an address");
  if (!(feeOption in FeeOption))
    throw new InvalidParameterError("feeOption", 'must be "default", "service" or "stb_gov"');
  const selector = destinationSelector(destinationChainId);
  const tokenAddress = bridgeTokenAddress(client, token);
  const { fees, transportFee } = await quoteBridgeTransfer(client, { destinationChainId, token, amount });
  const bridge = addressOf(client, "Bridge");
  const fee = fees[feeOption];
  const approvals: TokenApproval[] = [{ token: tokenAddress, spender: bridge, amount }];
  if (fee.amount > 0n) {
    if (fee.token.toLowerCase() === tokenAddress.toLowerCase()) approvals[0]!.amount += fee.amount;
    else approvals.push({ token: fee.token, spender: bridge, amount: fee.amount });
  }
  const data = encodeFunctionCall(bridgeAbi, "send", [selector, recipient, tokenAddress, amount, FeeOption[feeOption]]);
  return { to: bridge, data, value: transportFee, approvals, fee: fee.amount, transportFee };
}

/**
 * Sends a transfer to another chain and returns the transaction's hash (its approvals given
 * beforehand).
 *
 * @example
 * const hash = await sendBridgeTransfer(client, { destinationChainId: 137, recipient, token: "sSTB", amount, feeOption: "default" });
 */
export async function sendBridgeTransfer(
  client: ProtocolClient,
  parameters: SendBridgeTransferParameters,
): Promise<string> {
  return sendPrepared(client, await prepareSendBridgeTransfer(client, parameters), "send");
}

/**
 * Sends a transfer, waits for the receipt and reads its CCIP message id: the key of its status on
 * both chains (`getBridgeTransferStatus`).
 *
 * @example
 * const { messageId } = await sendBridgeTransferSync(client, { destinationChainId: 1, recipient, token: "sSTB", amount, feeOption: "service" });
 */
export async function sendBridgeTransferSync(
  client: ProtocolClient,
  parameters: SendBridgeTransferParameters,
): Promise<{ receipt: TransactionReceipt; messageId: string; fee: bigint; transportFee: bigint }> {
  const prepared = await prepareSendBridgeTransfer(client, parameters);
  const hash = await sendPrepared(client, prepared, "send");
  const receipt = await waitForReceipt(client, hash, "send");
  const [sent] = parseEventLogs(bridgeAbi, receipt.logs, { address: prepared.to, eventName: "MessageSent" });
  if (sent === undefined) throw new BaseError("send emitted no MessageSent event", { details: `transaction ${hash}` });
  return { receipt, messageId: sent.args.messageId, fee: sent.args.fee, transportFee: sent.args.transportFee };
}
