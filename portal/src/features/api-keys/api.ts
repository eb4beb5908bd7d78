import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { api, unwrap } from "../../lib/api-client";
import type { ApiKey, CreatedApiKey } from "@compute-capacity/sdk";
import { IDEMPOTENCY_HEADER, useIdempotencyKey } from "../../lib/mutations";

export type ApiKeyView = ApiKey;
export type CreatedKey = CreatedApiKey;
export type Scope = "read" | "write";

export const keysQueryOptions = () =>
  queryOptions({
    queryKey: ["api-keys"],
    queryFn: async () => unwrap(await api.GET("/api/v1/session/keys")).keys,
  });

export function useKeys() {
  return useQuery(keysQueryOptions());
}

/**
 * Creates a key. The request carries an `Idempotency-Key` kept until it succeeds: a repeat (a
 * double submit, a retry after a lost answer) gets the first key back from the gateway instead of
 * a second key that nobody ever sees.
 */
export function useCreateKey() {
  const queryClient = useQueryClient();
  const idempotency = useIdempotencyKey();
  return useMutation({
    mutationFn: async (input: { label: string; scopes: Scope[] }) =>
      unwrap(
        await api.POST("/api/v1/session/keys", {
          body: input,
          headers: { [IDEMPOTENCY_HEADER]: idempotency.keyFor(input) },
        }),
      ) as CreatedKey,
    onSuccess: () => {
      idempotency.done();
      return queryClient.invalidateQueries({ queryKey: keysQueryOptions().queryKey });
    },
  });
}

export function useRevokeKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (keyId: string) =>
      unwrap(await api.DELETE("/api/v1/session/keys/{key_id}", { params: { path: { key_id: keyId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keysQueryOptions().queryKey }),
  });
}
