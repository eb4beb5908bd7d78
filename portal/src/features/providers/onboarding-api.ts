import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import {
  approveCollateralSync,
  approveRetirementSync,
  benchmarkReportDomain,
  depositCollateralSync,
  getProviderAccount,
  registerProviderSync,
  retireCapacitySync,
  signBenchmarkReport,
  signerOf,
  verifyAndMintSSTBSync,
  withdrawCollateralSync,
} from "@compute-capacity/sdk";
import type { ApiPaths, BenchmarkReport, ProviderProfile, Verification } from "@compute-capacity/sdk";

import type { Deployment } from "../../config/deployment";
import { api, unwrap } from "../../lib/api-client";
import { canReadChain } from "../../lib/chain";
import { IDEMPOTENCY_HEADER, useIdempotencyKey } from "../../lib/mutations";
import { walletClient } from "../../lib/protocol";
import type { WalletState } from "../../lib/wallet";

export type { Verification };
export type Tier = "standard" | "premium" | "enterprise";
type SubmitBody = NonNullable<
  ApiPaths["/api/v1/verification/submit"]["post"]["requestBody"]
>["content"]["application/json"];

/**
 * The provider's account as the registry holds it, read from the chain with the SDK's
 * `getProviderAccount`: the status governance's review sets, the collateral free, locked and
 * withdrawable, the capacity and the staking period's end, and what a deposit allows. Polled,
 * so an approval or a redemption's lock shows up without a reload.
 */
export const providerAccountQueryOptions = (wallet: WalletState, deployment: Deployment, provider: string) =>
  queryOptions({
    queryKey: ["chain", "provider-account", wallet.chainId, provider.toLowerCase()],
    queryFn: async () => getProviderAccount(await walletClient(wallet, deployment), { provider }),
    enabled: canReadChain(wallet),
    refetchInterval: 5_000,
  });
export const useProviderAccount = (wallet: WalletState, deployment: Deployment, provider: string) =>
  useQuery(providerAccountQueryOptions(wallet, deployment, provider));

/** A verification by id (the unit's cuHash), refreshed while signatures are still arriving. */
export const verificationQueryOptions = (id: string | undefined) =>
  queryOptions({
    queryKey: ["verification", id],
    queryFn: async () =>
      unwrap(await api.GET("/api/v1/verification/{verification_id}", { params: { path: { verification_id: id! } } })),
    enabled: id !== undefined,
    refetchInterval: (query) => (query.state.data?.status === "partially_signed" ? 2_000 : false),
  });
export const useVerification = (id: string | undefined) => useQuery(verificationQueryOptions(id));

function useInvalidateAccount() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: ["chain", "provider-account"] });
    void queryClient.invalidateQueries({ queryKey: ["provider-profile"] });
    void queryClient.invalidateQueries({ queryKey: ["collateral"] });
    void queryClient.invalidateQueries({ queryKey: ["balance"] });
  };
}

/** Registers the wallet's account as a provider (`registerProvider`): pending governance's review. */
export function useRegisterProvider(wallet: WalletState, deployment: Deployment) {
  const invalidate = useInvalidateAccount();
  return useMutation({
    mutationFn: async (input: { profile: ProviderProfile; tier: Tier }) =>
      registerProviderSync(await walletClient(wallet, deployment), input),
    onSuccess: invalidate,
  });
}

/** Progress of a step that takes an approval and then the call itself. */
export type TwoStep = "approve" | "send";

/** Deposits collateral: the registry approved for the amount, then `depositCollateral`. */
export function useDepositCollateral(wallet: WalletState, deployment: Deployment) {
  const invalidate = useInvalidateAccount();
  return useMutation({
    mutationFn: async (input: { amount: bigint; onStep: (step: TwoStep) => void }) => {
      const client = await walletClient(wallet, deployment);
      input.onStep("approve");
      await approveCollateralSync(client, { amount: input.amount, spender: "ProviderRegistry" });
      input.onStep("send");
      return depositCollateralSync(client, { amount: input.amount });
    },
    onSuccess: invalidate,
  });
}

/** Withdraws excess collateral (`withdrawCollateral`). */
export function useWithdrawCollateral(wallet: WalletState, deployment: Deployment) {
  const invalidate = useInvalidateAccount();
  return useMutation({
    mutationFn: async (amount: bigint) => withdrawCollateralSync(await walletClient(wallet, deployment), { amount }),
    onSuccess: invalidate,
  });
}

/**
 * Submits a benchmark for verification through the gateway's verification service: the wallet
 * signs the report (EIP-712, bound to this chain's AttestationVerifier), the gateway checks it
 * against the registry and answers the verifiers' attestations. The same report sent again is
 * answered with the same verification (its id is the report's hash; the request carries an
 * `Idempotency-Key` too).
 */
export function useSubmitBenchmark(wallet: WalletState, deployment: Deployment) {
  const idempotency = useIdempotencyKey();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (report: BenchmarkReport) => {
      const client = await walletClient(wallet, deployment);
      const domain = benchmarkReportDomain(
        BigInt(deployment.chain.chain_id),
        deployment.chain.contracts.AttestationVerifier,
      );
      const proof = await signBenchmarkReport(
        signerOf(client) as unknown as Parameters<typeof signBenchmarkReport>[0],
        domain,
        report,
      );
      const body: SubmitBody = { ...report, verification_type: "attestation", proof };
      return unwrap(
        await api.POST("/api/v1/verification/submit", {
          body,
          headers: { [IDEMPOTENCY_HEADER]: idempotency.keyFor(body) },
        }),
      );
    },
    onSuccess: (verification) => {
      idempotency.done();
      queryClient.setQueryData(verificationQueryOptions(verification.verification_id).queryKey, verification);
    },
  });
}

/**
 * Mints sSTB from a verified unit (`verifyAndMintSSTB`): the minting agent approved for the
 * collateral the mint brings (when any), then the proof, that collateral and the staking period.
 */
export function useMint(wallet: WalletState, deployment: Deployment) {
  const invalidate = useInvalidateAccount();
  return useMutation({
    mutationFn: async (input: {
      proof: string;
      collateralAmount: bigint;
      stakingPeriod: bigint;
      onStep: (step: TwoStep) => void;
    }) => {
      const client = await walletClient(wallet, deployment);
      if (input.collateralAmount > 0n) {
        input.onStep("approve");
        await approveCollateralSync(client, { amount: input.collateralAmount, spender: "MintingAgent" });
      }
      input.onStep("send");
      return verifyAndMintSSTBSync(client, input);
    },
    onSuccess: invalidate,
  });
}

/** Retires capacity: the minting agent approved to burn the sSTB, then `retireCapacity`. */
export function useRetire(wallet: WalletState, deployment: Deployment) {
  const invalidate = useInvalidateAccount();
  return useMutation({
    mutationFn: async (input: { amount: bigint; onStep: (step: TwoStep) => void }) => {
      const client = await walletClient(wallet, deployment);
      input.onStep("approve");
      await approveRetirementSync(client, { amount: input.amount });
      input.onStep("send");
      return retireCapacitySync(client, { amount: input.amount });
    },
    onSuccess: invalidate,
  });
}
