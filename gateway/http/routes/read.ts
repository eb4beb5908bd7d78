import { ZeroAddress } from "ethers";
import type { FastifyInstance, FastifyRequest } from "fastify";

import type { DeployedChain } from "@compute-capacity/sdk";
import { QuoteInputError } from "../../chain/bridge-fees.js";
import { chainOfSelector } from "../../indexer/modules/bridge.js";
import type { BridgeFeeQuoter } from "../../chain/bridge-fees.js";
import type { ReadModel } from "../../store/queries.js";
import { amountOf } from "../amounts.js";
import { ApiError, invalidParameter, notFound } from "../errors.js";
import * as format from "../format.js";
import * as s from "../schemas.js";

export interface ReadRouteOptions {
  model: ReadModel;
  chains: readonly DeployedChain[];
  /** Display names of chains by deployment name. */
  chainLabels: Record<string, string>;
  /** Live fee quotes from the source chain's bridge. */
  bridgeFees: Pick<BridgeFeeQuoter, "quote">;
}

type Paging = { page: number; limit: number };

const list = (name: string, rows: unknown[], total: number, paging: Paging) => ({
  success: true as const,
  data: { [name]: rows, total, page: paging.page, limit: paging.limit },
});
const ok = <T>(data: T) => ({ success: true as const, data });

/** The API key's account (routes behind authentication always have one). */
export function accountOf(request: FastifyRequest): string {
  if (request.apiKey === undefined) throw new ApiError("authentication_error", "an API key is required");
  return request.apiKey.account;
}

/**
 * Every read route of both sets (SPEC.md "Endpoints"). The plugin is registered under `/api/v1`
 * and under `/v1`, so each route answers under both prefixes.
 */
export async function readRoutes(app: FastifyInstance, options: ReadRouteOptions): Promise<void> {
  const { model } = options;
  // every read route answers the same to every key (the balance route excepted): cacheable
  app.addHook("onRoute", (route) => {
    route.config = { ...route.config, cache: route.config?.cache ?? true };
  });

  // --- compute units (reference set) and compute resources (short set: the same resource) ---
  const minValue = { ...s.amountFilter, description: "only units worth at least this many whole sSTB" };
  const maxValue = { ...s.amountFilter, description: "only units worth at most this many whole sSTB" };
  const cuQuery = s.query({
    provider_id: { ...s.addressParam, description: "only this provider's units (its chain address)" },
    min_value: minValue,
    max_value: maxValue,
    ...s.paging,
  });
  const unitsDescription =
    "Verified compute units, oldest first, filtered by provider and value. Each unit's `cu_value` is the " +
    "sSTB its verification minted.";
  const listUnits = (name: string) => async (request: FastifyRequest) => {
    const q = request.query as { provider_id?: string; min_value?: number; max_value?: number } & Paging;
    if (q.min_value !== undefined && q.max_value !== undefined && q.min_value > q.max_value) {
      throw invalidParameter("min_value", "must not exceed max_value");
    }
    const { rows, total } = await model.listComputeUnits(
      { providerId: q.provider_id, minValue: q.min_value, maxValue: q.max_value },
      q,
    );
    return list(name, rows.map(format.computeUnitItem), total, q);
  };
  app.get(
    "/cu/list",
    {
      schema: {
        tags: ["compute units"],
        summary: "List verified compute units",
        description: unitsDescription,
        querystring: cuQuery,
        response: {
          200: s.listEnvelope("compute_units", s.ComputeUnit, "A page of compute units"),
          ...s.errors,
        },
      },
    },
    listUnits("compute_units"),
  );
  app.get(
    "/compute-resources",
    {
      schema: {
        tags: ["compute units"],
        summary: "List compute resources (the short set's name for compute units)",
        description: `${unitsDescription} The short set's name for \`/cu/list\`; the array is \`compute_resources\`.`,
        querystring: cuQuery,
        response: {
          200: s.listEnvelope("compute_resources", s.ComputeUnit, "A page of compute resources"),
          ...s.errors,
        },
      },
    },
    listUnits("compute_resources"),
  );
  const unitDetail = (param: string) => async (request: FastifyRequest) => {
    const id = (request.params as Record<string, number>)[param];
    const row = await model.computeUnit(id);
    if (row === undefined) throw notFound("compute unit", id);
    return ok(format.computeUnitDetail(row));
  };
  app.get(
    "/cu/:cu_id",
    {
      schema: {
        tags: ["compute units"],
        summary: "A compute unit (detail form)",
        description: "One verified compute unit with its owner, location and benchmark scores.",
        params: s.params({ cu_id: { ...s.idParam, description: "the compute unit's id" } }),
        response: { 200: s.envelope(s.ComputeUnitDetail, "The compute unit"), ...s.errors },
      },
    },
    unitDetail("cu_id"),
  );
  app.get(
    "/compute-resources/:resourceId",
    {
      schema: {
        tags: ["compute units"],
        summary: "A compute resource (the compute unit's detail form)",
        description: "The short set's name for `/cu/{cu_id}`: one verified compute unit, detail form.",
        params: s.params({ resourceId: { ...s.idParam, description: "the compute unit's id" } }),
        response: { 200: s.envelope(s.ComputeUnitDetail, "The compute resource"), ...s.errors },
      },
    },
    unitDetail("resourceId"),
  );
  const unitsOfProvider = async (request: FastifyRequest) => {
    const { providerId } = request.params as { providerId: string };
    const q = request.query as { min_value?: number; max_value?: number } & Paging;
    if ((await model.provider(providerId)) === undefined) throw notFound("provider", providerId);
    const { rows, total } = await model.listComputeUnits(
      { providerId, minValue: q.min_value, maxValue: q.max_value },
      q,
    );
    return list("compute_resources", rows.map(format.computeUnitItem), total, q);
  };
  const providerUnitsSchema = {
    tags: ["compute units"],
    description: "A provider's verified compute units, oldest first, filtered by value; 404 for an unknown provider.",
    params: s.params({ providerId: { ...s.addressParam, description: "the provider's chain address" } }),
    querystring: s.query({ min_value: minValue, max_value: maxValue, ...s.paging }),
    response: {
      200: s.listEnvelope("compute_resources", s.ComputeUnit, "A page of the provider's compute resources"),
      ...s.errors,
    },
  };
  app.get(
    "/compute-resources/provider/:providerId",
    { schema: { ...providerUnitsSchema, summary: "Compute resources of a provider" } },
    unitsOfProvider,
  );
  app.get(
    "/providers/:providerId/compute-resources",
    { schema: { ...providerUnitsSchema, tags: ["providers"], summary: "Compute resources of a provider" } },
    unitsOfProvider,
  );

  // --- providers ---
  const providerQuery = s.query({
    status: { type: "string", enum: ["active", "pending", "suspended"], description: "only providers in this status" },
    min_reputation: {
      type: "number",
      minimum: 0,
      maximum: 100,
      description: "only providers at least this reputable (0..100)",
    },
    location: { type: "string", minLength: 1, maxLength: 100, description: "only providers in this country or region" },
    ...s.paging,
  });
  const listProviders = async (request: FastifyRequest) => {
    const q = request.query as { status?: string; min_reputation?: number; location?: string } & Paging;
    const { rows, total } = await model.listProviders(
      { status: q.status, minReputation: q.min_reputation, location: q.location },
      q,
    );
    return list("providers", rows.map(format.providerItem), total, q);
  };
  const providerList = {
    tags: ["providers"],
    summary: "List providers",
    description:
      "Registered providers, best reputation first, filtered by status, reputation and location. `/providers` " +
      "is the short set's name of `/providers/list`.",
    querystring: providerQuery,
    response: { 200: s.listEnvelope("providers", s.Provider, "A page of providers"), ...s.errors },
  };
  app.get("/providers/list", { schema: providerList }, listProviders);
  app.get("/providers", { schema: providerList }, listProviders);
  app.get(
    "/providers/:providerId",
    {
      schema: {
        tags: ["providers"],
        summary: "A provider (detail form)",
        description: "One provider with its registration, contact, declared hardware and statistics.",
        params: s.params({ providerId: { ...s.addressParam, description: "the provider's chain address" } }),
        response: { 200: s.envelope(s.ProviderDetail, "The provider"), ...s.errors },
      },
    },
    async (request) => {
      const { providerId } = request.params as { providerId: string };
      const row = await model.provider(providerId);
      if (row === undefined) throw notFound("provider", providerId);
      return ok(format.providerDetail(row));
    },
  );

  // --- redemptions (short set) ---
  app.get(
    "/redemptions/:redemptionId",
    {
      schema: {
        tags: ["redemptions"],
        summary: "A redemption, its status, its lease and the user's access key",
        description:
          "One redemption as the indexer last saw it: its status, deadline, outcome times, the lease it belongs " +
          "to and the access key the user registered. Readable by any key (redemptions are public on-chain).",
        params: s.params({ redemptionId: { ...s.idParam, description: "the on-chain redemption id" } }),
        response: { 200: s.envelope(s.Redemption, "The redemption"), ...s.errors },
      },
    },
    async (request) => {
      const { redemptionId } = request.params as { redemptionId: number };
      const view = await model.redemption(redemptionId);
      if (view === undefined) throw notFound("redemption", redemptionId);
      return ok(format.redemption(view));
    },
  );

  // --- sSTB balance of the key's account (short set) ---
  app.get(
    "/sstb/balance",
    {
      schema: {
        tags: ["sSTB"],
        summary: "sSTB balance of the API key's account, per chain and in total",
        description: "The indexed sSTB balance of the key's account on every chain of the deployment, and their sum.",
        querystring: s.query({}),
        response: { 200: s.envelope(s.SstbBalance, "The account's balance"), ...s.errors },
      },
      config: { cache: false },
    },
    async (request) => {
      const account = accountOf(request);
      const rows = await model.balancesOf(account);
      const byChainId = new Map(options.chains.map((c) => [c.chainId, c.chain]));
      const total = rows.reduce((sum, r) => sum + BigInt(r.balance), 0n);
      return ok({
        account,
        ...format.amount("sstb_balance", total),
        balances: rows.map((r) => ({
          chain: byChainId.get(r.chainId) ?? String(r.chainId),
          native_chain_id: r.chainId,
          ...format.amount("sstb_balance", r.balance),
        })),
      });
    },
  );

  // --- verification: GET /verification/:verification_id is in routes/verification.ts ---

  // --- marketplace (reference set): open positions of the three markets ---
  app.get(
    "/marketplace/listings",
    {
      schema: {
        tags: ["marketplace"],
        summary: "Open (active) listings of the spot, futures and options markets",
        description:
          "Positions that can be taken now, newest first, filtered by market, seller and price per token. " +
          "Sell listings and buy orders both show (`/marketplace/listings/{listing_id}` shows any status).",
        querystring: s.query({
          market_type: { type: "string", enum: ["spot", "futures", "options"], description: "only this market" },
          provider_id: { ...s.addressParam, description: "only this seller's (maker's) positions" },
          min_price: { ...s.amountFilter, description: "only positions at least this price: whole USDC per sSTB" },
          max_price: { ...s.amountFilter, description: "only positions at most this price: whole USDC per sSTB" },
          ...s.paging,
        }),
        response: { 200: s.listEnvelope("listings", s.Listing, "A page of open listings"), ...s.errors },
      },
    },
    async (request) => {
      const q = request.query as {
        market_type?: string;
        provider_id?: string;
        min_price?: number;
        max_price?: number;
      } & Paging;
      if (q.min_price !== undefined && q.max_price !== undefined && q.min_price > q.max_price) {
        throw invalidParameter("min_price", "must not exceed max_price");
      }
      const { rows, total } = await model.listListings(
        { marketType: q.market_type, providerId: q.provider_id, minPrice: q.min_price, maxPrice: q.max_price },
        q,
      );
      return list("listings", rows.map(format.listingItem), total, q);
    },
  );
  app.get(
    "/marketplace/listings/:listing_id",
    {
      schema: {
        tags: ["marketplace"],
        summary: "A listing in any status (detail form)",
        description: "One position of any market, in whatever status it now has.",
        params: s.params({ listing_id: { ...s.idParam, description: "the position's id" } }),
        response: { 200: s.envelope(s.ListingDetail, "The listing"), ...s.errors },
      },
    },
    async (request) => {
      const { listing_id: id } = request.params as { listing_id: number };
      const row = await model.listing(id);
      if (row === undefined) throw notFound("listing", id);
      return ok(format.listingDetail(row));
    },
  );

  // --- the markets' claimable balances (payments the token refused to send their recipient) ---
  app.get(
    "/marketplace/claimable",
    {
      schema: {
        tags: ["marketplace"],
        summary: "An account's claimable balances in the markets (payments it could not receive), per token",
        description:
          "When a market's payment to an account is refused by the token (a blacklisted USDC account), the market " +
          "keeps it as the account's claimable balance; the account withdraws it to any address with the market's " +
          "withdrawClaimable(token, to). Lists them per market and token, the largest first: the key's account's " +
          "by default, any account's with `account` (balances are public on-chain).",
        querystring: s.query({
          account: { ...s.addressParam, description: "whose balances (default: the key's account)" },
          token: { ...s.addressParam, description: "only this token's balances" },
          include_empty: {
            type: "boolean",
            default: false,
            description: "also the balances already withdrawn (amount 0)",
          },
          ...s.paging,
        }),
        response: {
          200: s.listEnvelope("claimable_balances", s.ClaimableBalance, "A page of claimable balances"),
          ...s.errors,
        },
      },
      // the key's own account by default: never shared between keys
      config: { cache: false },
    },
    async (request) => {
      const q = request.query as { account?: string; token?: string; include_empty: boolean } & Paging;
      const account = q.account ?? accountOf(request);
      const { rows, total } = await model.claimableBalancesOf(
        account,
        { token: q.token, includeEmpty: q.include_empty },
        q,
      );
      return list("claimable_balances", rows.map(format.claimableBalance), total, q);
    },
  );

  // --- bridge chains, from the deployment (a list like every other: total, page, limit) ---
  app.get(
    "/bridge/chains",
    {
      schema: {
        tags: ["bridge"],
        summary: "Chains of the deployment and their bridge contracts",
        description: "Every chain the deployment spans, the primary first, with its bridge contract and status.",
        querystring: s.query({ ...s.paging }),
        response: { 200: s.listEnvelope("chains", s.BridgeChain, "The deployment's chains"), ...s.errors },
      },
    },
    async (request) => {
      const q = request.query as Paging;
      const chains = options.chains.map((c) => ({
        chain_id: c.chain,
        name: options.chainLabels[c.chain] ?? c.chain,
        native_chain_id: c.chainId ?? 0,
        is_evm_compatible: true,
        bridge_address: c.contracts.Bridge ?? ZeroAddress,
        status: c.contracts.Bridge === undefined ? "unavailable" : "active",
      }));
      return list("chains", chains.slice((q.page - 1) * q.limit, q.page * q.limit), chains.length, q);
    },
  );

  // a chain's name from its id or its CCIP selector (a chain outside the deployment keeps its number)
  const chainOf = ({ chainId, selector }: { chainId?: number; selector?: string }) =>
    chainId === undefined
      ? chainOfSelector(selector!)
      : (options.chains.find((c) => c.chainId === chainId)?.chain ?? `chain-${chainId}`);

  app.get(
    "/bridge/fees",
    {
      schema: {
        tags: ["bridge"],
        summary: "The fees of a transfer, every fee option (live from the source chain's bridge)",
        description:
          "What sending `amount` tokens from one chain to another costs under each fee option (stablecoin, sSTB " +
          "with a discount, STBGOV with a discount), plus CCIP's transport fee; read live, not indexed. Give the " +
          "amount as `amount` (whole tokens) or exactly as `amount_base_units`.",
        querystring: {
          ...s.query({
            source_chain: {
              type: "string",
              minLength: 1,
              maxLength: 40,
              description: "the chain to send from (as /bridge/chains names it)",
            },
            destination_chain: { type: "string", minLength: 1, maxLength: 40, description: "the chain to send to" },
            amount: {
              type: "number",
              exclusiveMinimum: 0,
              maximum: 7.9e10,
              description: "whole tokens to send (or amount_base_units)",
            },
            amount_base_units: {
              type: "string",
              pattern: "^[0-9]{1,78}$",
              description: "tokens to send, exactly: base units (18 decimals), a decimal string",
            },
            token: { type: "string", enum: ["sSTB", "STBGOV"], default: "sSTB", description: "the token to send" },
          }),
          required: ["source_chain", "destination_chain"],
        },
        response: { 200: s.envelope(s.BridgeFeeQuote, "The fee quote"), ...s.errors },
      },
    },
    async (request) => {
      const q = request.query as {
        source_chain: string;
        destination_chain: string;
        amount?: number;
        amount_base_units?: string;
        token: "sSTB" | "STBGOV";
      };
      const amount = amountOf(q, "amount");
      try {
        return ok(await options.bridgeFees.quote(q.source_chain, q.destination_chain, q.token, amount));
      } catch (error) {
        if (error instanceof QuoteInputError) throw invalidParameter(error.parameter, error.message);
        throw error;
      }
    },
  );

  app.get(
    "/bridge/status/:message_id",
    {
      schema: {
        tags: ["bridge"],
        summary: "A bridge transfer by CCIP message id (32-byte hex, or the same number in decimal)",
        description:
          "A transfer as both chains' indexers have seen it: `pending` once sent, `queued` when it arrived but " +
          "waits, `completed` once delivered. Fields only the other side knows are null until it is indexed.",
        params: s.params({
          message_id: {
            type: "string",
            pattern: "^(0x[0-9a-fA-F]{64}|[0-9]{1,78})$",
            description: "the CCIP message id: 32 bytes in hex, or the same number in decimal",
          },
        }),
        response: { 200: s.envelope(s.BridgeTransaction, "The bridge transfer"), ...s.errors },
      },
    },
    async (request) => {
      const { message_id: raw } = request.params as { message_id: string };
      let id = raw.toLowerCase();
      if (!id.startsWith("0x")) {
        const value = BigInt(raw);
        if (value >= 1n << 256n) throw invalidParameter("message_id", "is larger than 32 bytes");
        id = "0x" + value.toString(16).padStart(64, "0");
      }
      const message = await model.bridgeMessage(id);
      if (message === undefined) throw notFound("bridge message", raw);
      return ok(format.bridgeTransaction(message, chainOf));
    },
  );
}
