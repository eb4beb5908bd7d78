import { and, eq } from "drizzle-orm";

import { LISTING_STATUSES, MARKET_TYPES, POSITION_KINDS, TRADE_TYPES } from "@compute-capacity/sdk";
import { FuturesMarket__factory, OptionsMarket__factory, SpotMarket__factory } from "../../../typechain-types/index.js";
import type { Tx } from "../../store/db.js";
import { listings, trades } from "../../store/schema.js";
import { addr, big, num } from "../module.js";
import type { ContractModule, StoredEvent } from "../module.js";

const status = (name: (typeof LISTING_STATUSES)[number]) => name;

/**
 * Listings and trades of the three markets. A position's status follows its events: created
 * `active`; spot fills leave it active until nothing remains (`filled`); a future taken is
 * `matched`, then `settled`; an option bought is `sold`, fully exercised `exercised`, returned after
 * expiry `reclaimed`; `cancelled` and `expired` end it.
 */
async function apply(tx: Tx, e: StoredEvent): Promise<void> {
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

export const spotMarketModule: ContractModule = {
  contract: "SpotMarket",
  iface: SpotMarket__factory.createInterface(),
  apply,
};
export const futuresMarketModule: ContractModule = {
  contract: "FuturesMarket",
  iface: FuturesMarket__factory.createInterface(),
  apply,
};
export const optionsMarketModule: ContractModule = {
  contract: "OptionsMarket",
  iface: OptionsMarket__factory.createInterface(),
  apply,
};
