import { JsonRpcProvider, ZeroAddress, getAddress, keccak256, toUtf8Bytes } from "ethers";
import type { TransactionReceipt } from "ethers";
import { and, eq } from "drizzle-orm";

import { RedemptionManager__factory, SSTB__factory } from "../../typechain-types/index.js";
import type { RedemptionManager, SSTB } from "../../typechain-types/index.js";
import type { DeployedChain } from "../../scripts/lib/environments.js";
import { AccountQueue } from "../accounts/signer.js";
import type { AccountSigners } from "../accounts/signer.js";
import { sstb as wholeSstb } from "../http/format.js";
import { ApiError, invalidParameter, notFound } from "../http/errors.js";
import { ISSUE_TYPES } from "../indexer/modules/redemption-manager.js";
import type { Db } from "../store/db.js";
import type { ReadModel } from "../store/queries.js";
import { disputeEvidence, redemptionRequests } from "../store/schema.js";
import { baseUnitsOf } from "./amounts.js";
import { canonicalJson } from "./canonical.js";
import { TransactionSender } from "./sender.js";
import type { Call, UnsignedTransaction } from "./sender.js";

export type IssueTypeName = (typeof ISSUE_TYPES)[number];

/** The reference body's `specifications` (SPEC.md "Endpoints"). */
export interface Specifications {
  cpu_cores: number;
  ram_gb: number;
  storage_gb: number;
  network_mbps: number;
}

/** A managed account's result, or the external account's unsigned transactions. */
export type Outcome<T> =
  | ({ mode: "managed"; transaction_hash: string } & T)
  | ({ mode: "external"; transactions: UnsignedTransaction[] } & Partial<T>);

export interface WriteServiceOptions {
  db: Db;
  model: ReadModel;
  primary: DeployedChain;
  signers: AccountSigners;
  pollIntervalMs: number;
}

/**
 * The write operations of the API for the account an API key is bound to: redeem, confirm,
 * dispute, transfer. Inputs are checked against the chain before anything is sent (amount limits,
 * balance, provider, ownership of the redemption, a static call of the contract function), so bad
 * input costs no gas and sends nothing.
 */
export class WriteService {
  readonly rpc: JsonRpcProvider;
  private readonly chainId: number;
  private readonly manager: RedemptionManager;
  private readonly sstb: SSTB;
  private readonly sender: TransactionSender;

  constructor(private readonly options: WriteServiceOptions) {
    const { primary } = options;
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
    this.manager = RedemptionManager__factory.connect(contract("RedemptionManager"), this.rpc);
    this.sstb = SSTB__factory.connect(contract("SSTB"), this.rpc);
    this.sender = new TransactionSender(this.rpc, this.chainId, options.signers, new AccountQueue());
  }

  close(): void {
    this.rpc.destroy();
  }

  /** `initiateRedemption` of `amount` whole sSTB with `providerId`, approving amount plus fee first if needed. */
  async redeem(
    account: string,
    input: { sstb_amount: number; provider_id: string; specifications?: Specifications },
  ): Promise<
    Outcome<{
      redemption_id: string;
      status: "pending";
      sstb_amount: number;
      provider_id: string;
      initiated_at: number;
      estimated_fulfillment_time: number;
    }>
  > {
    const amount = baseUnitsOf(input.sstb_amount);
    const provider = await this.activeProvider(input.provider_id, amount, input.specifications);
    if (provider.toLowerCase() === account.toLowerCase()) {
      throw invalidParameter("provider_id", "is the key's own account: a provider cannot redeem with itself");
    }
    const minimum = await this.manager.minRedemptionAmount();
    if (amount < minimum) {
      throw new ApiError("invalid_parameter", `invalid sstb_amount: below the minimum of ${wholeSstb(minimum)} sSTB`, {
        parameter: "sstb_amount",
        reason: "below the minimum redemption amount",
        minimum: wholeSstb(minimum),
      });
    }
    const [, total] = await this.manager.quoteFee(amount);
    await this.requireBalance(account, total, "sstb_amount", "amount plus the redemption fee");
    const managerAddress = await this.manager.getAddress();
    const approve: Call = {
      description: "approve",
      to: await this.sstb.getAddress(),
      data: this.sstb.interface.encodeFunctionData("approve", [managerAddress, total]),
    };
    const initiate: Call = {
      description: "initiateRedemption",
      to: managerAddress,
      data: this.manager.interface.encodeFunctionData("initiateRedemption", [amount, provider]),
    };
    const shown = { sstb_amount: wholeSstb(amount), provider_id: provider };

    if (!(await this.sender.manages(account))) {
      const allowed = (await this.sstb.allowance(account, managerAddress)) >= total;
      if (allowed) await this.sender.check(account, initiate);
      const calls = allowed ? [initiate] : [approve, initiate];
      return {
        mode: "external",
        ...shown,
        transactions: await this.sender.unsigned(account, calls, (i) => allowed || i === 0),
      };
    }
    const receipts = await this.sender.send(account, async () => {
      const allowed = (await this.sstb.allowance(account, managerAddress)) >= total;
      if (allowed) await this.sender.check(account, initiate);
      return allowed ? [initiate] : [approve, initiate];
    });
    const receipt = receipts[receipts.length - 1];
    const { redemptionId, deadline } = this.redemptionOf(receipt);
    const block = await this.rpc.getBlock(receipt.blockNumber);
    await this.options.db
      .insert(redemptionRequests)
      .values({
        chainId: this.chainId,
        redemptionId: Number(redemptionId),
        account,
        providerId: provider,
        specifications: input.specifications === undefined ? null : { ...input.specifications },
        txHash: receipt.hash,
        createdAt: block!.timestamp,
      })
      .onConflictDoNothing();
    return {
      mode: "managed",
      redemption_id: redemptionId.toString(),
      status: "pending",
      ...shown,
      initiated_at: block!.timestamp,
      estimated_fulfillment_time: Number(deadline),
      transaction_hash: receipt.hash,
    };
  }

  /** `confirmRedemption` of one of the account's redemptions. */
  async confirm(
    account: string,
    redemptionId: number,
  ): Promise<Outcome<{ redemption_id: string; status: "confirmed" }>> {
    await this.ownRedemption(account, redemptionId);
    const call: Call = {
      description: "confirmRedemption",
      to: await this.manager.getAddress(),
      data: this.manager.interface.encodeFunctionData("confirmRedemption", [redemptionId]),
    };
    await this.sender.check(account, call);
    const id = String(redemptionId);
    if (!(await this.sender.manages(account))) {
      return {
        mode: "external",
        redemption_id: id,
        transactions: await this.sender.unsigned(account, [call], () => true),
      };
    }
    const [receipt] = await this.sender.send(account, async () => {
      await this.sender.check(account, call);
      return [call];
    });
    return { mode: "managed", redemption_id: id, status: "confirmed", transaction_hash: receipt.hash };
  }

  /**
   * `openDispute`: the evidence is stored in the gateway's database as a canonical JSON document
   * (`{description, evidence, issue_type, redemption_id}`, keys sorted, no spaces) and its keccak256
   * goes on-chain as the evidence hash; anyone holding the document can check it against the
   * `DisputeOpened` event.
   */
  async dispute(
    account: string,
    redemptionId: number,
    input: { issue_type: IssueTypeName; description: string; evidence: unknown },
  ): Promise<Outcome<{ redemption_id: string; status: "disputed"; issue_type: string; evidence_hash: string }>> {
    await this.ownRedemption(account, redemptionId);
    const issueType = ISSUE_TYPES.indexOf(input.issue_type);
    if (issueType < 0) throw invalidParameter("issue_type", `must be one of ${ISSUE_TYPES.join(", ")}`);
    const document = canonicalJson({
      redemption_id: String(redemptionId),
      issue_type: input.issue_type,
      description: input.description,
      evidence: input.evidence,
    });
    const hash = keccak256(toUtf8Bytes(document));
    const call: Call = {
      description: "openDispute",
      to: await this.manager.getAddress(),
      data: this.manager.interface.encodeFunctionData("openDispute", [redemptionId, issueType, hash]),
    };
    await this.sender.check(account, call);
    const id = String(redemptionId);
    const store = (txHash: string | null) =>
      this.options.db
        .insert(disputeEvidence)
        .values({
          chainId: this.chainId,
          redemptionId,
          account,
          issueType: input.issue_type,
          document,
          evidence: input.evidence as object,
          hash,
          txHash,
          createdAt: Math.floor(Date.now() / 1000),
        })
        .onConflictDoUpdate({
          target: [disputeEvidence.chainId, disputeEvidence.redemptionId],
          set: { issueType: input.issue_type, document, evidence: input.evidence as object, hash, txHash },
        });
    const shown = { redemption_id: id, issue_type: input.issue_type, evidence_hash: hash };
    if (!(await this.sender.manages(account))) {
      // stored now: the client's transaction will carry this hash
      await store(null);
      return { mode: "external", ...shown, transactions: await this.sender.unsigned(account, [call], () => true) };
    }
    const [receipt] = await this.sender.send(account, async () => {
      await this.sender.check(account, call);
      return [call];
    });
    await store(receipt.hash);
    return { mode: "managed", ...shown, status: "disputed", transaction_hash: receipt.hash };
  }

  /** The stored evidence of a redemption's dispute, for its user or its provider. */
  async evidence(account: string, redemptionId: number) {
    const record = await this.redemptionRecord(redemptionId);
    const lower = account.toLowerCase();
    if (record.user.toLowerCase() !== lower && record.provider.toLowerCase() !== lower) {
      throw new ApiError(
        "authorization_error",
        `redemption ${redemptionId} is not the key account's (user or provider)`,
        {
          redemption_id: String(redemptionId),
        },
      );
    }
    const [row] = await this.options.db
      .select()
      .from(disputeEvidence)
      .where(and(eq(disputeEvidence.chainId, this.chainId), eq(disputeEvidence.redemptionId, redemptionId)))
      .limit(1);
    if (row === undefined) throw notFound("dispute evidence of redemption", redemptionId);
    const stored = JSON.parse(row.document) as { description: string };
    return {
      redemption_id: String(redemptionId),
      issue_type: row.issueType,
      description: stored.description,
      evidence: row.evidence,
      document: row.document,
      evidence_hash: row.hash,
      transaction_hash: row.txHash,
      created_at: row.createdAt,
    };
  }

  /** sSTB `transfer` of `amount` whole sSTB to `to`. */
  async transfer(
    account: string,
    input: { to: string; sstb_amount: number },
  ): Promise<Outcome<{ from: string; to: string; sstb_amount: number }>> {
    const to = getAddress(input.to);
    if (to === ZeroAddress) throw invalidParameter("to", "must not be the zero address");
    const amount = baseUnitsOf(input.sstb_amount);
    await this.requireBalance(account, amount, "sstb_amount", "amount");
    const call: Call = {
      description: "transfer",
      to: await this.sstb.getAddress(),
      data: this.sstb.interface.encodeFunctionData("transfer", [to, amount]),
    };
    await this.sender.check(account, call);
    const shown = { from: account, to, sstb_amount: wholeSstb(amount) };
    if (!(await this.sender.manages(account))) {
      return { mode: "external", ...shown, transactions: await this.sender.unsigned(account, [call], () => true) };
    }
    const [receipt] = await this.sender.send(account, async () => {
      await this.requireBalance(account, amount, "sstb_amount", "amount");
      return [call];
    });
    return { mode: "managed", ...shown, transaction_hash: receipt.hash };
  }

  /** The provider, if registered, active, with `amount` available and the requested hardware. */
  private async activeProvider(providerId: string, amount: bigint, specs?: Specifications): Promise<string> {
    const row = await this.options.model.provider(providerId);
    if (row === undefined) throw notFound("provider", providerId);
    if (row.status !== "active") {
      throw new ApiError("invalid_parameter", `invalid provider_id: the provider is ${row.status}, not active`, {
        parameter: "provider_id",
        reason: `the provider is ${row.status}`,
      });
    }
    if (BigInt(row.availableCu) < amount) {
      throw new ApiError("invalid_parameter", "invalid sstb_amount: more than the provider has available", {
        parameter: "sstb_amount",
        reason: "more than the provider's available capacity",
        available: wholeSstb(row.availableCu),
      });
    }
    if (specs !== undefined) {
      const capacity: Record<keyof Specifications, number> = {
        cpu_cores: row.totalCpuCores,
        ram_gb: row.totalRamGb,
        storage_gb: row.totalStorageGb,
        network_mbps: row.networkCapacityMbps,
      };
      for (const [name, limit] of Object.entries(capacity) as Array<[keyof Specifications, number]>) {
        if (specs[name] > limit) {
          throw new ApiError(
            "invalid_parameter",
            `invalid specifications.${name}: the provider has ${limit} in total`,
            {
              parameter: `specifications.${name}`,
              reason: "more than the provider's registered hardware",
              available: limit,
            },
          );
        }
      }
    }
    return row.providerId;
  }

  private async requireBalance(account: string, needed: bigint, parameter: string, what: string): Promise<void> {
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

  private async redemptionRecord(redemptionId: number) {
    const record = await this.manager.redemptions(redemptionId);
    if (record.user === ZeroAddress) throw notFound("redemption", redemptionId);
    return record;
  }

  /** Refuses a redemption that does not exist or is not the account's. */
  private async ownRedemption(account: string, redemptionId: number): Promise<void> {
    const record = await this.redemptionRecord(redemptionId);
    if (record.user.toLowerCase() !== account.toLowerCase()) {
      throw new ApiError("authorization_error", `redemption ${redemptionId} is not the key account's`, {
        redemption_id: String(redemptionId),
      });
    }
  }

  /** The new redemption's id and deadline from the receipt's `RedemptionInitiated` and `RedemptionTerms`. */
  private redemptionOf(receipt: TransactionReceipt): { redemptionId: bigint; deadline: bigint } {
    let redemptionId: bigint | undefined;
    let deadline: bigint | undefined;
    const manager = this.options.primary.contracts.RedemptionManager.toLowerCase();
    for (const log of receipt.logs) {
      if (log.address.toLowerCase() !== manager) continue;
      const parsed = this.manager.interface.parseLog(log);
      if (parsed?.name === "RedemptionInitiated") redemptionId = parsed.args.redemptionId as bigint;
      if (parsed?.name === "RedemptionTerms") deadline = parsed.args.deadline as bigint;
    }
    if (redemptionId === undefined || deadline === undefined) {
      throw new Error(`initiateRedemption ${receipt.hash} emitted no RedemptionInitiated/RedemptionTerms`);
    }
    return { redemptionId, deadline };
  }
}
