/**
 * The markets' enums and arithmetic, mirrored from `contracts/interfaces/IMarket.sol` and
 * `contracts/libraries/MarketMath.sol`, for scripts, the demo, the benchmark and the gateway.
 */

/** `IMarket.MarketType`, by index, as the API names them (`market_type`). */
export const MARKET_TYPES = ["none", "spot", "futures", "options"] as const;
/** `IMarket.PositionKind`, by index. */
export const POSITION_KINDS = [
  "none",
  "sell_listing",
  "buy_order",
  "future_sell",
  "future_buy",
  "covered_call",
  "cash_secured_put",
] as const;
/** `IMarket.ListingStatus`, by index, as the API names them (`status`). */
export const LISTING_STATUSES = [
  "none",
  "active",
  "filled",
  "cancelled",
  "expired",
  "matched",
  "settled",
  "sold",
  "exercised",
  "reclaimed",
] as const;
/** `IMarket.TradeType`, by index (GraphQL `marketplaceActivity.activityType`). */
export const TRADE_TYPES = ["none", "spot_fill", "future_settlement", "option_premium", "option_exercise"] as const;

/** sSTB base units per whole sSTB: prices are payment units per whole sSTB. */
export const PRICE_UNIT = 10n ** 18n;

/** MarketMath.cost: payment for `amount` sSTB at `price`, rounded up. */
export function cost(amount: bigint, price: bigint): bigint {
  return (amount * price + PRICE_UNIT - 1n) / PRICE_UNIT;
}

/** MarketMath.fillPayment: the payment of filling `amount` after `filled`. */
export function fillPayment(filled: bigint, amount: bigint, price: bigint): bigint {
  return cost(filled + amount, price) - cost(filled, price);
}

/** MarketMath.fee: `feeBps` of `payment`, rounded up. */
export function marketFee(payment: bigint, feeBps: bigint): bigint {
  return (payment * feeBps + 9_999n) / 10_000n;
}

/** The market of a listing id (`3 * sequence + marketType`). */
export function marketTypeOf(listingId: bigint): (typeof MARKET_TYPES)[number] {
  return MARKET_TYPES[Number((listingId - 1n) % 3n) + 1];
}

/** Name of a listing status index. */
export function listingStatusName(status: bigint): (typeof LISTING_STATUSES)[number] {
  return LISTING_STATUSES[Number(status)];
}
