import { getAddress } from "ethers";
import type { FastifyInstance, FastifyRequest } from "fastify";

import { PROVIDER_STATUSES, PROVIDER_TIERS, getContract } from "@compute-capacity/sdk";
import type { ReadModel } from "../../store/queries.js";
import { component, exampleOf } from "../../api/components.js";
import { notFound } from "../../api/errors.js";
import { amount } from "../../api/format.js";
import * as format from "../../api/format.js";
import * as s from "../../api/schemas.js";
import { unitsOfProvider } from "./cu.js";
import { collateralAmount, collateralToken } from "./primary.js";
import type { PrimaryChain } from "./primary.js";
import { list, ok } from "./replies.js";
import type { Paging } from "./replies.js";

export interface ProviderRouteOptions {
  model: ReadModel;
  /** The primary chain read live (none: a provider's collateral is not served). */
  primary?: PrimaryChain;
}

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

/**
 * Providers: the list and a provider (from the indexed store, cacheable), its compute units, and
 * its collateral read live from the registry.
 */
export async function providerRoutes(app: FastifyInstance, options: ProviderRouteOptions): Promise<void> {
  const { model, primary } = options;
  const config = { cache: true };

  const units = unitsOfProvider(model);
  app.get(
    "/providers/:providerId/compute-resources",
    { schema: { ...units.schema, tags: ["providers"], summary: "Compute resources of a provider" }, config },
    units.handler,
  );

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
  app.get("/providers/list", { schema: providerList, config }, listProviders);
  app.get("/providers", { schema: providerList, config }, listProviders);
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
      config,
    },
    async (request) => {
      const { providerId } = request.params as { providerId: string };
      const row = await model.provider(providerId);
      if (row === undefined) throw notFound("provider", providerId);
      return ok(format.providerDetail(row));
    },
  );

  if (primary === undefined) return;
  const { client, live } = primary;
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
      const [account, token] = await live(() =>
        Promise.all([registry.accountOf(providerId), primary.collateralToken()]),
      );
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
