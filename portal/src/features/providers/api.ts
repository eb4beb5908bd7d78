import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { fulfilRedemptionWithLeaseSync, offerRenewalSync, withdrawRenewalOfferSync } from "@compute-capacity/sdk";
import type {
  AccountRedemption,
  FulfilRedemptionWithLeaseParameters,
  ProviderCollateral,
  ProviderDetail,
} from "@compute-capacity/sdk";

import type { Deployment } from "../../config/deployment";
import { api, unwrap } from "../../lib/api-client";
import { walletClient } from "../../lib/protocol";
import type { WalletState } from "../../lib/wallet";

// the API's named types, from the SDK (generated from the gateway's OpenAPI document)
export type { ProviderDetail };
export type Collateral = ProviderCollateral;
export type Incoming = AccountRedemption;

/**
 * The signed-in address as a provider (null when the gateway knows no such provider). With
 * `follow`, refreshed every 3 s while the gateway has not indexed it yet or governance has not
 * approved it (a registration just sent, a review under way).
 */
export const profileQueryOptions = (address: string, follow = false) =>
  queryOptions({
    queryKey: ["provider-profile", address],
    refetchInterval: (query) =>
      follow && (query.state.data === null || query.state.data?.status === "pending") ? 3_000 : false,
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

/** The provider's own sSTB balance (what a retirement burns). */
export const sstbBalanceQueryOptions = () =>
  queryOptions({ queryKey: ["balance"], queryFn: async () => unwrap(await api.GET("/api/v1/sstb/balance")) });

export const useProfile = (address: string, follow = false) => useQuery(profileQueryOptions(address, follow));
export const useSstbBalance = () => useQuery(sstbBalanceQueryOptions());
export const useCollateral = (address: string, enabled: boolean) =>
  useQuery({ ...collateralQueryOptions(address), enabled });
export const useIncoming = () => useQuery(incomingQueryOptions());
export const useEvidence = (id: number, enabled: boolean) => useQuery({ ...evidenceQueryOptions(id), enabled });

/**
 * Fulfils from the browser with a lease end (`fulfillRedemptionWithLease`): the SDK reads the
 * holder's access key from the chain, encrypts the access details in the page to it (bound to this
 * chain, manager and redemption; `expiration` is the lease end) and the wallet sends the envelope;
 * nothing readable leaves the page. A holder without a registered key is refused by the SDK
 * (`AccessKeyNotRegisteredError`) before anything is encrypted.
 */
export function useFulfil(wallet: WalletState, deployment: Deployment) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: FulfilRedemptionWithLeaseParameters) =>
      fulfilRedemptionWithLeaseSync(await walletClient(wallet, deployment), input),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: incomingQueryOptions().queryKey });
      void queryClient.invalidateQueries({ queryKey: ["chain", "lease"] });
    },
  });
}

/** Offers a renewal of one of the provider's running leases (`offerRenewal`; replaces a standing offer). */
export function useOfferRenewal(wallet: WalletState, deployment: Deployment) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { leaseId: bigint; price: bigint; extension: bigint; validUntil: bigint }) =>
      offerRenewalSync(await walletClient(wallet, deployment), input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["chain", "lease"] }),
  });
}

/** Withdraws the standing renewal offer (`withdrawRenewalOffer`). */
export function useWithdrawOffer(wallet: WalletState, deployment: Deployment) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (leaseId: bigint) =>
      withdrawRenewalOfferSync(await walletClient(wallet, deployment), { leaseId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["chain", "lease"] }),
  });
}
