import { describe, expect, it } from "vitest";

import { verificationQueryOptions } from "../onboarding-api";

const holding = <T>(data: T) => ({ state: { data } }) as never;

describe("providers' query options", () => {
  it("follows a verification while its attestations are still arriving, and only once it has an id", () => {
    const options = verificationQueryOptions("0x01");
    const interval = options.refetchInterval as (query: never) => number | false;
    expect(interval(holding({ status: "partially_signed" }))).toBe(2_000);
    expect(interval(holding({ status: "verified" }))).toBe(false);
    expect(interval(holding({ status: "rejected" }))).toBe(false);
    expect(verificationQueryOptions(undefined).enabled).toBe(false);
    expect(options.enabled).toBe(true);
  });
});
