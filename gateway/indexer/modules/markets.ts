import { Contract } from "ethers";
import type { JsonRpcProvider } from "ethers";
import { and, eq, sql } from "drizzle-orm";

import { LISTING_STATUSES, MARKET_TYPES, POSITION_KINDS, TRADE_TYPES } from "@compute-capacity/sdk";
import { FuturesMarket__factory, OptionsMarket__factory, SpotMarket__factory } from "../../../typechain-types/index.js";
import type { Tx } from "../../store/db.js";
import { claimableBalances, listings, trades } from "../../store/schema.js";
import { marketTypeOf } from "../../http/format.js";
import { addr, big, num } from "../module.js";
import type { ChainContext, ContractModule, StoredEvent } from "../module.js";

const status = (name: (typeof LISTING_STATUSES)[number]) => name;

/**
 * Listings and trades of the three markets. A position's status follows its events: created
 * `active`; spot fills leave it active until nothing remains (`filled`); a future taken is
 * `matched`, then `settled`; an option bought is `sold`, fully exercised `exercised`, returned after
 * expiry `reclaimed`; `cancelled` and `expired` end it. Claimable balances (payments the token
 * refused, held for their recipient) follow `ClaimableCredited` and `ClaimableWithdrawn`.
 */
async function apply(tx: Tx, e: StoredEvent, context: ChainContext): Promise<void> {
  const a = e.args;
  const where = and(eq(listings.chainId, e.chainId), eq(listings.listingId, num(a, "listingId")));
  const market = MARKET_TYPES[num(a, "listingId") === 0 ? 0 : ((num(a, "listingId") - 1) % 3) + 1];
  switch (e.name) {
    case "ListingCreated":
    case "OrderCreated": {
      const seller = addr(a, "seller");
      await tx.insert(listings).values({
        chainId: e.chainId,
        listingId: num(a, "listingId"),
        marketType: MARKET_TYPES[num(a, "marketType")] ?? market,
        kind: POSITION_KINDS[num(a, "kind")] ?? "none",
        status: status("active"),
        seller,
        sellerLower: seller.toLowerCase(),
        amount: big(a, "amount").toString(),
        remaining: big(a, "amount").toString(),
        pricePerToken: big(a, "pricePerToken").toString(),
        strikePrice: e.name === "ListingCreated" ? big(a, "strikePrice").toString() : "0",
        listedAt: num(a, "listedAt"),
        expiration: num(a, "expiration"),
      });
      return;
    }
    case "ListingPurchased":
    case "OrderFilled": {
      const remaining = big(a, "remaining");
      const taken =
        market === "spot" ? (remaining === 0n ? "filled" : "active") : market === "futures" ? "matched" : "sold";
      const counterparty = e.name === "ListingPurchased" ? addr(a, "buyer") : addr(a, "seller");
      await tx
        .update(listings)
        .set({ remaining: remaining.toString(), status: status(taken), ...(market === "spot" ? {} : { counterparty }) })
        .where(where);
      return;
    }
    case "FutureSettled":
      await tx
        .update(listings)
        .set({ status: status("settled"), remaining: "0" })
        .where(where);
      return;
    case "OptionExercised": {
      const remaining = big(a, "remaining");
      await tx
        .update(listings)
        .set({ remaining: remaining.toString(), ...(remaining === 0n ? { status: status("exercised") } : {}) })
        .where(where);
      return;
    }
    case "OptionTransferred":
      await tx
        .update(listings)
        .set({ counterparty: addr(a, "to") })
        .where(where);
      return;
    case "OptionReclaimed":
      await tx
        .update(listings)
        .set({ status: status("reclaimed"), remaining: "0" })
        .where(where);
      return;
    case "ListingCancelled":
      await tx
        .update(listings)
        .set({ status: status("cancelled"), remaining: "0" })
        .where(where);
      return;
    case "ListingExpired":
      await tx
        .update(listings)
        .set({ status: status("expired"), remaining: "0" })
        .where(where);
      return;
    case "ClaimableCredited":
    case "ClaimableWithdrawn": {
      const account = addr(a, "account");
      const token = addr(a, "token");
      const value = big(a, "amount");
      const credited = e.name === "ClaimableCredited";
      const { symbol, decimals } = claimableTokenOf(a, token, context);
      await tx
        .insert(claimableBalances)
        .values({
          chainId: e.chainId,
          market: e.address,
          marketType: marketTypeOf(e.contract),
          account,
          accountLower: account.toLowerCase(),
          token,
          tokenSymbol: symbol,
          tokenDecimals: decimals,
          amount: credited ? value.toString() : "0",
          creditedTotal: credited ? value.toString() : "0",
          updatedAt: e.timestamp,
        })
        .onConflictDoUpdate({
          target: [
            claimableBalances.chainId,
            claimableBalances.market,
            claimableBalances.accountLower,
            claimableBalances.token,
          ],
          set: credited
            ? {
                amount: sql`${claimableBalances.amount} + ${value.toString()}`,
                creditedTotal: sql`${claimableBalances.creditedTotal} + ${value.toString()}`,
                updatedAt: e.timestamp,
              }
            : { amount: sql`${claimableBalances.amount} - ${value.toString()}`, updatedAt: e.timestamp },
        });
      return;
    }
    case "TradeExecuted":
      await tx.insert(trades).values({
        chainId: e.chainId,
        blockNumber: e.blockNumber,
        logIndex: e.logIndex,
        listingId: num(a, "listingId"),
        tradeType: TRADE_TYPES[num(a, "tradeType")] ?? "none",
        buyer: addr(a, "buyer"),
        seller: addr(a, "seller"),
        amount: big(a, "amount").toString(),
        price: big(a, "price").toString(),
        payment: big(a, "payment").toString(),
        fee: big(a, "fee").toString(),
        timestamp: e.timestamp,
      });
      return;
  }
}

const ERC20_METADATA = ["function symbol() view returns (string)", "function decimals() view returns (uint8)"];
const metadata = new Map<string, Promise<{ tokenSymbol: string; tokenDecimals: number }>>();

/**
 * A claimable balance's token, read once per token when its first event is indexed and kept with
 * the event's args (a replay needs no RPC).
 */
async function enrich(e: StoredEvent, rpc: JsonRpcProvider): Promise<Record<string, unknown>> {
  if (e.name !== "ClaimableCredited" && e.name !== "ClaimableWithdrawn") return {};
  const token = addr(e.args, "token");
  const key = `${e.chainId}:${token.toLowerCase()}`;
  let read = metadata.get(key);
  if (read === undefined) {
    const erc20 = new Contract(token, ERC20_METADATA, rpc);
    read = Promise.all([erc20.symbol() as Promise<string>, erc20.decimals() as Promise<bigint>]).then(
      ([tokenSymbol, decimals]) => ({ tokenSymbol, tokenDecimals: Number(decimals) }),
    );
    read.catch(() => metadata.delete(key)); // a failed read is tried again with the next event
    metadata.set(key, read);
  }
  return read;
}

/**
 * The token of a claimable event: as enriched; for an event stored before enrichment existed, what
 * a market can hold: sSTB (18 decimals) or its payment token, the collateral stablecoin (USDC, 6).
 */
export function claimableTokenOf(a: Record<string, unknown>, token: string, context: ChainContext) {
  if (typeof a.tokenSymbol === "string" && a.tokenDecimals !== undefined) {
    return { symbol: a.tokenSymbol, decimals: Number(a.tokenDecimals) };
  }
  return token.toLowerCase() === context.contracts.SSTB?.toLowerCase()
    ? { symbol: "sSTB", decimals: 18 }
    : { symbol: "USDC", decimals: 6 };
}

export const spotMarketModule: ContractModule = {
  contract: "SpotMarket",
  iface: SpotMarket__factory.createInterface(),
  enrich,
  apply,
};
export const futuresMarketModule: ContractModule = {
  contract: "FuturesMarket",
  iface: FuturesMarket__factory.createInterface(),
  enrich,
  apply,
};
export const optionsMarketModule: ContractModule = {
  contract: "OptionsMarket",
  iface: OptionsMarket__factory.createInterface(),
  enrich,
  apply,
};
