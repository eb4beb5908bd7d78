import { useMutation, useQueryClient } from "@tanstack/react-query";

import type { Deployment } from "../../config/deployment";
import { api, unwrap } from "../../lib/api-client";
import { sessionQueryOptions } from "../../lib/session";
import type { WalletState } from "../../lib/wallet";

/** How long a sign-in message stays valid (the gateway caps the session at its own TTL). */
const MESSAGE_LIFETIME_MS = 60 * 60 * 1000;

/**
 * Sign-In with Ethereum (EIP-4361): a nonce from the gateway, a message naming this page's host and
 * origin and the deployment's chain, signed by the wallet (`personal_sign`), exchanged for the
 * session cookie (httpOnly: the page never sees it).
 */
export async function signIn(wallet: WalletState, deployment: Deployment) {
  if (wallet.account === undefined) throw new Error("Connect a wallet first.");
  // viem's SIWE formatter is loaded when someone signs in, not with the first page
  const [{ createSiweMessage }, { nonce }] = await Promise.all([
    import("viem/siwe"),
    api.POST("/api/v1/session/nonce", { body: {} }).then(unwrap),
  ]);
  const now = new Date();
  const message = createSiweMessage({
    domain: window.location.host,
    address: wallet.account as `0x${string}`,
    statement: `Sign in to the compute portal on ${deployment.chain.label}.`,
    uri: window.location.origin,
    version: "1",
    chainId: deployment.chain.chain_id,
    nonce,
    issuedAt: now,
    expirationTime: new Date(now.getTime() + MESSAGE_LIFETIME_MS),
  });
  const signature = await wallet.signMessage(message);
  return unwrap(await api.POST("/api/v1/session", { body: { message, signature } }));
}

export function useSignIn(wallet: WalletState, deployment: Deployment) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => signIn(wallet, deployment),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionQueryOptions().queryKey }),
  });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => unwrap(await api.DELETE("/api/v1/session")),
    // every other answer was the signed-out address's: drop them, and show the sign-in
    onSettled: () => {
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== "session" });
      queryClient.setQueryData(sessionQueryOptions().queryKey, null);
    },
  });
}
