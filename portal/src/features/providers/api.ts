import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { fulfilRedemptionSync } from "#sdk";
import type { AccessDetails } from "#sdk";

import type { Deployment } from "../../config/deployment";
import { api, unwrap } from "../../lib/api-client";
import type { ApiData } from "../../lib/api-client";
import { walletClient } from "../../lib/protocol";
import type { WalletState } from "../../lib/wallet";

export type ProviderDetail = ApiData<"/api/v1/providers/{providerId}", "get">;
export type Collateral = ApiData<"/api/v1/providers/{providerId}/collateral", "get">;
export type Incoming = ApiData<"/api/v1/redemptions", "get">["redemptions"][number];

/** The signed-in address as a provider (null when it is not a registered provider). */
export const profileQueryOptions = (address: string) =>
  queryOptions({
    queryKey: ["provider-profile", address],
    queryFn: async () => {
      const result = await api.GET("/api/v1/providers/{providerId}", { params: { path: { providerId: address } } });
      if (result.response.status === 404) return null;
      return unwrap(result);
    },
  });
export const collateralQueryOptions = (address: string) =>
  queryOptions({
    queryKey: ["collateral", address],
    queryFn: async () =>
      unwrap(await api.GET("/api/v1/providers/{providerId}/collateral", { params: { path: { providerId: address } } })),
  });
/** Redemptions made with the provider, newest first; refreshed every 5 s (new ones arrive). */
export const incomingQueryOptions = () =>
  queryOptions({
    queryKey: ["redemptions", "provider"],
    queryFn: async () =>
      unwrap(await api.GET("/api/v1/redemptions", { params: { query: { role: "provider", limit: 100 } } })).redemptions,
    refetchInterval: 5_000,
  });
export const evidenceQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ["evidence", id],
    queryFn: async () =>
      unwrap(await api.GET("/api/v1/redemptions/{redemptionId}/dispute", { params: { path: { redemptionId: id } } })),
  });

export const useProfile = (address: string) => useQuery(profileQueryOptions(address));
export const useCollateral = (address: string, enabled: boolean) =>
  useQuery({ ...collateralQueryOptions(address), enabled });
export const useIncoming = () => useQuery(incomingQueryOptions());
export const useEvidence = (id: number, enabled: boolean) => useQuery({ ...evidenceQueryOptions(id), enabled });

/**
 * Fulfils from the browser: the SDK encrypts the access details in the page to the holder's
 * registered access key (bound to this chain, manager and redemption) and the wallet sends
 * `fulfillRedemption` with the envelope; nothing readable leaves the page.
 */
export function useFulfil(wallet: WalletState, deployment: Deployment) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { redemptionId: number; details: AccessDetails; userPublicKey: string }) =>
      fulfilRedemptionSync(await walletClient(wallet, deployment), {
        redemptionId: BigInt(input.redemptionId),
        details: input.details,
        userPublicKey: input.userPublicKey,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: incomingQueryOptions().queryKey }),
  });
}
