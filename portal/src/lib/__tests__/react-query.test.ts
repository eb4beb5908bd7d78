import { describe, expect, it } from "vitest";

import { ApiResponseError } from "@compute-capacity/sdk";

import { createQueryClient, queryKeyHashFn } from "../react-query";

describe("the data layer's query options", () => {
  it("hashes query keys holding bigints (amounts, ids) without throwing, and tells 1n from 1", () => {
    expect(queryKeyHashFn(["lease", 1n])).toBe('["lease","1n"]');
    expect(queryKeyHashFn(["lease", 1n])).not.toBe(queryKeyHashFn(["lease", 1]));
  });

  it("does not retry a 4xx (it would answer the same) but retries a network failure once", () => {
    const retry = createQueryClient().getDefaultOptions().queries!.retry as (count: number, error: unknown) => boolean;
    expect(retry(0, new ApiResponseError(404, undefined))).toBe(false);
    expect(retry(0, new TypeError("fetch failed"))).toBe(true);
    expect(retry(1, new TypeError("fetch failed"))).toBe(false);
    expect(retry(0, new ApiResponseError(503, undefined))).toBe(true);
  });
});
