import { ZeroAddress } from "ethers";
import type { FastifyInstance } from "fastify";

import type { DeployedChain } from "@compute-capacity/sdk";
import { QuoteInputError } from "../../chain/bridge-fees.js";
import { chainOfSelector } from "../../indexer/modules/bridge.js";
import type { BridgeFeeQuoter } from "../../chain/bridge-fees.js";
import type { ReadModel } from "../../store/queries.js";
import { amountOf } from "../../api/amounts.js";
import { invalidParameter, notFound } from "../../api/errors.js";
import * as format from "../../api/format.js";
import * as s from "../../api/schemas.js";
import { accountOf, list, ok } from "./replies.js";
import type { Paging } from "./replies.js";

export interface ReadRouteOptions {
  model: ReadModel;
  chains: readonly DeployedChain[];
  /** Display names of chains by deployment name. */
  chainLabels: Record<string, string>;
  /** Live fee quotes from the source chain's bridge. */
  bridgeFees: Pick<BridgeFeeQuoter, "quote">;
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
