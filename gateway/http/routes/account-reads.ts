import { Contract, JsonRpcProvider, getAddress, parseUnits } from "ethers";
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
import { amountOf } from "../amounts.js";
import { component, exampleOf } from "../components.js";
import { DEPRECATED_AT, SUNSET } from "../deprecation.js";
import { ApiError, notFound } from "../errors.js";
import { amount, redemption as redemptionView } from "../format.js";
import * as s from "../schemas.js";
import { accountOf } from "./read.js";

export interface AccountReadRouteOptions {
  db: Db;
  /** The primary chain: redemptions and providers live there. */
  primary: DeployedChain;
}

/** An amount of the collateral token (its decimals are `collateral_token.decimals`): whole and exact. */
function collateralAmount(name: string, what: string, whole: string) {
  return {
    [name]: {
      type: "number",
      description: `${what}: whole collateral tokens, a JSON number (\`${name}_base_units\` is exact)`,
      examples: [Number(whole)],
    },
    [`${name}_base_units`]: s.baseUnitsString(
      `${what}: exact, in the collateral token's base units (\`collateral_token.decimals\`)`,
      parseUnits(whole, 6).toString(),
    ),
  };
}
const nullableString = (description: string, example: string) =>
  ({ type: ["string", "null"], description, examples: [example] }) as const;
const collateralToken = s.object(
  {
    address: { ...s.addressParam, description: "the token's address", examples: [s.EXAMPLE.contract] },
    symbol: { type: "string", description: "its symbol", examples: ["USDC"] },
    decimals: { type: "integer", description: "its decimals", examples: [6] },
  },
  "the provider registry's collateral token",
);

/** A redemption as its user and provider see it: the spec's fields plus the terms and the dispute. */
const accountRedemptionSchema = s.object(
  {
    ...s.redemptionSchema.properties,
    ...s.sstbAmount("fee", "sSTB paid to the treasury on top of the amount", "0.0125"),
    ...collateralAmount("collateral_locked", "the provider's collateral locked for it", "15"),
    issue_type: nullableString("the dispute's issue type; null: no dispute", "not_delivered"),
    disputed_at: s.nullableUnix("Unix seconds: when the dispute was opened; null: none"),
    user_won: {
      type: ["boolean", "null"],
      description: "the dispute's outcome for the user; null: none or undecided",
    },
    user_access_key: {
      type: ["string", "null"],
      deprecated: true,
      [DEPRECATED_AT]: "2026-11-23",
      [SUNSET]: "2027-05-22",
      description:
        "Deprecated since 2026-11-23 (sunset 2027-05-22): use `access_public_key`. The user's on-chain access key, " +
        "else the one registered in a portal session.",
      examples: [null],
    },
  },
  "A redemption as its user and provider see it: the redemption, its fee, the collateral it locks and its dispute.",
);
const AccountRedemption = component("AccountRedemption", accountRedemptionSchema, exampleOf(accountRedemptionSchema));

const quoteSchema = s.object(
  {
    ...s.sstbAmount("sstb_amount", "sSTB to redeem"),
    provider_id: { ...s.addressParam, description: "the provider" },
    ...s.sstbAmount("fee", "the redemption fee (0.1% of the amount), on top", "0.0125"),
    ...s.sstbAmount("total", "sSTB the holder approves (amount plus fee)", "12.5125"),
    ...s.sstbAmount("minimum", "the smallest amount the manager takes", "1"),
    tier: { type: "string", enum: [...PROVIDER_TIERS], description: "the provider's quality tier" },
    fulfilment_seconds: {
      type: "integer",
      description: "the tier's fulfilment time (24 h standard, 6 h premium, 1 h enterprise)",
      examples: [86_400],
    },
    deadline: { ...s.unix, description: "the deadline a redemption made now gets" },
    collateral_token: collateralToken,
    ...collateralAmount("collateral_locked", "collateral the redemption would lock", "15"),
    collateral_ratio_bps: { type: "integer", description: "the registry's collateral ratio", examples: [12_000] },
    compensation: s.object(
      {
        ...collateralAmount("if_expired_during_stake", "paid if it expires during the stake: the lock at 100%", "12.5"),
        ...collateralAmount("if_expired_after_stake", "paid if it expires after the stake: the whole lock", "15"),
        ...collateralAmount("if_dispute_won", "paid if the user wins a dispute: the whole lock", "15"),
        provider_staked_until: { ...s.unix, description: "Unix seconds: the provider's stake ends" },
        applies_now: {
          type: "string",
          enum: ["during_stake", "after_stake"],
          description: "which expiry case applies to a redemption made now",
        },
      },
      "what the user gets from the provider's collateral if the provider fails",
    ),
    provider_status: { type: "string", enum: [...PROVIDER_STATUSES], description: "the provider's status" },
    ...s.sstbAmount("provider_available_cu_value", "the provider's free capacity", "450"),
    refusal: nullableString(
      "why the manager would refuse it now; null if it would accept",
      "amount exceeds the provider's available capacity",
    ),
  },
  "What a redemption would cost, lock and pay back if the provider fails, before it is signed.",
);
const quoteExample = { ...(exampleOf(quoteSchema) as object), refusal: null };
const RedemptionQuote = component("RedemptionQuote", quoteSchema, quoteExample);

const collateralSchema = s.object(
  {
    provider_id: { ...s.addressParam, description: "the provider" },
    status: { type: "string", enum: [...PROVIDER_STATUSES], description: "the provider's status" },
    tier: { type: "string", enum: [...PROVIDER_TIERS], description: "the provider's quality tier" },
    collateral_token: collateralToken,
    ...collateralAmount("free_collateral", "collateral not locked", "600"),
    ...collateralAmount("locked_collateral", "collateral locked by open redemptions", "15"),
    ...collateralAmount("required_collateral", "what the provider's available capacity requires", "540"),
    ...s.sstbAmount("available_cu_value", "capacity free for new redemptions", "450"),
    ...s.sstbAmount("total_cu_value", "verified capacity not yet retired", "500"),
    staked_until: { ...s.unix, description: "Unix seconds: the provider's stake ends" },
  },
  "A provider's collateral (free and locked) and capacity, live from the registry.",
);
const ProviderCollateral = component("ProviderCollateral", collateralSchema, exampleOf(collateralSchema));

const accessDetailsSchema = s.object(
  {
    redemption_id: { type: "string", description: "the redemption", examples: ["7"] },
    envelope: {
      type: "string",
      description: "the stbad1. envelope the provider published: open it with the user's access key",
      examples: ["stbad1.eyJ2IjoxLCJlcGsiOiIuLi4ifQ"],
    },
    fulfilled_at: { ...s.unix, description: "Unix seconds: fulfilment" },
    transaction_hash: { ...s.txHash, description: "the fulfilment's transaction" },
  },
  "The access details of a fulfilled redemption, encrypted to its user (DESIGN.md section 5).",
);
const AccessDetailsEnvelope = component("AccessDetailsEnvelope", accessDetailsSchema, exampleOf(accessDetailsSchema));

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
        description:
          "Redemptions of the key's (or the portal session's) account, as the user who redeemed or as the provider " +
          "asked, newest first, with their terms (fee, locked collateral) and dispute.",
        querystring: s.query({
          role: {
            type: "string",
            enum: ["user", "provider"],
            default: "user",
            description: "the account's side: `user` (redeemed) or `provider` (asked to fulfil)",
          },
          status: {
            type: "string",
            enum: REDEMPTION_STATUSES.filter((x) => x !== "none"),
            description: "only redemptions in this status",
          },
          lease_status: {
            type: "string",
            enum: LEASE_STATUS_FILTERS,
            description:
              "of the lease the redemption belongs to (chain time); `none`: not fulfilled (no lease). A provider " +
              "finds what to fulfil with `role=provider&status=pending`, its running leases with `lease_status=active`",
          },
          ...s.paging,
        }),
        response: {
          200: s.listEnvelope("redemptions", AccountRedemption, "A page of the account's redemptions"),
          ...s.errors,
        },
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
          ...amount("fee", v.row.fee),
          ...amount("collateral_locked", v.row.lock, decimals),
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
        description:
          "The envelope of the fulfilment, for the redemption's user (who opens it with the access key) or its " +
          "provider; any other account is refused with authorization_error.",
        params: s.params({ redemptionId: { ...s.idParam, description: "the on-chain redemption id" } }),
        response: { 200: s.envelope(AccessDetailsEnvelope, "The access-details envelope"), ...s.errors },
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
        description:
          "Reads the redemption manager and the registry live: the fee, the total to approve, the deadline, the " +
          "collateral it would lock, the compensation if the provider fails, and why it would be refused now. Give " +
          "the amount as `sstb_amount` (whole sSTB) or exactly as `sstb_amount_base_units`.",
        querystring: {
          ...s.query({
            sstb_amount: {
              type: "number",
              exclusiveMinimum: 0,
              description: "whole sSTB to redeem (or sstb_amount_base_units)",
            },
            sstb_amount_base_units: {
              type: "string",
              pattern: "^[0-9]{1,78}$",
              description: "sSTB to redeem, exactly: base units (18 decimals), a decimal string",
            },
            provider_id: { ...s.addressParam, description: "the provider to redeem with" },
          }),
          required: ["provider_id"],
        },
        response: { 200: s.envelope(RedemptionQuote, "The quote"), ...s.errors },
      },
    },
    async (request) => {
      const q = request.query as { sstb_amount?: number; sstb_amount_base_units?: string; provider_id: string };
      const amountBase = amountOf(q, "sstb_amount");
      const provider = getAddress(q.provider_id);
      const [r, token] = await live(() =>
        Promise.all([quoteRedemption(client, { amount: amountBase, provider }), collateralTokenOf()]),
      );
      const c = <N extends string>(name: N, value: bigint) => amount(name, value, token.decimals);
      const now = Math.floor(Date.now() / 1000);
      return ok({
        ...amount("sstb_amount", r.amount),
        provider_id: provider,
        ...amount("fee", r.fee),
        ...amount("total", r.total),
        ...amount("minimum", r.minimum),
        tier: r.tier,
        fulfilment_seconds: Number(r.fulfilmentSeconds),
        deadline: Number(r.deadline),
        collateral_token: token,
        ...c("collateral_locked", r.lock),
        collateral_ratio_bps: Number(r.ratioBps),
        compensation: {
          ...c("if_expired_during_stake", r.compensation.ifExpiredDuringStake),
          ...c("if_expired_after_stake", r.compensation.ifExpiredAfterStake),
          ...c("if_dispute_won", r.compensation.ifDisputeWon),
          provider_staked_until: Number(r.provider.stakedUntil),
          applies_now: Number(r.provider.stakedUntil) > now ? ("during_stake" as const) : ("after_stake" as const),
        },
        provider_status: r.provider.status,
        ...amount("provider_available_cu_value", r.provider.availableCU),
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
        description:
          "Read live from the provider registry: free and locked collateral, what the available capacity " +
          "requires, the capacity and the end of the stake.",
        params: s.params({ providerId: { ...s.addressParam, description: "the provider's chain address" } }),
        response: { 200: s.envelope(ProviderCollateral, "The provider's collateral"), ...s.errors },
      },
    },
    async (request) => {
      const providerId = getAddress((request.params as { providerId: string }).providerId);
      const registry = getContract(client, "ProviderRegistry");
      const [account, token] = await live(() => Promise.all([registry.accountOf(providerId), collateralTokenOf()]));
      if (Number(account.status) === 0) throw notFound("provider", providerId);
      const required = await live(() => registry.requiredCollateral(account.availableCU));
      const c = <N extends string>(name: N, value: bigint) => amount(name, value, token.decimals);
      return ok({
        provider_id: providerId,
        status: PROVIDER_STATUSES[Number(account.status)],
        tier: PROVIDER_TIERS[Number(account.tier)],
        collateral_token: token,
        ...c("free_collateral", account.freeCollateral),
        ...c("locked_collateral", account.lockedCollateral),
        ...c("required_collateral", required),
        ...amount("available_cu_value", account.availableCU),
        ...amount("total_cu_value", account.totalCU),
        staked_until: Number(account.stakedUntil),
      });
    },
  );
}
