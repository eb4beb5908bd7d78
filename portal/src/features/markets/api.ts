import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import {
  MARKET_CONTRACTS,
  buySpotListingSync,
  cancelListingSync,
  createSpotListingSync,
  ensureAllowance,
  getClaimable,
  getListing,
  prepareBuySpotListing,
  prepareCreateSpotListing,
  withdrawClaimableSync,
} from "@compute-capacity/sdk";
import type { Listing, MarketName } from "@compute-capacity/sdk";

import type { Deployment } from "../../config/deployment";
import { api, unwrap } from "../../lib/api-client";
import { canReadChain } from "../../lib/chain";
import { walletClient } from "../../lib/protocol";
import type { WalletState } from "../../lib/wallet";

export type { Listing };

/** The spot market's open sell listings (the gateway's index), newest first; refreshed every 5 s. */
export const spotListingsQueryOptions = () =>
  queryOptions({
    queryKey: ["marketplace", "spot"],
    queryFn: async () =>
      unwrap(await api.GET("/api/v1/marketplace/listings", { params: { query: { market_type: "spot", limit: 50 } } })),
    refetchInterval: 5_000,
  });
export const useSpotListings = () => useQuery(spotListingsQueryOptions());

/**
 * What buying `amount` of a listing costs now, read from the market before anything is signed
 * (the SDK's `prepareBuySpotListing`: the payment the market takes, of which the fee).
 */
export const buyQuoteQueryOptions = (
  wallet: WalletState,
  deployment: Deployment,
  terms: { listingId: bigint; amount: bigint; maxPrice: bigint } | undefined,
) =>
  queryOptions({
    queryKey: ["chain", "spot-buy-quote", wallet.chainId, terms],
    queryFn: async () => {
      const prepared = await prepareBuySpotListing(await walletClient(wallet, deployment), terms!);
      return { payment: prepared.approval.amount, fee: prepared.fee, token: prepared.approval.token };
    },
    enabled: canReadChain(wallet) && terms !== undefined,
    staleTime: 5_000,
  });
export const useBuyQuote = (
  wallet: WalletState,
  deployment: Deployment,
  terms: { listingId: bigint; amount: bigint; maxPrice: bigint } | undefined,
) => useQuery(buyQuoteQueryOptions(wallet, deployment, terms));

/**
 * A listing as the market holds it now (the SDK's `getListing`): what remains after partial fills,
 * its status. The gateway's list gives the amount listed; what is left is read from the chain.
 */
export const listingQueryOptions = (wallet: WalletState, deployment: Deployment, listingId: number) =>
  queryOptions({
    queryKey: ["chain", "listing", wallet.chainId, listingId],
    queryFn: async () => getListing(await walletClient(wallet, deployment), { listingId: BigInt(listingId) }),
    enabled: canReadChain(wallet),
    refetchInterval: 5_000,
  });
export const useListing = (wallet: WalletState, deployment: Deployment, listingId: number) =>
  useQuery(listingQueryOptions(wallet, deployment, listingId));

/** What a market holds for the account that a transfer to it could not deliver (a claimable balance), per token. */
export const claimableQueryOptions = (wallet: WalletState, deployment: Deployment) =>
  queryOptions({
    queryKey: ["chain", "claimable", wallet.account, wallet.chainId],
    queryFn: async () => {
      const client = await walletClient(wallet, deployment);
      const tokens = [
        { symbol: "sSTB", address: deployment.chain.contracts.SSTB, decimals: 18 },
        { symbol: "collateral", address: deployment.chain.contracts.CollateralToken, decimals: 6 },
      ];
      const rows: Array<{ market: MarketName; token: string; symbol: string; decimals: number; amount: bigint }> = [];
      for (const market of Object.keys(MARKET_CONTRACTS) as MarketName[]) {
        if (deployment.chain.contracts[MARKET_CONTRACTS[market].name] === undefined) continue;
        for (const t of tokens) {
          const amount = await getClaimable(client, { market, account: wallet.account!, token: t.address });
          if (amount > 0n) rows.push({ market, token: t.address, symbol: t.symbol, decimals: t.decimals, amount });
        }
      }
      return rows;
    },
    enabled: canReadChain(wallet),
    refetchInterval: 10_000,
  });
export const useClaimable = (wallet: WalletState, deployment: Deployment) =>
  useQuery(claimableQueryOptions(wallet, deployment));

function useInvalidateMarkets() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: ["marketplace"] });
    void queryClient.invalidateQueries({ queryKey: ["balance"] });
    void queryClient.invalidateQueries({ queryKey: ["chain"] });
  };
}

/** Progress of a market write: the token approval first (when the allowance is short), then the call. */
export type MarketStep = "approve" | "send";

/** Buys from a listing: the payment approved for the market (if needed), then `buy` bound to the price seen. */
export function useBuySpot(wallet: WalletState, deployment: Deployment) {
  const invalidate = useInvalidateMarkets();
  return useMutation({
    mutationFn: async (input: {
      listingId: bigint;
      amount: bigint;
      maxPrice: bigint;
      onStep: (step: MarketStep) => void;
    }) => {
      const client = await walletClient(wallet, deployment);
      const { onStep, ...terms } = input;
      const { approval } = await prepareBuySpotListing(client, terms);
      onStep("approve");
      await ensureAllowance(client, approval);
      onStep("send");
      return buySpotListingSync(client, terms);
    },
    onSuccess: invalidate,
  });
}

/** Lists sSTB for sale: the market approved to escrow it (if needed), then `createListing`. */
export function useListSpot(wallet: WalletState, deployment: Deployment) {
  const invalidate = useInvalidateMarkets();
  return useMutation({
    mutationFn: async (input: {
      amount: bigint;
      price: bigint;
      expiration: bigint;
      onStep: (step: MarketStep) => void;
    }) => {
      const client = await walletClient(wallet, deployment);
      const { onStep, ...terms } = input;
      const { approval } = await prepareCreateSpotListing(client, terms);
      onStep("approve");
      await ensureAllowance(client, approval);
      onStep("send");
      return createSpotListingSync(client, terms);
    },
    onSuccess: invalidate,
  });
}

/** Cancels the seller's own listing: the escrowed sSTB comes back. */
export function useCancelListing(wallet: WalletState, deployment: Deployment) {
  const invalidate = useInvalidateMarkets();
  return useMutation({
    mutationFn: async (listingId: bigint) => cancelListingSync(await walletClient(wallet, deployment), { listingId }),
    onSuccess: invalidate,
  });
}

/** Withdraws a claimable balance to the account itself. */
export function useWithdrawClaimable(wallet: WalletState, deployment: Deployment) {
  const invalidate = useInvalidateMarkets();
  return useMutation({
    mutationFn: async (input: { market: MarketName; token: string }) =>
      withdrawClaimableSync(await walletClient(wallet, deployment), { ...input, to: wallet.account! }),
    onSuccess: invalidate,
  });
}
