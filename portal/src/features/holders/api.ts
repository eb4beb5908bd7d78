import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { formatEther, parseEther } from "ethers";

import {
  BaseError,
  acceptRenewalSync,
  addressOf,
  getContract,
  getContractError,
  approveRedemptionSync,
  confirmRedemptionSync,
  getRedemptionPermit,
  initiateRedemptionSync,
  permitRedemptionSync,
  registerAccessKeySync,
  sendPrepared,
  terminateLeaseSync,
  waitForReceipt,
} from "@compute-capacity/sdk";
import type { IssueTypeName, ProtocolClient } from "@compute-capacity/sdk";

import type { ApiPaths } from "@compute-capacity/sdk";
import type {
  AccountRedemption,
  DisputeEvidence,
  Provider,
  ProviderDetail,
  Redemption,
  RedemptionQuote,
  SstbBalance,
} from "@compute-capacity/sdk";

import type { Deployment } from "../../config/deployment";
import { api, unwrap } from "../../lib/api-client";
import { canReadChain, chainAccessKeyQueryOptions } from "../../lib/chain";
import { IDEMPOTENCY_HEADER, useIdempotencyKey } from "../../lib/mutations";
import { walletClient } from "../../lib/protocol";
import type { WalletState } from "../../lib/wallet";

// the API's named types, from the SDK (generated from the gateway's OpenAPI document)
export type { AccountRedemption, ProviderDetail, Redemption };
export type Balance = SstbBalance;
export type ProviderItem = Provider;
export type Quote = RedemptionQuote;
export type Evidence = DisputeEvidence;
export type ProviderFilters = {
  status?: "active" | "pending" | "suspended";
  min_reputation?: number;
  location?: string;
  page: number;
};
type DisputeBody = NonNullable<
  ApiPaths["/api/v1/redemptions/{redemptionId}/dispute"]["post"]["requestBody"]
>["content"]["application/json"];

export const balanceQueryOptions = () =>
  queryOptions({ queryKey: ["balance"], queryFn: async () => unwrap(await api.GET("/api/v1/sstb/balance")) });
export const providersQueryOptions = (filters: ProviderFilters) =>
  queryOptions({
    queryKey: ["providers", filters],
    queryFn: async () =>
      unwrap(await api.GET("/api/v1/providers/list", { params: { query: { ...filters, limit: 20 } } })),
  });
export const providerQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ["provider", id],
    queryFn: async () =>
      unwrap(await api.GET("/api/v1/providers/{providerId}", { params: { path: { providerId: id } } })),
  });
export const quoteQueryOptions = (amount: number, provider: string) =>
  queryOptions({
    queryKey: ["quote", provider, amount],
    queryFn: async () =>
      unwrap(
        await api.GET("/api/v1/redemptions/quote", {
          params: { query: { sstb_amount: amount, provider_id: provider } },
        }),
      ),
    enabled: Number.isFinite(amount) && amount > 0,
    staleTime: 5_000,
  });
export const myRedemptionsQueryOptions = () =>
  queryOptions({
    queryKey: ["redemptions", "user"],
    queryFn: async () =>
      unwrap(await api.GET("/api/v1/redemptions", { params: { query: { role: "user", limit: 100 } } })),
  });
/** A redemption, refreshed every 3 s until it reaches a final status (the provider or the chain may move it). */
export const redemptionQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ["redemption", id],
    queryFn: async () =>
      unwrap(await api.GET("/api/v1/redemptions/{redemptionId}", { params: { path: { redemptionId: id } } })),
    refetchInterval: (query) =>
      ["pending", "fulfilled", "disputed"].includes(query.state.data?.status ?? "pending") ? 3_000 : false,
    retry: 3,
  });
export const evidenceQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ["evidence", id],
    queryFn: async () =>
      unwrap(await api.GET("/api/v1/redemptions/{redemptionId}/dispute", { params: { path: { redemptionId: id } } })),
  });

export const useBalance = () => useQuery(balanceQueryOptions());
export const useProviders = (filters: ProviderFilters) => useQuery(providersQueryOptions(filters));
export const useProvider = (id: string) => useQuery(providerQueryOptions(id));
export const useQuote = (amount: number, provider: string) => useQuery(quoteQueryOptions(amount, provider));
export const useMyRedemptions = () => useQuery(myRedemptionsQueryOptions());
export const useRedemption = (id: number) => useQuery(redemptionQueryOptions(id));
export const useEvidence = (id: number, enabled: boolean) => useQuery({ ...evidenceQueryOptions(id), enabled });

/**
 * Registers the wallet-derived public key on the redemption manager (`registerAccessKey`): the
 * chain is where providers (and the provider agent) read it since issue 19. The session's
 * `PUT /session/access-key` of phase 1 is no longer called.
 */
export function useRegisterAccessKey(wallet: WalletState, deployment: Deployment) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (publicKey: string) =>
      registerAccessKeySync(await walletClient(wallet, deployment), { publicKey }),
    onSuccess: () =>
      queryClient.invalidateQueries({
        queryKey: chainAccessKeyQueryOptions(wallet, deployment, wallet.account).queryKey,
      }),
  });
}

/** Progress of a redemption being signed, for the page to show. */
export type RedeemStep = "permit" | "approve" | "initiate" | "accept";
/** What the page says while the wallet is asked for each step. */
export const STEP_TEXT: Record<RedeemStep, string> = {
  permit: "Sign the permit for amount plus fee in your wallet…",
  approve: "Approve amount plus fee in your wallet…",
  initiate: "Confirm the redemption in your wallet…",
  accept: "Confirm the renewal in your wallet…",
};

/** Errors a wallet gives for a method it does not have (EIP-1193 4200, JSON-RPC -32601). */
function unsupported(error: unknown): boolean {
  for (let e = error as Record<string, unknown> | undefined, d = 0; e && d < 6; d++) {
    if (e.code === 4200 || e.code === -32601 || e.code === "UNSUPPORTED_OPERATION") return true;
    e = (e.error ?? e.cause ?? (e.info as Record<string, unknown> | undefined)?.error) as
      Record<string, unknown> | undefined;
  }
  return false;
}

/**
 * Lets the manager take `amount` plus its fee: an EIP-2612 permit where the wallet signs typed data
 * (deadline an hour of the chain's time), else an exact approval; a refusal in the wallet stops.
 * A redemption and a renewal (a redemption of the offer's price) pay the same way.
 */
async function authorisePayment(
  client: ProtocolClient,
  wallet: WalletState,
  amount: bigint,
  onStep: (step: RedeemStep) => void,
): Promise<void> {
  const owner = wallet.account!;
  const signer = await wallet.getSigner();
  try {
    onStep("permit");
    // an hour of the chain's time (a chain's clock need not be the browser's)
    const block = await signer!.provider.getBlock("latest");
    if (block === null) throw new Error("The wallet's node returned no latest block.");
    const deadline = BigInt(block.timestamp + 3_600);
    const permit = await getRedemptionPermit(client, { owner, amount, deadline });
    const signature = await signer!.signTypedData(permit.domain, permit.types, permit.message);
    await permitRedemptionSync(client, { owner, amount, deadline, signature });
    return;
  } catch (error) {
    if (!unsupported(error)) throw error;
  }
  onStep("approve");
  await approveRedemptionSync(client, { amount });
}

/**
 * What the holder has allowed the redemption manager to take (sSTB base units), read from the
 * chain: when it covers amount plus fee, no permit is asked for.
 */
export const redemptionAllowanceQueryOptions = (wallet: WalletState, deployment: Deployment) =>
  queryOptions({
    queryKey: ["chain", "redemption-allowance", wallet.account, wallet.chainId],
    queryFn: async () => readAllowance(await walletClient(wallet, deployment), wallet.account!),
    enabled: canReadChain(wallet),
    staleTime: 5_000,
  });
export const useRedemptionAllowance = (wallet: WalletState, deployment: Deployment) =>
  useQuery(redemptionAllowanceQueryOptions(wallet, deployment));

async function readAllowance(client: ProtocolClient, owner: string): Promise<bigint> {
  try {
    return await getContract(client, "SSTB").allowance(owner, addressOf(client, "RedemptionManager"));
  } catch (error) {
    throw getContractError(error, { functionName: "allowance" });
  }
}

/** The holder's balance is short of what a payment takes (checked on the chain before signing). */
export class BalanceTooSmallError extends BaseError {
  override name = "BalanceTooSmallError";
}

/**
 * Checks the holder's balance against amount plus fee on the chain, then lets the manager take it
 * (a permit, or an approval) unless the allowance already covers it: nothing is signed for a
 * payment the balance cannot make.
 */
async function preparePayment(
  client: ProtocolClient,
  wallet: WalletState,
  amount: bigint,
  onStep: (step: RedeemStep) => void,
): Promise<void> {
  const owner = wallet.account!;
  let total: bigint;
  let held: bigint;
  try {
    [[, total], held] = await Promise.all([
      getContract(client, "RedemptionViews").quoteFee(amount),
      getContract(client, "SSTB").balanceOf(owner),
    ]);
  } catch (error) {
    throw getContractError(error, { functionName: "quoteFee" });
  }
  if (held < total) {
    throw new BalanceTooSmallError(
      `Your balance is ${formatEther(held)} sSTB: less than the ${formatEther(total)} sSTB this takes (amount plus fee). Nothing was signed.`,
    );
  }
  if ((await readAllowance(client, owner)) >= total) return;
  await authorisePayment(client, wallet, amount, onStep);
}

/**
 * Redeems with the wallet through the SDK's actions: the balance checked against amount plus fee,
 * an EIP-2612 permit of amount plus fee where the wallet signs typed data (else an approval)
 * unless the allowance covers it, then `initiateRedemption`; returns the new id.
 */
export function useRedeem(wallet: WalletState, deployment: Deployment) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { amount: string; provider: string; onStep: (step: RedeemStep) => void }) => {
      const client = await walletClient(wallet, deployment);
      const amount = parseEther(input.amount);
      await preparePayment(client, wallet, amount, input.onStep);
      input.onStep("initiate");
      const { redemptionId } = await initiateRedemptionSync(client, { amount, provider: input.provider });
      return redemptionId;
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["redemptions"] });
      void queryClient.invalidateQueries({ queryKey: ["balance"] });
      void queryClient.invalidateQueries({ queryKey: ["chain", "redemption-allowance"] });
    },
  });
}

/** Confirms a fulfilled redemption with the wallet (`confirmRedemption`). */
export function useConfirm(wallet: WalletState, deployment: Deployment, id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => confirmRedemptionSync(await walletClient(wallet, deployment), { redemptionId: BigInt(id) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: redemptionQueryOptions(id).queryKey }),
  });
}

/** The evidence document a dispute stores: the file's facts, its SHA-256 and its bytes. */
export interface EvidenceFile {
  file_name: string;
  media_type: string;
  size: number;
  sha256: string;
  content_base64: string;
}

/** Largest evidence file the gateway's 64 KiB request body holds once encoded. */
export const MAX_EVIDENCE_BYTES = 40 * 1024;

export async function readEvidenceFile(file: File): Promise<EvidenceFile> {
  if (file.size > MAX_EVIDENCE_BYTES) {
    throw new Error(
      `The file is ${file.size.toLocaleString()} bytes; at most ${MAX_EVIDENCE_BYTES.toLocaleString()} fit.`,
    );
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return {
    file_name: file.name,
    media_type: file.type || "application/octet-stream",
    size: file.size,
    sha256: Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join(""),
    content_base64: btoa(binary),
  };
}

/**
 * Opens a dispute: the gateway stores the description and the evidence file and answers the
 * `openDispute` transaction carrying the evidence's hash, which the wallet sends.
 */
export function useDispute(wallet: WalletState, deployment: Deployment, id: number) {
  const queryClient = useQueryClient();
  const idempotency = useIdempotencyKey();
  return useMutation({
    mutationFn: async (input: { issueType: IssueTypeName; description: string; evidence: EvidenceFile }) => {
      const client = await walletClient(wallet, deployment);
      // the route takes any JSON as evidence; its generated type cannot say "an object of any shape"
      const body = {
        issue_type: input.issueType,
        description: input.description,
        evidence: input.evidence,
      } as unknown as DisputeBody;
      const answer = unwrap(
        await api.POST("/api/v1/redemptions/{redemptionId}/dispute", {
          params: { path: { redemptionId: id } },
          body,
          headers: { [IDEMPOTENCY_HEADER]: idempotency.keyFor(body) },
        }),
      );
      if (answer.mode === "external") {
        for (const tx of answer.transactions ?? []) {
          const hash = await sendPrepared(
            client,
            { to: tx.to, data: tx.data, value: BigInt(tx.value) },
            tx.description,
          );
          await waitForReceipt(client, hash, tx.description);
        }
      }
      return answer;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: redemptionQueryOptions(id).queryKey }),
  });
}

/**
 * Accepts the provider's standing renewal offer, bound to the price and extension the page showed
 * (`acceptRenewal` reverts `RenewalTermsMismatch` if the offer changed since): the price plus fee is
 * permitted (or approved) first, as for a redemption.
 */
export function useAcceptRenewal(wallet: WalletState, deployment: Deployment) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: {
      leaseId: bigint;
      price: bigint;
      extension: bigint;
      onStep: (step: RedeemStep) => void;
    }) => {
      const client = await walletClient(wallet, deployment);
      await preparePayment(client, wallet, input.price, input.onStep);
      input.onStep("accept");
      return acceptRenewalSync(client, { leaseId: input.leaseId, price: input.price, extension: input.extension });
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["chain", "lease"] });
      void queryClient.invalidateQueries({ queryKey: ["redemptions"] });
      void queryClient.invalidateQueries({ queryKey: ["balance"] });
    },
  });
}

/** Terminates the lease (`terminateLease`): the provider reclaims the resources; no refund. */
export function useTerminate(wallet: WalletState, deployment: Deployment) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (leaseId: bigint) => terminateLeaseSync(await walletClient(wallet, deployment), { leaseId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["chain", "lease"] }),
  });
}
