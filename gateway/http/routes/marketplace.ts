import type { FastifyInstance } from "fastify";

import type { ReadModel } from "../../store/queries.js";
import { invalidParameter, notFound } from "../../api/errors.js";
import * as format from "../../api/format.js";
import * as s from "../../api/schemas.js";
import { accountOf, list, ok } from "./replies.js";
import type { Paging } from "./replies.js";

/**
 * The marketplace (reference set): the open positions of the spot, futures and options markets, a
 * position in any status (both cacheable), and an account's claimable balances in the markets.
 */
export async function marketplaceRoutes(app: FastifyInstance, options: { model: ReadModel }): Promise<void> {
  const { model } = options;
  const config = { cache: true };

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
      config,
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
      config,
    },
    async (request) => {
      const { listing_id: id } = request.params as { listing_id: number };
      const row = await model.listing(id);
      if (row === undefined) throw notFound("listing", id);
      return ok(format.listingDetail(row));
    },
  );

  // the markets' claimable balances (payments the token refused to send their recipient)
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
}
