import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import {
  deployedReader,
  ensureAllowance,
  erc20Abi,
  executeQueuedMessageSync,
  prepareSendBridgeTransfer,
  quoteBridgeTransfer,
  readContract,
  sendBridgeTransferSync,
  sstbAbi,
} from "@compute-capacity/sdk";
import type { FeeOptionName, QuoteBridgeTransferReturnType } from "@compute-capacity/sdk";

import type { Deployment } from "../../config/deployment";
import { api, unwrap } from "../../lib/api-client";
import { walletClientOn } from "../../lib/protocol";
import type { WalletState } from "../../lib/wallet";

/** One chain of the deployment (the primary or a satellite). */
export type BridgeChain = Deployment["chains"][number];

/** What the wallet is being asked for during a transfer. */
export type BridgeStep = "approve" | "send";

/** Whether the wallet can read and sign on `chain` now (connected, on that chain). */
export const isOn = (wallet: WalletState, chain: BridgeChain) =>
  wallet.account !== undefined && wallet.chainId === chain.chain_id;

/** The connected account's sSTB on `chain`, read through the wallet there (refreshed every 5 s). */
export const sstbBalanceQueryOptions = (wallet: WalletState, chain: BridgeChain) =>
  queryOptions({
    queryKey: ["chain", "sstb-balance", chain.chain_id, wallet.account],
    queryFn: async () => {
      const client = await walletClientOn(wallet, chain);
      return (await deployedReader(client, "SSTB", sstbAbi).balanceOf(wallet.account!)) as bigint;
    },
    enabled: isOn(wallet, chain),
    refetchInterval: 5_000,
  });

/**
 * What the connected account holds on `chain` of the fee's token (`token`, any ERC-20: the bridge's
 * stablecoin, sSTB or STBGOV) and of the chain's gas (CCIP's fee is paid in it), read through the wallet.
 */
export const feeFundsQueryOptions = (wallet: WalletState, chain: BridgeChain, token: string | undefined) =>
  queryOptions({
    queryKey: ["chain", "fee-funds", chain.chain_id, wallet.account, token],
    queryFn: async () => {
      const client = await walletClientOn(wallet, chain);
      const [tokens, gas] = await Promise.all([
        readContract(client, { abi: erc20Abi, address: token!, functionName: "balanceOf", args: [wallet.account!] }),
        client.runner.provider!.getBalance(wallet.account!),
      ]);
      return { tokens: tokens as bigint, gas };
    },
    enabled: token !== undefined && isOn(wallet, chain),
    refetchInterval: 5_000,
  });

export interface BridgeTerms {
  from: BridgeChain;
  to: BridgeChain;
  amount: bigint;
}

/**
 * The fee of every option for `amount` sSTB from `from` to `to`, from the source bridge's own quote
 * (governed parameters and CCIP's price), read through the wallet on the source chain.
 */
export const bridgeQuoteQueryOptions = (wallet: WalletState, terms: BridgeTerms | undefined) =>
  queryOptions({
    queryKey: ["chain", "bridge-quote", terms?.from.chain_id, terms?.to.chain_id, terms?.amount.toString()],
    queryFn: async (): Promise<QuoteBridgeTransferReturnType> =>
      quoteBridgeTransfer(await walletClientOn(wallet, terms!.from), {
        destinationChainId: terms!.to.chain_id,
        token: "sSTB",
        amount: terms!.amount,
      }),
    enabled: terms !== undefined && isOn(wallet, terms.from),
    refetchInterval: 15_000,
  });

/**
 * Sends sSTB to the same account on another chain: approves what the bridge takes (the tokens and
 * the fee in the chosen option's token) when the allowance is short, then `send` with CCIP's fee as
 * its value; resolves with the CCIP message id the transfer is followed by.
 */
export function useSendBridgeTransfer(wallet: WalletState) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      terms,
      feeOption,
      onStep,
    }: {
      terms: BridgeTerms;
      feeOption: FeeOptionName;
      onStep: (step: BridgeStep) => void;
    }) => {
      const client = await walletClientOn(wallet, terms.from);
      const parameters = {
        destinationChainId: terms.to.chain_id,
        recipient: wallet.account!,
        token: "sSTB" as const,
        amount: terms.amount,
        feeOption,
      };
      const { approvals } = await prepareSendBridgeTransfer(client, parameters);
      onStep("approve");
      for (const approval of approvals) await ensureAllowance(client, approval);
      onStep("send");
      return sendBridgeTransferSync(client, parameters);
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["chain", "sstb-balance"] });
      void queryClient.invalidateQueries({ queryKey: ["chain", "fee-funds"] });
    },
  });
}

/** A transfer as the gateway's indexers of both chains see it, refreshed every 2 s until it completes. */
export const bridgeStatusQueryOptions = (messageId: string | undefined) =>
  queryOptions({
    queryKey: ["bridge", "status", messageId],
    queryFn: async () =>
      unwrap(await api.GET("/api/v1/bridge/status/{message_id}", { params: { path: { message_id: messageId! } } })),
    enabled: messageId !== undefined,
    refetchInterval: (query) => (query.state.data?.status === "completed" ? false : 2_000),
    // the source chain's indexer sees the message a poll after the receipt: not found until then
    retry: (count, error) => count < 30 && (error as { code?: string }).code === "not_found",
    retryDelay: 1_000,
  });
export const useBridgeStatus = (messageId: string | undefined) => useQuery(bridgeStatusQueryOptions(messageId));

/**
 * Delivers a queued transfer on its destination (`executeQueued`, which anyone may send): the whole of it,
 * or one installment of the route's capacity when it is larger.
 */
export function useExecuteQueued(wallet: WalletState) {
  const queryClient = useQueryClient();
  return useMutation({
    // `amount`: the installment the page showed, for its acknowledgement
    mutationFn: async ({ chain, messageId }: { chain: BridgeChain; messageId: string; amount: bigint }) =>
      executeQueuedMessageSync(await walletClientOn(wallet, chain), { messageId }),
    // pending until the transfer is read again: the button it enabled must not come back on the old figures
    onSuccess: async (_r, { messageId }) => {
      void queryClient.invalidateQueries({ queryKey: ["chain", "sstb-balance"] });
      await queryClient.invalidateQueries({ queryKey: ["bridge", "status", messageId] });
    },
  });
}
