import { getAddress } from "ethers";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { and, asc, eq, inArray, sql } from "drizzle-orm";

import {
  ISSUE_TYPES,
  PROVIDER_STATUSES,
  PROVIDER_TIERS,
  REDEMPTION_STATUSES,
  quoteRedemption,
} from "@compute-capacity/sdk";
import type { IssueTypeName } from "@compute-capacity/sdk";
import type { Db } from "../../store/db.js";
import { LEASE_STATUS_FILTERS, listRedemptionViews } from "../../store/queries.js";
import type { LeaseStatusFilter, ReadModel } from "../../store/queries.js";
import { accessPublicKeys, events, redemptions } from "../../store/schema.js";
import type { Specifications, WriteService } from "../../writes/operations.js";
import { amountOf } from "../../api/amounts.js";
import { component, exampleOf } from "../../api/components.js";
import { ApiError, invalidParameter, notFound } from "../../api/errors.js";
import { amount, redemption as redemptionView } from "../../api/format.js";
import * as s from "../../api/schemas.js";
import { FREE_TEXT } from "../../api/text.js";
import { DEPRECATED_AT, SUNSET } from "../deprecation.js";
import { collateralAmount, collateralToken } from "./primary.js";
import type { PrimaryChain } from "./primary.js";
import { accountOf, ok } from "./replies.js";
import { body, outcome, writeValidation } from "./write-shapes.js";

export interface RedemptionRouteOptions {
  model: ReadModel;
  /**
   * The store and the primary chain read live (none: the account's redemptions, a quote and the
   * access details are not served).
   */
  account?: { db: Db; primary: PrimaryChain };
  /** The write operations (none: redeem, confirm, dispute and what was asked are not served). */
  writes?: WriteService;
}

const address = s.addressParam;
const hardware = (description: string) => ({ type: "number", minimum: 0, maximum: 1e9, description }) as const;
const specifications = body({
  cpu_cores: hardware("CPU cores"),
  ram_gb: hardware("memory, GB"),
  storage_gb: hardware("storage, GB"),
  network_mbps: hardware("network bandwidth, Mbit/s"),
});
const redemptionIdParams = s.params({ redemptionId: { ...s.idParam, description: "the on-chain redemption id" } });
const redemptionId = { type: "string", description: "the on-chain redemption id", examples: ["7"] } as const;

const InitiateRedemptionResult = outcome("InitiateRedemptionResult", "A redemption made through the gateway.", {
  redemption_id: { ...redemptionId, description: "managed: the new redemption's id" },
  status: { type: "string", const: "pending", description: "managed: a new redemption is pending" },
  ...s.sstbAmount("sstb_amount", "sSTB redeemed (the fee is on top)"),
  provider_id: { ...address, description: "the provider" },
  initiated_at: { ...s.unix, description: "managed: Unix seconds, the initiation's block time" },
  estimated_fulfillment_time: { ...s.unix, description: "managed: Unix seconds, the on-chain fulfilment deadline" },
});
const ConfirmRedemptionResult = outcome("ConfirmRedemptionResult", "A redemption confirmed by its user.", {
  redemption_id: redemptionId,
  status: { type: "string", const: "confirmed", description: "managed: the redemption is confirmed" },
});
const OpenDisputeResult = outcome("OpenDisputeResult", "A dispute opened by the redemption's user.", {
  redemption_id: redemptionId,
  status: { type: "string", const: "disputed", description: "managed: the redemption is disputed" },
  issue_type: { type: "string", description: "the issue type", examples: ["not_delivered"] },
  evidence_hash: { ...s.txHash, description: "keccak256 of the stored evidence document (on-chain)" },
});
const disputeEvidenceSchema = s.object(
  {
    redemption_id: redemptionId,
    issue_type: { type: "string", description: "the issue type", examples: ["not_delivered"] },
    description: { type: "string", description: "the user's description", examples: ["No SSH access after 6 hours"] },
    evidence: {
      description: "the evidence as submitted: text, or any JSON object or array",
      examples: [{ log: "ssh: connect to host port 22: Connection refused" }],
    },
    document: {
      type: "string",
      description: "the canonical JSON whose keccak256 is the on-chain hash",
      examples: ['{"description":"No SSH access after 6 hours","evidence":{},"issue_type":"not_delivered"}'],
    },
    evidence_hash: { ...s.txHash, description: "the on-chain evidence hash" },
    transaction_hash: {
      ...s.txHash,
      type: ["string", "null"],
      description: "the dispute's transaction; null if unsent",
    },
    created_at: { ...s.unix, description: "Unix seconds: when the gateway stored it" },
  },
  "The evidence of a dispute opened through the gateway (for the redemption's user or provider).",
);
const DisputeEvidence = component("DisputeEvidence", disputeEvidenceSchema, exampleOf(disputeEvidenceSchema));

const redemptionRequestSchema = s.object(
  {
    redemption_id: redemptionId,
    provider_id: { ...address, description: "the provider" },
    user: { ...address, description: "the user", examples: [s.EXAMPLE.user] },
    specifications: {
      type: ["object", "null"],
      additionalProperties: false,
      properties: specifications.properties,
      description: "the reference body's specifications; null for the short body",
      examples: [{ cpu_cores: 8, ram_gb: 32, storage_gb: 200, network_mbps: 1000 }],
    },
    transaction_hash: { ...s.txHash, description: "the initiation's transaction" },
    created_at: { ...s.unix, description: "Unix seconds: when the gateway sent it" },
  },
  "What the user asked for with a redemption made through the gateway (for its user and provider).",
);
const RedemptionRequest = component("RedemptionRequest", redemptionRequestSchema, exampleOf(redemptionRequestSchema));

const nullableString = (description: string, example: string) =>
  ({ type: ["string", "null"], description, examples: [example] }) as const;
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

/**
 * Redemptions, every verb (SPEC.md "Endpoints" and what the portal needs beside them, issue 20):
 *
 * - a redemption as the indexer last saw it (any key: redemptions are public on-chain; cacheable);
 * - the key's (or the portal session's) account's redemptions as user or as provider, a fulfilled
 *   one's access-details envelope, and a quote before one is signed (fee, deadline, lock,
 *   compensation), read live from the primary chain through the SDK;
 * - the writes for the key's account: redeem (the reference body with `specifications` and the
 *   short body without), confirm, dispute (and its stored evidence), and what the user asked for.
 *   The gateway signs for a managed account; an external account gets the unsigned transactions.
 */
export async function redemptionRoutes(app: FastifyInstance, options: RedemptionRouteOptions): Promise<void> {
  const { model, writes } = options;

  app.get(
    "/redemptions/:redemptionId",
    {
      schema: {
        tags: ["redemptions"],
        summary: "A redemption, its status, its lease and the user's access key",
        description:
          "One redemption as the indexer last saw it: its status, deadline, outcome times, the lease it belongs " +
          "to and the access key the user registered. Readable by any key (redemptions are public on-chain).",
        params: redemptionIdParams,
        response: { 200: s.envelope(s.Redemption, "The redemption"), ...s.errors },
      },
      config: { cache: true },
    },
    async (request) => {
      const { redemptionId } = request.params as { redemptionId: number };
      const view = await model.redemption(redemptionId);
      if (view === undefined) throw notFound("redemption", redemptionId);
      return ok(redemptionView(view));
    },
  );

  if (options.account !== undefined) {
    const { db, primary: chain } = options.account;
    const { deployed: primary, client, live } = chain;
    const collateralTokenOf = () => chain.collateralToken();

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
          summary:
            "The access-details envelope the provider published (encrypted to the user; for its user or provider)",
          description:
            "The envelope of the fulfilment, for the redemption's user (who opens it with the access key) or its " +
            "provider; any other account is refused with authorization_error.",
          params: redemptionIdParams,
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
  }

  if (writes !== undefined) {
    app.post(
      "/redemptions",
      {
        ...writeValidation,
        schema: {
          tags: ["redemptions"],
          summary: "Redeem sSTB with a provider (reference body with specifications, or the short body)",
          description:
            "Burns `sstb_amount` sSTB (plus the 0.1% fee) of the key's account for compute from the provider, " +
            "approving the redemption manager first when the allowance is short. Checked before anything is sent: " +
            "the amount, the provider (active, with the capacity and hardware asked for), the minimum, the balance. " +
            "Give the amount as `sstb_amount` (a number, or exactly a decimal string) or as `sstb_amount_base_units`.",
          body: body(
            {
              ...s.sstbInput("sstb_amount", "sSTB to redeem (the fee is taken on top)"),
              provider_id: { ...address, description: "the provider to redeem with" },
              specifications: { ...specifications, description: "the hardware asked for (reference body)" },
            },
            ["provider_id"],
          ),
          response: {
            200: s.envelope(InitiateRedemptionResult, "The redemption (managed) or its transactions (external)"),
            ...s.errors,
          },
        },
      },
      async (request) => {
        const input = request.body as {
          sstb_amount?: number | string;
          sstb_amount_base_units?: string;
          provider_id: string;
          specifications?: Specifications;
        };
        const amount = amountOf(input, "sstb_amount");
        return { success: true, data: await writes.redeem(accountOf(request), { ...input, amount }) };
      },
    );

    app.post(
      "/redemptions/:redemptionId/confirm",
      {
        ...writeValidation,
        schema: {
          tags: ["redemptions"],
          summary: "Confirm a fulfilled redemption (no body fields)",
          description:
            "The redemption's user confirms that the access works: the redemption completes and the provider's " +
            "collateral for it is released. No body fields (an empty body or `{}`).",
          params: redemptionIdParams,
          response: {
            200: s.envelope(ConfirmRedemptionResult, "The confirmation (managed) or its transaction (external)"),
            ...s.errors,
          },
        },
        preValidation: async (request) => {
          const b = request.body as unknown;
          const empty =
            b === undefined ||
            b === null ||
            (typeof b === "object" && !Array.isArray(b) && Object.keys(b).length === 0);
          if (!empty) throw invalidParameter("body", "must be empty or {} (the confirm route takes no fields)");
        },
      },
      async (request) => {
        const { redemptionId } = request.params as { redemptionId: number };
        return { success: true, data: await writes.confirm(accountOf(request), redemptionId) };
      },
    );

    app.post(
      "/redemptions/:redemptionId/dispute",
      {
        ...writeValidation,
        schema: {
          tags: ["redemptions"],
          summary: "Open a dispute; the evidence is stored by the gateway and its hash goes on-chain",
          description:
            "The redemption's user disputes it (within 72 hours of the request or the access provision). The " +
            "gateway stores the evidence as a canonical JSON document and sends its keccak256 on-chain.",
          params: redemptionIdParams,
          body: body({
            issue_type: { type: "string", enum: [...ISSUE_TYPES], description: "what went wrong" },
            description: {
              type: "string",
              minLength: 1,
              maxLength: 4_000,
              description: "free text: tabs and line breaks allowed, other control characters refused",
              [FREE_TEXT]: true,
            },
            evidence: {
              type: ["string", "object", "array"],
              description:
                "text (a URL, a log excerpt) or any JSON object or array; its strings are free text (tabs and " +
                "line breaks allowed, other control characters refused; names never hold control characters)",
              [FREE_TEXT]: true,
            },
          }),
          response: {
            200: s.envelope(OpenDisputeResult, "The dispute (managed) or its transaction (external)"),
            ...s.errors,
          },
        },
      },
      async (request) => {
        const { redemptionId } = request.params as { redemptionId: number };
        const input = request.body as { issue_type: IssueTypeName; description: string; evidence: unknown };
        return { success: true, data: await writes.dispute(accountOf(request), redemptionId, input) };
      },
    );

    app.get(
      "/redemptions/:redemptionId/dispute",
      {
        ...writeValidation,
        schema: {
          tags: ["redemptions"],
          summary: "The stored dispute evidence (for the redemption's user or provider)",
          description: "The evidence as the user submitted it and the canonical document whose hash is on-chain.",
          params: redemptionIdParams,
          response: { 200: s.envelope(DisputeEvidence, "The dispute's evidence"), ...s.errors },
        },
      },
      async (request) => {
        const { redemptionId } = request.params as { redemptionId: number };
        return { success: true, data: await writes.evidence(accountOf(request), redemptionId) };
      },
    );

    app.get(
      "/redemptions/:redemptionId/specifications",
      {
        ...writeValidation,
        schema: {
          tags: ["redemptions"],
          summary: "What the user asked for with a redemption made through the gateway (for its user and provider)",
          description:
            "The reference body's specifications of a redemption initiated through the gateway, for the provider " +
            "to allocate what was asked (null for the short body).",
          params: redemptionIdParams,
          response: { 200: s.envelope(RedemptionRequest, "What was asked"), ...s.errors },
        },
      },
      async (request) => {
        const { redemptionId } = request.params as { redemptionId: number };
        return { success: true, data: await writes.request(accountOf(request), redemptionId) };
      },
    );
  }
}
