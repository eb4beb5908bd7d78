import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import {
  buyOptionSync,
  deployedReader,
  ensureAllowance,
  exerciseOptionSync,
  expireListingSync,
  futuresMarketAbi,
  getListing,
  offerFutureSync,
  optionsMarketAbi,
  prepareBuyOption,
  prepareExerciseOption,
  prepareOfferFuture,
  prepareTakeFuture,
  prepareWriteOption,
  settleFutureSync,
  takeFutureSync,
  writeOptionSync,
} from "@compute-capacity/sdk";
import type { OfferFutureParameters, TokenApproval, WriteOptionParameters } from "@compute-capacity/sdk";

import type { Deployment } from "../../config/deployment";
import { api, unwrap } from "../../lib/api-client";
import { canReadChain } from "../../lib/chain";
import { walletClient } from "../../lib/protocol";
import type { WalletState } from "../../lib/wallet";
import type { MarketStep } from "./api";

/**
 * Futures and options on the SDK's market actions. Every figure a form shows before signing comes
 * from the same `prepare…` the write then sends (what the market escrows, the payment, the fee),
 * so the page cannot show one thing and sign another.
 */

export type DerivativesMarket = "futures" | "options";

/** The open (active) positions of one market as the gateway indexes them, refreshed every 5 s. */
export const openPositionsQueryOptions = (market: DerivativesMarket) =>
  queryOptions({
    queryKey: ["marketplace", market],
    queryFn: async () =>
      unwrap(await api.GET("/api/v1/marketplace/listings", { params: { query: { market_type: market, limit: 50 } } })),
    refetchInterval: 5_000,
  });
export const useOpenPositions = (market: DerivativesMarket) => useQuery(openPositionsQueryOptions(market));

/**
 * A position as its market holds it now (kind, status, counterparty, strike, what is left): the
 * gateway's list has none of these, and matched futures and sold options leave its list.
 */
export const positionQueryOptions = (wallet: WalletState, deployment: Deployment, listingId: number | undefined) =>
  queryOptions({
    queryKey: ["chain", "listing", wallet.chainId, listingId],
    queryFn: async () => getListing(await walletClient(wallet, deployment), { listingId: BigInt(listingId!) }),
    enabled: canReadChain(wallet) && listingId !== undefined,
    refetchInterval: 5_000,
  });
export const usePosition = (wallet: WalletState, deployment: Deployment, listingId: number | undefined) =>
  useQuery(positionQueryOptions(wallet, deployment, listingId));

/** What signing a market write moves now: the escrow (token, amount), the payment and the market's fee on it. */
export interface EscrowQuote {
  approval: TokenApproval;
  /** The payment that changes hands (at settlement, purchase or exercise). */
  payment: bigint;
  /** Of `payment`, what goes to the treasury. */
  fee: bigint;
}

/** The market's fee on `payment` of `amount` at `price`, read from the market (`quoteTrade`). */
async function quoteFee(
  wallet: WalletState,
  deployment: Deployment,
  market: DerivativesMarket,
  amount: bigint,
  price: bigint,
) {
  const client = await walletClient(wallet, deployment);
  const reader =
    market === "futures"
      ? deployedReader(client, "FuturesMarket", futuresMarketAbi)
      : deployedReader(client, "OptionsMarket", optionsMarketAbi);
  const [payment, fee] = await reader.quoteTrade(0n, amount, price);
  return { payment, fee };
}

type Quote<T> = T | undefined;

/** A futures offer before signing: its escrow (`prepareOfferFuture`), and the payment and fee at settlement. */
export const offerQuoteQueryOptions = (
  wallet: WalletState,
  deployment: Deployment,
  terms: Quote<OfferFutureParameters>,
) =>
  queryOptions({
    queryKey: ["chain", "future-offer-quote", wallet.chainId, terms],
    queryFn: async (): Promise<EscrowQuote> => {
      const { approval } = await prepareOfferFuture(await walletClient(wallet, deployment), terms!);
      return { approval, ...(await quoteFee(wallet, deployment, "futures", terms!.amount, terms!.price)) };
    },
    enabled: canReadChain(wallet) && terms !== undefined,
    staleTime: 5_000,
  });

/** Taking a futures offer before signing: the taker's escrow and side (`prepareTakeFuture`), the fee at settlement. */
export const takeQuoteQueryOptions = (
  wallet: WalletState,
  deployment: Deployment,
  terms: Quote<{ listingId: bigint; limitPrice: bigint }>,
) =>
  queryOptions({
    queryKey: ["chain", "future-take-quote", wallet.chainId, terms],
    queryFn: async () => {
      const prepared = await prepareTakeFuture(await walletClient(wallet, deployment), terms!);
      const { fee } = await quoteFee(wallet, deployment, "futures", prepared.amount, terms!.limitPrice);
      return {
        approval: prepared.approval,
        payment: prepared.payment,
        fee,
        side: prepared.side,
        amount: prepared.amount,
      };
    },
    enabled: canReadChain(wallet) && terms !== undefined,
    staleTime: 5_000,
  });

/** Writing an option before signing: its escrow (`prepareWriteOption`), and the premium a buyer pays and its fee. */
export const writeQuoteQueryOptions = (
  wallet: WalletState,
  deployment: Deployment,
  terms: Quote<WriteOptionParameters>,
) =>
  queryOptions({
    queryKey: ["chain", "option-write-quote", wallet.chainId, terms],
    queryFn: async (): Promise<EscrowQuote> => {
      const { approval } = await prepareWriteOption(await walletClient(wallet, deployment), terms!);
      return { approval, ...(await quoteFee(wallet, deployment, "options", terms!.amount, terms!.premium)) };
    },
    enabled: canReadChain(wallet) && terms !== undefined,
    staleTime: 5_000,
  });

/** Buying an option before signing: the whole premium the market takes, and its fee (`prepareBuyOption`). */
export const buyOptionQuoteQueryOptions = (
  wallet: WalletState,
  deployment: Deployment,
  terms: Quote<{ listingId: bigint; maxPremium: bigint }>,
) =>
  queryOptions({
    queryKey: ["chain", "option-buy-quote", wallet.chainId, terms],
    queryFn: async (): Promise<EscrowQuote> => {
      const { approval, fee } = await prepareBuyOption(await walletClient(wallet, deployment), terms!);
      return { approval, payment: approval.amount, fee };
    },
    enabled: canReadChain(wallet) && terms !== undefined,
    staleTime: 5_000,
  });

/** Exercising before signing: what the holder hands over, the strike payment and its fee (`prepareExerciseOption`). */
export const exerciseQuoteQueryOptions = (
  wallet: WalletState,
  deployment: Deployment,
  terms: Quote<{ listingId: bigint; amount: bigint }>,
) =>
  queryOptions({
    queryKey: ["chain", "option-exercise-quote", wallet.chainId, terms],
    queryFn: async () => {
      const p = await prepareExerciseOption(await walletClient(wallet, deployment), terms!);
      return { approval: p.approval, payment: p.payment, fee: p.fee, kind: p.kind };
    },
    enabled: canReadChain(wallet) && terms !== undefined,
    staleTime: 5_000,
  });

export const useOfferQuote = (w: WalletState, d: Deployment, t: Quote<OfferFutureParameters>) =>
  useQuery(offerQuoteQueryOptions(w, d, t));
export const useTakeQuote = (w: WalletState, d: Deployment, t: Quote<{ listingId: bigint; limitPrice: bigint }>) =>
  useQuery(takeQuoteQueryOptions(w, d, t));
export const useWriteQuote = (w: WalletState, d: Deployment, t: Quote<WriteOptionParameters>) =>
  useQuery(writeQuoteQueryOptions(w, d, t));
export const useBuyOptionQuote = (w: WalletState, d: Deployment, t: Quote<{ listingId: bigint; maxPremium: bigint }>) =>
  useQuery(buyOptionQuoteQueryOptions(w, d, t));
export const useExerciseQuote = (w: WalletState, d: Deployment, t: Quote<{ listingId: bigint; amount: bigint }>) =>
  useQuery(exerciseQuoteQueryOptions(w, d, t));

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: ["marketplace"] });
    void queryClient.invalidateQueries({ queryKey: ["balance"] });
    void queryClient.invalidateQueries({ queryKey: ["chain"] });
  };
}

type WithStep<T> = T & { onStep: (step: MarketStep) => void };

/**
 * A market write that escrows a token: the escrow approved first when the allowance is short,
 * then the call. `prepare` is the SDK's builder the quote used; `send` its `…Sync`.
 */
function useEscrowedWrite<T extends object, R>(
  wallet: WalletState,
  deployment: Deployment,
  prepare: (client: Awaited<ReturnType<typeof walletClient>>, terms: T) => Promise<{ approval: TokenApproval }>,
  send: (client: Awaited<ReturnType<typeof walletClient>>, terms: T) => Promise<R>,
) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async ({ onStep, ...terms }: WithStep<T>) => {
      const client = await walletClient(wallet, deployment);
      const { approval } = await prepare(client, terms as unknown as T);
      onStep("approve");
      await ensureAllowance(client, approval);
      onStep("send");
      return send(client, terms as unknown as T);
    },
    onSuccess: invalidate,
  });
}

/** Offers a future (to sell: the sSTB escrowed; to buy: the payment escrowed). */
export const useOfferFuture = (w: WalletState, d: Deployment) =>
  useEscrowedWrite(w, d, prepareOfferFuture, offerFutureSync);
/** Takes a whole futures offer, escrowing the other side until settlement. */
export const useTakeFuture = (w: WalletState, d: Deployment) =>
  useEscrowedWrite(w, d, prepareTakeFuture, takeFutureSync);
/** Writes an option (a call escrows the sSTB, a put the strike). */
export const useWriteOption = (w: WalletState, d: Deployment) =>
  useEscrowedWrite(w, d, prepareWriteOption, writeOptionSync);
/** Buys an option for its whole premium. */
export const useBuyOption = (w: WalletState, d: Deployment) => useEscrowedWrite(w, d, prepareBuyOption, buyOptionSync);
/** Exercises (part of) a held option: a call pays the strike, a put delivers the sSTB. */
export const useExerciseOption = (w: WalletState, d: Deployment) =>
  useEscrowedWrite(w, d, prepareExerciseOption, exerciseOptionSync);

/** Settles a matched future whose time has come (anyone may). */
export function useSettleFuture(wallet: WalletState, deployment: Deployment) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (listingId: bigint) => settleFutureSync(await walletClient(wallet, deployment), { listingId }),
    onSuccess: invalidate,
  });
}

/** Ends an expired position: an untaken futures offer's escrow, or an option's, back to its maker (anyone may). */
export function useExpireListing(wallet: WalletState, deployment: Deployment) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (listingId: bigint) => expireListingSync(await walletClient(wallet, deployment), { listingId }),
    onSuccess: invalidate,
  });
}
