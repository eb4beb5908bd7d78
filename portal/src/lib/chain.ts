import { queryOptions, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";

import { deployedReader, getAccessKey, getLease, getLeaseId, redemptionViewsAbi } from "@compute-capacity/sdk";
import type { GetLeaseReturnType } from "@compute-capacity/sdk";

import type { Deployment } from "../config/deployment";
import { useDeployment } from "./deployment";
import { walletClient } from "./protocol";
import { useWallet } from "./wallet";
import type { WalletState } from "./wallet";

/**
 * Reads from the chain (issue 19's access keys and leases) through the SDK, with the wallet's node
 * as the runner: the chain is the source of truth for keys and leases, and the portal's CSP allows
 * no RPC URL of its own (connect-src 'self'), so these reads need the wallet connected on the
 * deployment's chain; the pages say so when it is not. The gateway's lease API (issue 19, built in
 * parallel) is not needed.
 */

/** Whether chain reads can run now (the wallet connected on the deployment's chain). */
export const canReadChain = (wallet: WalletState) => wallet.account !== undefined && wallet.onAppChain;

/** What the lease screens show: the lease a redemption belongs to, and the chain's clock. */
export interface LeaseView {
  /** The lease's id: the redemption's own, or the lease a renewal renewed; null before fulfilment. */
  leaseId: bigint | null;
  /** Whether this redemption is a renewal of `leaseId` (not the lease's first redemption). */
  renewal: boolean;
  lease: GetLeaseReturnType | null;
  /** The latest block's time (Unix seconds): leases end by the chain's clock, not the browser's. */
  chainNow: number;
}

/** The lease of redemption `redemptionId` (the SDK's `getLeaseId`, then `getLease`). */
export const leaseQueryOptions = (wallet: WalletState, deployment: Deployment, redemptionId: number) =>
  queryOptions({
    queryKey: ["chain", "lease", wallet.account, wallet.chainId, redemptionId],
    queryFn: async (): Promise<LeaseView> => {
      const client = await walletClient(wallet, deployment);
      const leaseId = await getLeaseId(client, { redemptionId: BigInt(redemptionId) });
      const block = await client.runner.provider?.getBlock("latest");
      if (block === null || block === undefined) throw new Error("The wallet's node returned no latest block.");
      const chainNow = block.timestamp;
      if (leaseId === null) return { leaseId: null, renewal: false, lease: null, chainNow };
      const lease = await getLease(client, { leaseId });
      return { leaseId, renewal: leaseId !== BigInt(redemptionId), lease, chainNow };
    },
    enabled: canReadChain(wallet),
    refetchInterval: 5_000,
  });

/** The X25519 key `user` registered on the redemption manager (lower-case hex), or null. */
export const chainAccessKeyQueryOptions = (wallet: WalletState, deployment: Deployment, user: string | undefined) =>
  queryOptions({
    queryKey: ["chain", "access-key", wallet.account, wallet.chainId, user?.toLowerCase()],
    queryFn: async () => getAccessKey(await walletClient(wallet, deployment), { user: user! }),
    enabled: canReadChain(wallet) && user !== undefined,
    // a key registered or replaced elsewhere (another tab, site or tool) shows up
    refetchInterval: 10_000,
  });

export const useLease = (wallet: WalletState, deployment: Deployment, redemptionId: number) =>
  useQuery(leaseQueryOptions(wallet, deployment, redemptionId));
export const useChainAccessKey = (wallet: WalletState, deployment: Deployment, user: string | undefined) =>
  useQuery(chainAccessKeyQueryOptions(wallet, deployment, user));

/** The chain's clock as read: the latest block's time, and the browser's time when it was read. */
export interface ChainClock {
  chainNow: number;
  readAt: number;
}

/**
 * The chain's clock (the latest block's time). Deadlines, dispute windows, lease ends and offers
 * are decided by block time, which need not be the computer's (a devnet moved forward, a wrong
 * system clock): every countdown and "still possible" on the pages reads this, never `Date.now()`.
 */
export const chainClockQueryOptions = (wallet: WalletState, deployment: Deployment) =>
  queryOptions({
    queryKey: ["chain", "clock", wallet.account, wallet.chainId],
    queryFn: async (): Promise<ChainClock> => {
      const client = await walletClient(wallet, deployment);
      const block = await client.runner.provider?.getBlock("latest");
      if (block === null || block === undefined) throw new Error("The wallet's node returned no latest block.");
      return { chainNow: block.timestamp, readAt: Date.now() / 1000 };
    },
    enabled: canReadChain(wallet),
    staleTime: 30_000,
    refetchInterval: 30_000,
  });

/**
 * Now by the chain's clock (Unix seconds), moving on every second from the last reading;
 * undefined until the chain has been read (the wallet connected on the deployment's chain).
 */
export function useChainNow(): number | undefined {
  const wallet = useWallet();
  const deployment = useDeployment();
  const clock = useQuery(chainClockQueryOptions(wallet, deployment));
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), 1_000);
    return () => clearInterval(timer);
  }, []);
  if (clock.data === undefined) return undefined;
  return clock.data.chainNow + (Date.now() / 1000 - clock.data.readAt);
}

/** The redemption manager's reputation unit (sSTB base units, read through RedemptionViews): smaller redemptions do not count in a provider's statistics. */
export const reputationUnitQueryOptions = (wallet: WalletState, deployment: Deployment) =>
  queryOptions({
    queryKey: ["chain", "reputation-unit", wallet.chainId],
    queryFn: async () => {
      const client = await walletClient(wallet, deployment);
      return deployedReader(client, "RedemptionViews", redemptionViewsAbi).reputationUnit();
    },
    enabled: canReadChain(wallet),
    staleTime: 600_000,
  });
