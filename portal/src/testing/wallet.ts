import { RPC } from "./chain";

export interface TestWalletOptions {
  /** The account the wallet shares. */
  account: string;
  /** The wallet's chain (default: the tests' deployment's, 42161). */
  chainId?: number;
  /** The name it announces over EIP-6963. */
  name?: string;
  /** Whether the site already has the account (a reload after connecting): `eth_accounts` answers it. */
  connected?: boolean;
  /** Announce only after this many milliseconds (a slow extension). */
  announceAfterMs?: number;
  /** Also set `window.ethereum` (older wallets do only that). */
  legacy?: boolean;
}

/**
 * A wallet in the page (EIP-1193, announced by EIP-6963): it answers the account and chain
 * itself and forwards every other method, signatures and transactions included, as JSON-RPC to
 * {@link RPC}, where the test's MSW handler answers as a node would. Returns the uninstall.
 */
export function installTestWallet(options: TestWalletOptions): () => void {
  let authorized = options.connected ?? false;
  let id = 0;
  const provider = {
    async request({ method, params }: { method: string; params?: unknown[] }): Promise<unknown> {
      if (method === "eth_requestAccounts") {
        authorized = true;
        return [options.account];
      }
      if (method === "eth_accounts") return authorized ? [options.account] : [];
      if (method === "eth_chainId") return `0x${(options.chainId ?? 42161).toString(16)}`;
      const response = await fetch(RPC, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params: params ?? [] }),
      });
      const body = (await response.json()) as {
        result?: unknown;
        error?: { code: number; message: string; data?: unknown };
      };
      if (body.error !== undefined) throw Object.assign(new Error(body.error.message), body.error);
      return body.result;
    },
    on() {},
    removeListener() {},
  };
  const info = {
    uuid: "5f1f4c1e-6a57-4e53-9e42-7f1f2f8a9b01",
    name: options.name ?? "Test Wallet",
    icon: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E",
    rdns: "dev.compute.unit-test-wallet",
  };
  const announce = () =>
    window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }));
  let listening = options.announceAfterMs === undefined;
  const onRequest = () => {
    if (listening) announce();
  };
  window.addEventListener("eip6963:requestProvider", onRequest);
  const timer =
    options.announceAfterMs === undefined
      ? undefined
      : setTimeout(() => {
          listening = true;
          announce();
        }, options.announceAfterMs);
  if (options.legacy === true) window.ethereum = provider;
  return () => {
    clearTimeout(timer);
    window.removeEventListener("eip6963:requestProvider", onRequest);
    if (options.legacy === true) delete window.ethereum;
  };
}
