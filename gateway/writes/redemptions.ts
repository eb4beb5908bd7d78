import type { TransactionReceipt } from "ethers";
import { and, eq } from "drizzle-orm";

import { prepareConfirmRedemption, prepareInitiateRedemption } from "@compute-capacity/sdk";

import { ApiError, invalidParameter, notFound } from "../api/errors.js";
import { amount as amountOf, sstb as wholeSstb } from "../api/format.js";
import { redemptionRequests } from "../store/schema.js";
import type { Outcome, WriteContext } from "./context.js";
import type { Call } from "./sender.js";

/** The reference body's `specifications` (SPEC.md "Endpoints"). */
export interface Specifications {
  cpu_cores: number;
  ram_gb: number;
  storage_gb: number;
  network_mbps: number;
}

export interface RedemptionInput {
  /** sSTB to redeem, base units (read from either of the body's amount fields: api/amounts.ts `amountOf`). */
  amount: bigint;
  provider_id: string;
  specifications?: Specifications;
}

/**
 * `initiateRedemption` of `amount` base units of sSTB with the provider, approving amount plus fee
 * first when the allowance is short. Checked first: the amount's form, the provider (known,
 * active, with the capacity and the hardware asked for), the on-chain minimum, the balance.
 */
export async function redeem(
  ctx: WriteContext,
  account: string,
  input: RedemptionInput,
): Promise<
  Outcome<{
    redemption_id: string;
    status: "pending";
    sstb_amount: number;
    sstb_amount_base_units: string;
    provider_id: string;
    initiated_at: number;
    estimated_fulfillment_time: number;
  }>
> {
  const { amount } = input;
  const provider = await activeProvider(ctx, input.provider_id, amount, input.specifications);
  if (provider.toLowerCase() === account.toLowerCase()) {
    throw invalidParameter("provider_id", "is the key's own account: a provider cannot redeem with itself");
  }
  const minimum = await ctx.views.minRedemptionAmount();
  if (amount < minimum) {
    throw new ApiError("invalid_parameter", `invalid sstb_amount: below the minimum of ${wholeSstb(minimum)} sSTB`, {
      parameter: "sstb_amount",
      reason: "below the minimum redemption amount",
      minimum: wholeSstb(minimum),
      minimum_base_units: minimum.toString(),
    });
  }
  const [, total] = await ctx.views.quoteFee(amount); // the fee is taken on top of the amount
  await ctx.requireBalance(account, total, "sstb_amount", "amount plus the redemption fee");
  const approve: Call = {
    description: "approve",
    to: ctx.sstbAddress,
    data: ctx.sstb.interface.encodeFunctionData("approve", [ctx.managerAddress, total]),
  };
  const { to, data } = prepareInitiateRedemption(ctx.client, { amount, provider });
  const initiate: Call = { description: "initiateRedemption", to, data };
  // with the allowance in place the initiation itself can be pre-checked; without it, it cannot
  // run before the approval is mined, and the checks above stand in for it
  const calls = async () => {
    const allowed = (await ctx.sstb.allowance(account, ctx.managerAddress)) >= total;
    if (allowed) await ctx.sender.check(account, initiate);
    return allowed ? [initiate] : [approve, initiate];
  };
  const first = await calls();
  const shown = { ...amountOf("sstb_amount", amount), provider_id: provider };
  const done = await ctx.perform(account, first, { recheck: calls, estimable: (i) => i === 0 });
  if (done.mode === "external") return { mode: "external", ...shown, transactions: done.transactions };

  const receipt = done.receipts[done.receipts.length - 1];
  const { redemptionId, deadline } = redemptionOf(ctx, receipt);
  const block = await ctx.rpc.getBlock(receipt.blockNumber);
  await ctx.db
    .insert(redemptionRequests)
    .values({
      chainId: ctx.chainId,
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

/** `confirmRedemption` of one of the account's redemptions (pre-checked: the revert strings come back). */
export async function confirm(
  ctx: WriteContext,
  account: string,
  redemptionId: number,
): Promise<Outcome<{ redemption_id: string; status: "confirmed" }>> {
  await ctx.ownRedemption(account, redemptionId);
  const { to, data } = prepareConfirmRedemption(ctx.client, { redemptionId: BigInt(redemptionId) });
  const call: Call = { description: "confirmRedemption", to, data };
  await ctx.sender.check(account, call);
  const id = String(redemptionId);
  const done = await ctx.perform(account, [call], {
    recheck: async () => {
      await ctx.sender.check(account, call);
    },
  });
  if (done.mode === "external") return { mode: "external", redemption_id: id, transactions: done.transactions };
  return { mode: "managed", redemption_id: id, status: "confirmed", transaction_hash: done.receipts[0].hash };
}

/** The provider, if registered, active, with `amount` available and the hardware asked for. */
async function activeProvider(
  ctx: WriteContext,
  providerId: string,
  amount: bigint,
  specs?: Specifications,
): Promise<string> {
  const row = await ctx.model.provider(providerId);
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
  if (specs === undefined) return row.providerId;
  const capacity: Record<keyof Specifications, number> = {
    cpu_cores: row.totalCpuCores,
    ram_gb: row.totalRamGb,
    storage_gb: row.totalStorageGb,
    network_mbps: row.networkCapacityMbps,
  };
  for (const [name, limit] of Object.entries(capacity) as Array<[keyof Specifications, number]>) {
    if (specs[name] > limit) {
      throw new ApiError("invalid_parameter", `invalid specifications.${name}: the provider has ${limit} in total`, {
        parameter: `specifications.${name}`,
        reason: "more than the provider's registered hardware",
        available: limit,
      });
    }
  }
  return row.providerId;
}

/** The new redemption's id and deadline from the receipt's `RedemptionInitiated` and `RedemptionTerms`. */
function redemptionOf(ctx: WriteContext, receipt: TransactionReceipt): { redemptionId: bigint; deadline: bigint } {
  let redemptionId: bigint | undefined;
  let deadline: bigint | undefined;
  for (const log of receipt.logs) {
    if (log.address.toLowerCase() !== ctx.managerAddress.toLowerCase()) continue;
    const parsed = ctx.manager.interface.parseLog(log);
    if (parsed?.name === "RedemptionInitiated") redemptionId = parsed.args.redemptionId as bigint;
    if (parsed?.name === "RedemptionTerms") deadline = parsed.args.deadline as bigint;
  }
  if (redemptionId === undefined || deadline === undefined) {
    throw new Error(`initiateRedemption ${receipt.hash} emitted no RedemptionInitiated/RedemptionTerms`);
  }
  return { redemptionId, deadline };
}

/**
 * What the user asked the gateway for with a redemption (the reference body's `specifications`),
 * for the redemption's user and provider: the provider reads what to allocate here.
 */
export async function redemptionRequestOf(ctx: WriteContext, account: string, redemptionId: number) {
  await ctx.partyOf(account, redemptionId);
  const [row] = await ctx.db
    .select()
    .from(redemptionRequests)
    .where(and(eq(redemptionRequests.chainId, ctx.chainId), eq(redemptionRequests.redemptionId, redemptionId)))
    .limit(1);
  if (row === undefined) throw notFound("gateway request of redemption", redemptionId);
  return {
    redemption_id: String(redemptionId),
    provider_id: row.providerId,
    user: row.account,
    specifications: row.specifications,
    transaction_hash: row.txHash,
    created_at: row.createdAt,
  };
}
