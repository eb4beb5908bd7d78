import { useCallback, useSyncExternalStore } from "react";

import { decryptAccessDetails, deriveAccessKeyPair, signerOf } from "@compute-capacity/sdk";
import type { AccessDetails, AccessKeyPair } from "@compute-capacity/sdk";

import type { Deployment } from "../../config/deployment";
import { walletClient } from "../../lib/protocol";
import type { WalletState } from "../../lib/wallet";

/**
 * The access key derived from the wallet's signature (DESIGN.md 5b, the SDK's `deriveAccessKeyPair`):
 * kept in this module's memory for the page's life only, never sent anywhere and never stored
 * (no localStorage, no cookie); a reload asks the wallet again. Only its public half goes to the
 * gateway, for providers to encrypt to.
 */
let derived: { address: string; keys: AccessKeyPair } | undefined;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The derived key of `address`, if this page derived it. */
export function useDerivedKey(address: string | undefined): AccessKeyPair | undefined {
  const current = useSyncExternalStore(subscribe, () => derived);
  return current !== undefined && address !== undefined && current.address === address.toLowerCase()
    ? current.keys
    : undefined;
}

/** Derives the key with the wallet (it signs the same EIP-4361 text twice; a wallet whose signatures differ is refused). */
export function useDeriveKey(wallet: WalletState, deployment: Deployment) {
  return useCallback(async (): Promise<AccessKeyPair> => {
    const client = await walletClient(wallet, deployment);
    const signer = signerOf(client);
    const keys = await deriveAccessKeyPair(signer, {
      domain: window.location.host,
      uri: window.location.origin,
      chainId: deployment.chain.chain_id,
      redemptionManager: deployment.chain.contracts.RedemptionManager,
    });
    derived = { address: wallet.account!.toLowerCase(), keys };
    for (const listener of listeners) listener();
    return keys;
  }, [wallet, deployment]);
}

/** Opens an access-details envelope in the page with the derived key (bound to this chain, manager and redemption). */
export function openEnvelope(
  envelope: string,
  keys: AccessKeyPair,
  deployment: Deployment,
  redemptionId: number,
): AccessDetails {
  return decryptAccessDetails(envelope, keys.privateKey, {
    chainId: BigInt(deployment.chain.chain_id),
    redemptionManager: deployment.chain.contracts.RedemptionManager,
    redemptionId: BigInt(redemptionId),
  });
}
