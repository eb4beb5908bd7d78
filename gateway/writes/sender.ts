import type { JsonRpcProvider, TransactionReceipt } from "ethers";

import { revertDataOf } from "@compute-capacity/sdk";
import type { AccountQueue, AccountSigners } from "../accounts/signer.js";
import { ApiError } from "../http/errors.js";
import { revertToApiError } from "./reverts.js";

/** One contract call of a write. */
export interface Call {
  /** What the call does, for the external account's client (`approve`, `initiateRedemption`, ...). */
  description: string;
  to: string;
  data: string;
}

/** An unsigned transaction for an external account to sign and send, with nonce and gas hints. */
export interface UnsignedTransaction {
  description: string;
  from: string;
  to: string;
  data: string;
  value: string;
  chainId: number;
  nonce: number;
  gas: number;
}

/** Gas hint for a call that cannot be estimated before the previous one is mined (an approval's spender). */
const UNESTIMATED_GAS = 400_000n;
/**
 * How long a sent transaction may take to be mined before the write answers without its receipt
 * (a dropped transaction or a node that restarted must not hold the account's queue, the request
 * and its idempotency key forever).
 */
export const MINE_TIMEOUT_MS = 120_000;
/** Headroom over an estimate, percent. */
const GAS_MARGIN = 20n;

/**
 * Sends a write's calls for an account. A managed account's calls go through its queue (one at a
 * time per account, each mined before the next, so nonces never collide), each pre-checked with
 * `eth_call` so a call that would revert costs no gas and answers with its revert reason. An
 * external account gets the unsigned transactions instead.
 */
export class TransactionSender {
  constructor(
    private readonly rpc: JsonRpcProvider,
    private readonly chainId: number,
    private readonly signers: AccountSigners,
    private readonly queue: AccountQueue,
    private readonly mineTimeoutMs = MINE_TIMEOUT_MS,
  ) {}

  manages(account: string): Promise<boolean> {
    return this.signers.manages(account);
  }

  /** Pre-checks a call from `account` without sending it: throws the mapped revert. */
  async check(account: string, call: Call): Promise<void> {
    try {
      await this.rpc.call({ from: account, to: call.to, data: call.data });
    } catch (error) {
      throw mapSendError(error);
    }
  }

  /**
   * Sends `calls` in order from a managed account and returns their receipts. `prepare` runs inside
   * the account's queue first (checks that depend on the account's state, such as its allowance,
   * must see the state after the account's earlier writes) and returns the calls to send.
   */
  async send(account: string, prepare: () => Promise<Call[]>): Promise<TransactionReceipt[]> {
    return this.queue.run(account, async () => {
      const calls = await prepare();
      const signer = await this.signers.signer(account, this.rpc);
      const receipts: TransactionReceipt[] = [];
      for (const call of calls) {
        let gasLimit: bigint;
        try {
          gasLimit = await this.rpc.estimateGas({ from: account, to: call.to, data: call.data });
        } catch (error) {
          throw mapSendError(error);
        }
        gasLimit += (gasLimit * GAS_MARGIN) / 100n;
        // checked here, not left to the node: nodes word the refusal each their own way
        const [balance, fees] = await Promise.all([this.rpc.getBalance(account), this.rpc.getFeeData()]);
        const price = fees.maxFeePerGas ?? fees.gasPrice ?? 0n;
        if (balance < gasLimit * price) throw noGasFunds();
        try {
          const sent = await signer.sendTransaction({ to: call.to, data: call.data, chainId: this.chainId, gasLimit });
          let receipt: TransactionReceipt | null;
          try {
            receipt = await sent.wait(1, this.mineTimeoutMs);
          } catch (error) {
            if ((error as { code?: string }).code !== "TIMEOUT") throw error;
            receipt = null;
          }
          if (receipt === null) throw notMined(sent.hash, call.description, this.mineTimeoutMs);
          receipts.push(receipt);
        } catch (error) {
          throw mapSendError(error);
        }
      }
      return receipts;
    });
  }

  /** The unsigned transactions of `calls` for an external account, with nonce and gas hints. */
  async unsigned(
    account: string,
    calls: Call[],
    estimable: (index: number) => boolean,
  ): Promise<UnsignedTransaction[]> {
    const nonce = await this.rpc.getTransactionCount(account, "pending");
    return Promise.all(
      calls.map(async (call, i) => {
        let gas = UNESTIMATED_GAS;
        if (estimable(i)) {
          try {
            const estimate = await this.rpc.estimateGas({ from: account, to: call.to, data: call.data });
            gas = estimate + (estimate * GAS_MARGIN) / 100n;
          } catch (error) {
            throw mapSendError(error);
          }
        }
        return {
          description: call.description,
          from: account,
          to: call.to,
          data: call.data,
          value: "0",
          chainId: this.chainId,
          nonce: nonce + i,
          gas: Number(gas),
        };
      }),
    );
  }
}

/** A failed send -> the API's error: a revert with its reason, missing gas funds, or the error unchanged. */
export function mapSendError(error: unknown): unknown {
  if (error instanceof ApiError) return error;
  if (revertDataOf(error) !== undefined) return revertToApiError(error);
  const code = (error as { code?: string }).code;
  const message = String((error as { message?: string }).message ?? "");
  if (code === "INSUFFICIENT_FUNDS" || /insufficient funds|enough funds/i.test(message)) return noGasFunds();
  if (code === "CALL_EXCEPTION") {
    return new ApiError("invalid_parameter", "the transaction reverted", { revert: "unknown", args: {} });
  }
  return error;
}

function noGasFunds(): ApiError {
  return new ApiError("invalid_parameter", "the account has not enough native currency to pay for gas", {
    parameter: "account",
    reason: "insufficient funds for gas",
  });
}

/** A sent transaction whose receipt did not come in time: the client learns its hash, not a guess at its fate. */
function notMined(hash: string, description: string, timeoutMs: number): ApiError {
  return new ApiError(
    "internal_error",
    `${description}: transaction ${hash} was sent but not mined within ${timeoutMs / 1000} s; look it up before retrying`,
    { transaction_hash: hash },
  );
}
