import type { JsonRpcProvider, TransactionReceipt } from "ethers";

import type { AccountQueue, AccountSigners } from "../accounts/signer.js";
import { ApiError } from "../http/errors.js";
import { revertDataOf, revertToApiError } from "./reverts.js";

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
          const receipt = await sent.wait();
          if (receipt === null) throw new Error(`transaction ${sent.hash} was not mined`);
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
