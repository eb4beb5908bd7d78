import { describe, expect, it } from "vitest";

import { deliveriesQueryOptions } from "../api";

const holding = <T>(data: T) => ({ state: { data } }) as never;

describe("webhooks' query options", () => {
  it("refreshes the delivery log every 3 s while a delivery is pending (a retry may be on its way), not otherwise", () => {
    const interval = deliveriesQueryOptions("sub-1").refetchInterval as (query: never) => number | false;
    expect(interval(holding({ deliveries: [{ status: "delivered" }, { status: "pending" }] }))).toBe(3_000);
    expect(interval(holding({ deliveries: [{ status: "delivered" }, { status: "failed" }] }))).toBe(false);
    expect(interval(holding(undefined))).toBe(false);
  });
});
