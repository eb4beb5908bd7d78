import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import type { WebhookDelivery, WebhookSubscription, WebhookSubscriptionWithSecret } from "@compute-capacity/sdk";
import { IDEMPOTENCY_HEADER, useIdempotencyKey } from "../../lib/mutations";

import { api, unwrap } from "../../lib/api-client";

export type Subscription = WebhookSubscription;
export type CreatedSubscription = WebhookSubscriptionWithSecret;
export type Delivery = WebhookDelivery;
export type CreateInput = {
  url: string;
  events: CreatedSubscription["events"];
  timestamp_format: "unix" | "iso8601";
  own_events_only: boolean;
};

const path = (id: string) => ({ params: { path: { subscription_id: id } } });

export const subscriptionsQueryOptions = () =>
  queryOptions({
    queryKey: ["webhooks"],
    queryFn: async () => unwrap(await api.GET("/api/v1/webhooks", { params: { query: { limit: 100 } } })),
  });
export const subscriptionQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ["webhooks", id],
    queryFn: async () => unwrap(await api.GET("/api/v1/webhooks/{subscription_id}", path(id))),
  });
/** The delivery log, refreshed every 3 s while a delivery is pending (a retry may be on its way). */
export const deliveriesQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ["webhooks", id, "deliveries"],
    queryFn: async () =>
      unwrap(
        await api.GET("/api/v1/webhooks/{subscription_id}/deliveries", {
          params: { path: { subscription_id: id }, query: { limit: 50 } },
        }),
      ),
    refetchInterval: (query) =>
      query.state.data?.deliveries.some((d) => d.status === "pending") === true ? 3_000 : false,
  });

export const useSubscriptions = () => useQuery(subscriptionsQueryOptions());
export const useSubscription = (id: string) => useQuery(subscriptionQueryOptions(id));
export const useDeliveries = (id: string) => useQuery(deliveriesQueryOptions(id));

/**
 * Adds a subscription with an `Idempotency-Key` kept until it succeeds: a repeat gets the first
 * subscription (and its one secret) back instead of a second one delivering every event twice.
 */
export function useCreateSubscription() {
  const queryClient = useQueryClient();
  const idempotency = useIdempotencyKey();
  return useMutation({
    mutationFn: async (input: CreateInput) =>
      unwrap(
        await api.POST("/api/v1/webhooks", {
          body: input,
          headers: { [IDEMPOTENCY_HEADER]: idempotency.keyFor(input) },
        }),
      ),
    onSuccess: () => {
      idempotency.done();
      return queryClient.invalidateQueries({ queryKey: subscriptionsQueryOptions().queryKey });
    },
  });
}

export function useDeleteSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => unwrap(await api.DELETE("/api/v1/webhooks/{subscription_id}", path(id))),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriptionsQueryOptions().queryKey }),
  });
}

/** Rotates the secret; a repeat of the same rotation (same key) answers the one new secret. */
export function useRotateSecret(id: string) {
  const queryClient = useQueryClient();
  const idempotency = useIdempotencyKey();
  return useMutation({
    mutationFn: async () =>
      unwrap(
        await api.POST("/api/v1/webhooks/{subscription_id}/rotate", {
          ...path(id),
          body: {},
          headers: { [IDEMPOTENCY_HEADER]: idempotency.keyFor(["rotate", id]) },
        }),
      ),
    onSuccess: () => {
      idempotency.done();
      return queryClient.invalidateQueries({ queryKey: subscriptionQueryOptions(id).queryKey });
    },
  });
}

export function useRedeliver(id: string) {
  const queryClient = useQueryClient();
  const idempotency = useIdempotencyKey();
  return useMutation({
    mutationFn: async (deliveryId: string) =>
      unwrap(
        await api.POST("/api/v1/webhooks/{subscription_id}/deliveries/{delivery_id}/redeliver", {
          params: { path: { subscription_id: id, delivery_id: deliveryId } },
          body: {},
          headers: { [IDEMPOTENCY_HEADER]: idempotency.keyFor(["redeliver", deliveryId]) },
        }),
      ),
    onSuccess: () => {
      idempotency.done();
      return queryClient.invalidateQueries({ queryKey: deliveriesQueryOptions(id).queryKey });
    },
  });
}

/** Sends a test event through the normal delivery path (the gateway's `POST /webhooks/{id}/test`). */
export function useSendTest(id: string) {
  const queryClient = useQueryClient();
  const idempotency = useIdempotencyKey();
  return useMutation({
    mutationFn: async () =>
      unwrap(
        await api.POST("/api/v1/webhooks/{subscription_id}/test", {
          ...path(id),
          body: {},
          headers: { [IDEMPOTENCY_HEADER]: idempotency.keyFor(["test", id]) },
        }),
      ),
    onSuccess: () => {
      idempotency.done();
      return queryClient.invalidateQueries({ queryKey: deliveriesQueryOptions(id).queryKey });
    },
  });
}
