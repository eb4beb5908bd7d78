import { ZeroAddress, formatEther } from "ethers";
import type { FastifyInstance, FastifyRequest } from "fastify";

import type { DeployedChain } from "@compute-capacity/sdk";
import { QuoteInputError } from "../../chain/bridge-fees.js";
import { chainOfSelector } from "../../indexer/modules/bridge.js";
import type { BridgeFeeQuoter } from "../../chain/bridge-fees.js";
import type { ReadModel } from "../../store/queries.js";
import { baseUnitsOf } from "../amounts.js";
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
  const cuQuery = s.query({
    provider_id: s.addressParam,
    min_value: s.amountFilter,
    max_value: s.amountFilter,
    ...s.paging,
  });
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
        querystring: cuQuery,
        response: { 200: s.listEnvelope("compute_units", s.computeUnitItem), ...s.errors },
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
        querystring: cuQuery,
        response: { 200: s.listEnvelope("compute_resources", s.computeUnitItem), ...s.errors },
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
        params: s.params({ cu_id: s.idParam }),
        response: { 200: s.envelope(s.computeUnitDetail), ...s.errors },
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
        params: s.params({ resourceId: s.idParam }),
        response: { 200: s.envelope(s.computeUnitDetail), ...s.errors },
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
    params: s.params({ providerId: s.addressParam }),
    querystring: s.query({ min_value: s.amountFilter, max_value: s.amountFilter, ...s.paging }),
    response: { 200: s.listEnvelope("compute_resources", s.computeUnitItem), ...s.errors },
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
    status: { type: "string", enum: ["active", "pending", "suspended"] },
    min_reputation: { type: "number", minimum: 0, maximum: 100 },
    location: { type: "string", minLength: 1, maxLength: 100, description: "country or region" },
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
    querystring: providerQuery,
    response: { 200: s.listEnvelope("providers", s.providerItem), ...s.errors },
  };
  app.get("/providers/list", { schema: providerList }, listProviders);
  app.get("/providers", { schema: providerList }, listProviders);
  app.get(
    "/providers/:providerId",
    {
      schema: {
        tags: ["providers"],
        summary: "A provider (detail form)",
        params: s.params({ providerId: s.addressParam }),
        response: { 200: s.envelope(s.providerDetail), ...s.errors },
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
        params: s.params({ redemptionId: s.idParam }),
        response: { 200: s.envelope(s.redemption), ...s.errors },
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
        querystring: s.query({}),
        response: { 200: s.envelope(s.sstbBalance), ...s.errors },
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
        sstb_balance: Number(formatEther(total)),
        sstb_balance_base_units: total.toString(),
        balances: rows.map((r) => ({
          chain: byChainId.get(r.chainId) ?? String(r.chainId),
          native_chain_id: r.chainId,
          sstb_balance: format.sstb(r.balance),
          sstb_balance_base_units: BigInt(r.balance).toString(),
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
        querystring: s.query({
          market_type: { type: "string", enum: ["spot", "futures", "options"] },
          provider_id: { ...s.addressParam, description: "the seller (maker)" },
          min_price: { ...s.amountFilter, description: "whole USDC per sSTB" },
          max_price: { ...s.amountFilter, description: "whole USDC per sSTB" },
          ...s.paging,
        }),
        response: { 200: s.listEnvelope("listings", s.listingItem), ...s.errors },
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
        params: s.params({ listing_id: s.idParam }),
        response: { 200: s.envelope(s.listingDetail), ...s.errors },
      },
    },
    async (request) => {
      const { listing_id: id } = request.params as { listing_id: number };
      const row = await model.listing(id);
      if (row === undefined) throw notFound("listing", id);
      return ok(format.listingDetail(row));
    },
  );

  // --- bridge chains, from the deployment (a list like every other: total, page, limit) ---
  app.get(
    "/bridge/chains",
    {
      schema: {
        tags: ["bridge"],
        summary: "Chains of the deployment and their bridge contracts",
        querystring: s.query({ ...s.paging }),
        response: { 200: s.listEnvelope("chains", s.bridgeChain), ...s.errors },
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
        querystring: {
          ...s.query({
            source_chain: { type: "string", minLength: 1, maxLength: 40 },
            destination_chain: { type: "string", minLength: 1, maxLength: 40 },
            amount: { type: "number", exclusiveMinimum: 0, maximum: 7.9e10 },
            token: { type: "string", enum: ["sSTB", "STBGOV"], default: "sSTB" },
          }),
          required: ["source_chain", "destination_chain", "amount"],
        },
        response: { 200: s.envelope(s.bridgeFeeQuote), ...s.errors },
      },
    },
    async (request) => {
      const q = request.query as {
        source_chain: string;
        destination_chain: string;
        amount: number;
        token: "sSTB" | "STBGOV";
      };
      const amount = baseUnitsOf(q.amount, "amount");
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
        params: s.params({ message_id: { type: "string", pattern: "^(0x[0-9a-fA-F]{64}|[0-9]{1,78})$" } }),
        response: { 200: s.envelope(s.bridgeTransaction), ...s.errors },
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
