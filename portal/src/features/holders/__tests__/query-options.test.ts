import { describe, expect, it } from "vitest";

import { quoteQueryOptions, redemptionQueryOptions } from "../api";

/** A query as `refetchInterval` sees it, holding `data`. */
const holding = <T>(data: T) => ({ state: { data } }) as never;

describe("holders' query options", () => {
  it("refreshes a redemption every 3 s until it reaches a final status", () => {
    const interval = redemptionQueryOptions(7).refetchInterval as (query: never) => number | false;
    for (const status of ["pending", "fulfilled", "disputed"]) expect(interval(holding({ status }))).toBe(3_000);
    for (const status of ["confirmed", "expired", "resolved"]) expect(interval(holding({ status }))).toBe(false);
    expect(interval(holding(undefined)), "not loaded yet: keep asking").toBe(3_000);
  });

  it("quotes only an amount above zero, keyed by provider and amount", () => {
    expect(quoteQueryOptions(1, "0xabc").enabled).toBe(true);
    for (const amount of [0, -1, Number.NaN]) expect(quoteQueryOptions(amount, "0xabc").enabled).toBe(false);
    expect(quoteQueryOptions(2, "0xabc").queryKey).toEqual(["quote", "0xabc", 2]);
  });
});
