import { QueryClient } from "@tanstack/react-query";
import type { QueryKey } from "@tanstack/react-query";

import { ApiResponseError } from "@compute-capacity/sdk";

/** Query keys may hold bigints (amounts, ids): hash them as strings. */
export function queryKeyHashFn(key: QueryKey): string {
  return JSON.stringify(key, (_k, v: unknown) => (typeof v === "bigint" ? `${v.toString()}n` : v));
}

/**
 * The portal's one data layer: TanStack Query over the SDK's typed API client. Reads stay fresh for
 * 10 s and are not refetched on focus; a 4xx is not retried (it would answer the same), a network
 * failure once.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryKeyHashFn,
        staleTime: 10_000,
        refetchOnWindowFocus: false,
        retry: (count, error) => !(error instanceof ApiResponseError && error.status < 500) && count < 1,
      },
      mutations: { retry: false },
    },
  });
}
