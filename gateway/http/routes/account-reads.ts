import { Contract, JsonRpcProvider, formatUnits, getAddress } from "ethers";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { and, asc, eq, inArray, sql } from "drizzle-orm";

import {
  PROVIDER_STATUSES,
  PROVIDER_TIERS,
  REDEMPTION_STATUSES,
  getContract,
  quoteRedemption,
} from "@compute-capacity/sdk";
import type { DeployedChain, ProtocolClient } from "@compute-capacity/sdk";
import type { Db } from "../../store/db.js";
import { LEASE_STATUS_FILTERS, listRedemptionViews } from "../../store/queries.js";
import type { LeaseStatusFilter } from "../../store/queries.js";
import { accessPublicKeys, events, redemptions } from "../../store/schema.js";
import { baseUnitsOf } from "../amounts.js";
import { ApiError, notFound } from "../errors.js";
import { redemption as redemptionView, sstb } from "../format.js";
import * as s from "../schemas.js";
import { accountOf } from "./read.js";

export interface AccountReadRouteOptions {
  db: Db;
  /** The primary chain: redemptions and providers live there. */
  primary: DeployedChain;
}

const unix = { type: "integer", description: "Unix seconds" } as const;
const nullableUnix = { type: ["integer", "null"], description: "Unix seconds" } as const;
const amount = { type: "number", description: "whole units of the token named beside it" } as const;
const baseUnits = { type: "string", pattern: "^[0-9]+$", description: "exact, in base units" } as const;
const nullableString = { type: ["string", "null"] } as const;
const collateralToken = s.object({
  address: s.addressParam,
  symbol: { type: "string" },
  decimals: { type: "integer" },
});

/** A redemption as its user and provider see it: the spec's fields plus the terms and the dispute. */
const accountRedemption = s.object({
  ...s.redemption.properties,
  fee: { ...amount, description: "sSTB paid to the treasury on top of the amount" },
  collateral_locked: { ...amount, description: "the provider's collateral locked for it (collateral token)" },
  collateral_locked_base_units: baseUnits,
  issue_type: nullableString,
  disputed_at: nullableUnix,
  user_won: { type: ["boolean", "null"] },
  user_access_key: {
    type: ["string", "null"],
    description:
      "deprecated, use `access_public_key`: the user's on-chain access key, else the one registered in a portal session",
  },
});

const quote = s.object({
  sstb_amount: s.redemption.properties.sstb_amount,
  provider_id: s.addressParam,
  fee: amount,
  total: { ...amount, description: "sSTB the holder approves (amount plus fee)" },
  total_base_units: baseUnits,
  minimum: amount,
  tier: { type: "string", enum: [...PROVIDER_TIERS] },
  fulfilment_seconds: { type: "integer" },
  deadline: { ...unix, description: "the deadline a redemption made now gets" },
  collateral_token: collateralToken,
  collateral_locked: amount,
  collateral_ratio_bps: { type: "integer" },
  compensation: s.object({
    if_expired_during_stake: { ...amount, description: "the lock's value at 100% (collateral token)" },
    if_expired_after_stake: { ...amount, description: "the whole lock" },
    if_dispute_won: { ...amount, description: "the whole lock" },
    provider_staked_until: unix,
    applies_now: { type: "string", enum: ["during_stake", "after_stake"] },
  }),
  provider_status: { type: "string", enum: [...PROVIDER_STATUSES] },
  provider_available_cu_value: amount,
  refusal: { type: ["string", "null"], description: "why the manager would refuse it now; null if it would accept" },
});

const collateral = s.object({
  provider_id: s.addressParam,
  status: { type: "string", enum: [...PROVIDER_STATUSES] },
  tier: { type: "string", enum: [...PROVIDER_TIERS] },
  collateral_token: collateralToken,
  free_collateral: amount,
  free_collateral_base_units: baseUnits,
  locked_collateral: amount,
  locked_collateral_base_units: baseUnits,
  required_collateral: { ...amount, description: "what the provider's available capacity requires" },
  available_cu_value: s.redemption.properties.sstb_amount,
  total_cu_value: s.redemption.properties.sstb_amount,
  staked_until: unix,
});

const ERC20_METADATA = ["function decimals() view returns (uint8)", "function symbol() view returns (string)"];
const ok = <T>(data: T) => ({ success: true as const, data });

/**
 * Reads of the key's (or the portal session's) account that the portal needs beside the spec's
 * routes (issue 20), under both prefixes: the account's redemptions as user or as provider, a
 * redemption's access-details envelope, a quote of a redemption before it is signed (fee, deadline,
 * lock, compensation), and a provider's collateral. Quotes and collateral are read live from the
 * primary chain through the SDK; lists come from the indexed store.
 */
export async function accountReadRoutes(app: FastifyInstance, options: AccountReadRouteOptions): Promise<void> {
  const { db, primary } = options;
  const rpc = new JsonRpcProvider(primary.rpcUrl, primary.chainId, { staticNetwork: true });
  app.addHook("onClose", async () => rpc.destroy());
  const client: ProtocolClient = { runner: rpc, chainId: BigInt(primary.chainId!), addresses: primary.contracts };
  let token: Promise<{ address: string; symbol: string; decimals: number }> | undefined;
  const collateralTokenOf = () =>
    (token ??= (async () => {
      const address = await getContract(client, "ProviderRegistry").collateralToken();
      const erc20 = new Contract(address, ERC20_METADATA, rpc);
      const [symbol, decimals] = await Promise.all([
        erc20.symbol() as Promise<string>,
        erc20.decimals() as Promise<bigint>,
      ]);
      return { address, symbol, decimals: Number(decimals) };
    })().catch((error: unknown) => {
      token = undefined;
      throw error;
    }));
  const live = async <T>(read: () => Promise<T>): Promise<T> => {
    try {
      return await read();
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw new ApiError("internal_error", "the primary chain could not be read", { reason: "chain_unavailable" });
    }
  };

  app.get(
    "/redemptions",
    {
      schema: {
        tags: ["redemptions"],
        summary: "The account's redemptions, as user (default) or as provider, newest first",
        querystring: s.query({
          role: { type: "string", enum: ["user", "provider"], default: "user" },
          status: { type: "string", enum: REDEMPTION_STATUSES.filter((x) => x !== "none") },
          lease_status: {
            type: "string",
            enum: LEASE_STATUS_FILTERS,
            description:
              "of the lease the redemption belongs to (chain time); `none`: not fulfilled (no lease). A provider " +
              "finds what to fulfil with `role=provider&status=pending`, its running leases with `lease_status=active`",
          },
          ...s.paging,
        }),
        response: { 200: s.listEnvelope("redemptions", accountRedemption), ...s.errors },
      },
    },
    async (request: FastifyRequest) => {
      const account = accountOf(request).toLowerCase();
      const q = request.query as {
        role: "user" | "provider";
        status?: string;
        lease_status?: LeaseStatusFilter;
        page: number;
        limit: number;
      };
      const { rows, total } = await listRedemptionViews(
        db,
        primary.chainId!,
        {
          ...(q.role === "user" ? { user: account } : { providerId: account }),
          status: q.status,
          leaseStatus: q.lease_status,
        },
        q,
        "desc",
      );
      // the key a user registered in a portal session before registering it on-chain (issue 20 phase 1)
      const users = [...new Set(rows.filter((v) => v.accessPublicKey === null).map((v) => v.row.userLower))];
      const keys =
        users.length === 0
          ? []
          : await db.select().from(accessPublicKeys).where(inArray(accessPublicKeys.addressLower, users));
      const sessionKeyOf = new Map(keys.map((k) => [k.addressLower, k.publicKey]));
      const { decimals } = await live(collateralTokenOf);
      return ok({
        redemptions: rows.map((v) => ({
          ...redemptionView(v),
          fee: sstb(v.row.fee),
          collateral_locked: Number(formatUnits(BigInt(v.row.lock ?? "0"), decimals)),
          collateral_locked_base_units: BigInt(v.row.lock ?? "0").toString(),
          issue_type: v.row.issueType,
          disputed_at: v.row.disputedAt,
          user_won: v.row.userWon,
          user_access_key: v.accessPublicKey ?? sessionKeyOf.get(v.row.userLower) ?? null,
        })),
        total,
        page: q.page,
        limit: q.limit,
      });
    },
  );

  app.get(
    "/redemptions/:redemptionId/access-details",
    {
      schema: {
        tags: ["redemptions"],
        summary: "The access-details envelope the provider published (encrypted to the user; for its user or provider)",
        params: s.params({ redemptionId: s.idParam }),
        response: {
          200: s.envelope(
            s.object({
              redemption_id: { type: "string" },
              envelope: { type: "string", description: "stbad1. envelope: open it with the user's access key" },
              fulfilled_at: unix,
              transaction_hash: { type: "string" },
            }),
          ),
          ...s.errors,
        },
      },
    },
    async (request) => {
      const account = accountOf(request).toLowerCase();
      const { redemptionId } = request.params as { redemptionId: number };
      const [row] = await db
        .select()
        .from(redemptions)
        .where(and(eq(redemptions.chainId, primary.chainId!), eq(redemptions.redemptionId, redemptionId)));
      if (row === undefined) throw notFound("redemption", redemptionId);
      if (row.userLower !== account && row.providerId.toLowerCase() !== account) {
        throw new ApiError(
          "authorization_error",
          `redemption ${redemptionId} is not the account's (user or provider)`,
          {
            redemption_id: String(redemptionId),
          },
        );
      }
      const [fulfilled] = await db
        .select({ args: events.args, txHash: events.txHash, timestamp: events.timestamp })
        .from(events)
        .where(
          and(
            eq(events.chainId, primary.chainId!),
            eq(events.name, "RedemptionFulfilled"),
            sql`${events.args}->>'redemptionId' = ${String(redemptionId)}`,
          ),
        )
        .orderBy(asc(events.blockNumber))
        .limit(1);
      if (fulfilled === undefined) throw notFound("access details of redemption", redemptionId);
      return ok({
        redemption_id: String(redemptionId),
        envelope: fulfilled.args.accessDetails as string,
        fulfilled_at: fulfilled.timestamp,
        transaction_hash: fulfilled.txHash,
      });
    },
  );

  app.get(
    "/redemptions/quote",
    {
      schema: {
        tags: ["redemptions"],
        summary: "What a redemption would cost, lock and pay back if the provider fails, before it is signed",
        querystring: {
          ...s.query({ sstb_amount: { type: "number", exclusiveMinimum: 0 }, provider_id: s.addressParam }),
          required: ["sstb_amount", "provider_id"],
        },
        response: { 200: s.envelope(quote), ...s.errors },
      },
    },
    async (request) => {
      const q = request.query as { sstb_amount: number; provider_id: string };
      const amountBase = baseUnitsOf(q.sstb_amount, "sstb_amount");
      const provider = getAddress(q.provider_id);
      const [r, token] = await live(() =>
        Promise.all([quoteRedemption(client, { amount: amountBase, provider }), collateralTokenOf()]),
      );
      const c = (value: bigint) => Number(formatUnits(value, token.decimals));
      const now = Math.floor(Date.now() / 1000);
      return ok({
        sstb_amount: sstb(r.amount),
        provider_id: provider,
        fee: sstb(r.fee),
        total: sstb(r.total),
        total_base_units: r.total.toString(),
        minimum: sstb(r.minimum),
        tier: r.tier,
        fulfilment_seconds: Number(r.fulfilmentSeconds),
        deadline: Number(r.deadline),
        collateral_token: token,
        collateral_locked: c(r.lock),
        collateral_ratio_bps: Number(r.ratioBps),
        compensation: {
          if_expired_during_stake: c(r.compensation.ifExpiredDuringStake),
          if_expired_after_stake: c(r.compensation.ifExpiredAfterStake),
          if_dispute_won: c(r.compensation.ifDisputeWon),
          provider_staked_until: Number(r.provider.stakedUntil),
          applies_now: Number(r.provider.stakedUntil) > now ? ("during_stake" as const) : ("after_stake" as const),
        },
        provider_status: r.provider.status,
        provider_available_cu_value: sstb(r.provider.availableCU),
        refusal: r.refusal === "" ? null : r.refusal,
      });
    },
  );

  app.get(
    "/providers/:providerId/collateral",
    {
      schema: {
        tags: ["providers"],
        summary: "A provider's collateral (free and locked) and capacity, live from the registry",
        params: s.params({ providerId: s.addressParam }),
        response: { 200: s.envelope(collateral), ...s.errors },
      },
    },
    async (request) => {
      const providerId = getAddress((request.params as { providerId: string }).providerId);
      const registry = getContract(client, "ProviderRegistry");
      const [account, token] = await live(() => Promise.all([registry.accountOf(providerId), collateralTokenOf()]));
      if (Number(account.status) === 0) throw notFound("provider", providerId);
      const required = await live(() => registry.requiredCollateral(account.availableCU));
      const c = (value: bigint) => Number(formatUnits(value, token.decimals));
      return ok({
        provider_id: providerId,
        status: PROVIDER_STATUSES[Number(account.status)],
        tier: PROVIDER_TIERS[Number(account.tier)],
        collateral_token: token,
        free_collateral: c(account.freeCollateral),
        free_collateral_base_units: account.freeCollateral.toString(),
        locked_collateral: c(account.lockedCollateral),
        locked_collateral_base_units: account.lockedCollateral.toString(),
        required_collateral: c(required),
        available_cu_value: sstb(account.availableCU),
        total_cu_value: sstb(account.totalCU),
        staked_until: Number(account.stakedUntil),
      });
    },
  );
}
