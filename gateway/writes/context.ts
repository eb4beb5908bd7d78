import { JsonRpcProvider, ZeroAddress } from "ethers";
import type { TransactionReceipt } from "ethers";

import { contractAt } from "@compute-capacity/sdk";
import type { DeployedChain, ProtocolClient, TypedContract } from "@compute-capacity/sdk";
import { redemptionManagerAbi, redemptionViewsAbi, sstbAbi } from "@compute-capacity/sdk/abis";
import { AccountQueue } from "../accounts/signer.js";
import type { AccountLock, AccountSigners } from "../accounts/signer.js";
import { ApiError, notFound } from "../api/errors.js";
import { sstb as wholeSstb } from "../api/format.js";
import type { Db } from "../store/db.js";
import type { ReadModel } from "../store/queries.js";
import { TransactionSender } from "./sender.js";
import type { Call, UnsignedTransaction } from "./sender.js";

/** A managed account's result, or the external account's unsigned transactions. */
export type Outcome<T> =
  | ({ mode: "managed"; transaction_hash: string } & T)
  | ({ mode: "external"; transactions: UnsignedTransaction[] } & Partial<T>);

export interface WriteContextOptions {
  db: Db;
  model: ReadModel;
  primary: DeployedChain;
  signers: AccountSigners;
  pollIntervalMs: number;
  /**
   * Resolves once the indexer has indexed a block (absent: no waiting). A managed write answers
   * after its block is indexed, so the read routes show it at once (best effort: a slow indexer
   * delays the answer by its timeout, not fails it).
   */
  indexed?: (blockNumber: number) => Promise<void>;
  /** Holds a managed account across gateways sharing the database (PostgreSQL). */
  accountLock?: AccountLock;
}

/**
 * What every write operation needs: the primary chain's contracts, the store, the sender, and the
 * checks they share (balance, the redemption's owner). Operations live in their own modules
 * (redemptions, disputes, transfers) and take this as their first argument.
 */
export class WriteContext {
  readonly db: Db;
  readonly model: ReadModel;
  readonly rpc: JsonRpcProvider;
  readonly chainId: number;
  readonly manager: TypedContract<typeof redemptionManagerAbi>;
  readonly managerAddress: string;
  /** The manager's read contract: fee quotes and parameters (issue 23). */
  readonly views: TypedContract<typeof redemptionViewsAbi>;
  readonly sstb: TypedContract<typeof sstbAbi>;
  readonly sstbAddress: string;
  readonly sender: TransactionSender;
  /** The SDK's client of the primary chain: the write calls are built with its actions (`prepareX`). */
  readonly client: ProtocolClient;
  private readonly indexed?: (blockNumber: number) => Promise<void>;

  constructor(options: WriteContextOptions) {
    const { primary } = options;
    this.db = options.db;
    this.model = options.model;
    this.indexed = options.indexed;
    this.chainId = primary.chainId!;
    // a provider of its own: no response cache (nonces and balances must be current), and receipts
    // polled at the indexer's pace
    this.rpc = new JsonRpcProvider(primary.rpcUrl, this.chainId, { staticNetwork: true, cacheTimeout: -1 });
    this.rpc.pollingInterval = options.pollIntervalMs;
    const contract = (name: string) => {
      const address = primary.contracts[name];
      if (address === undefined) throw new Error(`the deployment has no ${name}`);
      return address;
    };
    this.managerAddress = contract("RedemptionManager");
    this.sstbAddress = contract("SSTB");
    this.manager = contractAt({ runner: this.rpc }, redemptionManagerAbi, this.managerAddress);
    this.views = contractAt({ runner: this.rpc }, redemptionViewsAbi, contract("RedemptionViews"));
    this.sstb = contractAt({ runner: this.rpc }, sstbAbi, this.sstbAddress);
    this.sender = new TransactionSender(this.rpc, this.chainId, options.signers, new AccountQueue(options.accountLock));
    this.client = { runner: this.rpc, chainId: BigInt(this.chainId), addresses: primary.contracts };
  }

  close(): void {
    this.rpc.destroy();
  }

  /**
   * Sends `calls` for a managed account (after `recheck`, run in the account's queue) and returns
   * the receipts; for an external account returns its unsigned transactions instead.
   * `estimable(i)`: whether call `i` can be estimated before the earlier ones are mined.
   */
  async perform(
    account: string,
    calls: Call[],
    options: { recheck?: () => Promise<Call[] | void>; estimable?: (index: number) => boolean } = {},
  ): Promise<
    { mode: "managed"; receipts: TransactionReceipt[] } | { mode: "external"; transactions: UnsignedTransaction[] }
  > {
    if (!(await this.sender.manages(account))) {
      return {
        mode: "external",
        transactions: await this.sender.unsigned(account, calls, options.estimable ?? (() => true)),
      };
    }
    const receipts = await this.sender.send(account, async () => (await options.recheck?.()) ?? calls);
    await this.indexed?.(receipts[receipts.length - 1].blockNumber).catch(() => {});
    return { mode: "managed", receipts };
  }

  async requireBalance(account: string, needed: bigint, parameter: string, what: string): Promise<void> {
    const balance = await this.sstb.balanceOf(account);
    if (balance < needed) {
      throw new ApiError("invalid_parameter", `invalid ${parameter}: the ${what} exceeds the account's balance`, {
        parameter,
        reason: "exceeds the balance",
        balance: wholeSstb(balance),
        needed: wholeSstb(needed),
      });
    }
  }

  /** The on-chain record (`redemptions(id)`); `resource_not_found` if there is none. */
  async redemptionRecord(redemptionId: number) {
    const record = await this.manager.redemptions(redemptionId);
    if (record.user === ZeroAddress) throw notFound("redemption", redemptionId);
    return record;
  }

  /** Refuses a redemption that does not exist or whose user or provider the account is not. */
  async partyOf(account: string, redemptionId: number): Promise<void> {
    const record = await this.redemptionRecord(redemptionId);
    const lower = account.toLowerCase();
    if (record.user.toLowerCase() !== lower && record.provider.toLowerCase() !== lower) {
      throw new ApiError(
        "authorization_error",
        `redemption ${redemptionId} is not the key account's (user or provider)`,
        { redemption_id: String(redemptionId) },
      );
    }
  }

  /**
   * Refuses a redemption that does not exist or is not the account's: `authorization_error`
   * (redemptions are public on-chain, so a 404 would hide nothing).
   */
  async ownRedemption(account: string, redemptionId: number): Promise<void> {
    const record = await this.redemptionRecord(redemptionId);
    if (record.user.toLowerCase() !== account.toLowerCase()) {
      throw new ApiError("authorization_error", `redemption ${redemptionId} is not the key account's`, {
        redemption_id: String(redemptionId),
      });
    }
  }
}
