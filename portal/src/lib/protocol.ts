import { createProtocolClient } from "@compute-capacity/sdk";
import type { ProtocolClient } from "@compute-capacity/sdk";

import type { Deployment } from "../config/deployment";
import type { WalletState } from "./wallet";

/** Why a write cannot start: the wallet is missing or on another chain. */
export class WalletNotReadyError extends Error {
  override name = "WalletNotReadyError";
}

/**
 * The SDK's client for writes from the page: the wallet's signer on the deployment's primary chain
 * and the deployment's addresses. Refuses when the wallet is on another chain (the signer is dropped
 * then), so nothing is ever signed for the wrong chain.
 */
export async function walletClient(wallet: WalletState, deployment: Deployment): Promise<ProtocolClient> {
  return walletClientOn(wallet, deployment.chain);
}

/**
 * The SDK's client on any chain of the deployment (the bridge's satellites too): the wallet's signer
 * there and that chain's addresses. Refuses, naming the chain, while the wallet is on another.
 */
export async function walletClientOn(
  wallet: WalletState,
  chain: Deployment["chains"][number],
): Promise<ProtocolClient> {
  const signer = await wallet.getSigner(chain.chain_id);
  if (signer === undefined) {
    throw new WalletNotReadyError(
      wallet.account === undefined
        ? "Connect your wallet first."
        : `Switch your wallet to ${chain.label} (chain ${chain.chain_id}) first.`,
    );
  }
  return createProtocolClient({ runner: signer, deployment: chain.contracts, chainId: chain.chain_id });
}
