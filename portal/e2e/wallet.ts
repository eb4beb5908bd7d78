import type { BrowserContext, Page } from "@playwright/test";

/** Every wallet call the page made, for assertions (method and, for signatures, nothing secret). */
export interface WalletCall {
  method: string;
}

/** A JSON-RPC call to the devnet's arbitrum node. */
export async function rpc<T>(rpcUrl: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: T; error?: { code: number; message: string; data?: unknown } };
  if (body.error !== undefined) throw Object.assign(new Error(body.error.message), body.error);
  return body.result as T;
}

/**
 * The injected test wallet (PORTAL.md): an EIP-1193 provider announced by EIP-6963 (and as
 * `window.ethereum`) whose requests run in Node through a binding. It shares one account of the
 * devnet node; the node signs (`personal_sign`, `eth_signTypedData_v4`, `eth_sendTransaction`)
 * for its unlocked accounts, so every signature and transaction is real. `refuse` makes the wallet
 * answer 4001 (the user declined) to the methods listed.
 */
export async function injectWallet(
  target: Page | BrowserContext,
  options: { rpcUrl: string; account: string; calls: WalletCall[]; refuse?: Set<string> },
): Promise<void> {
  let authorized = false;
  await target.exposeBinding("__testWalletRpc", async (_source, method: string, params: unknown[]) => {
    options.calls.push({ method });
    if (options.refuse?.has(method)) return { error: { code: 4001, message: "User rejected the request." } };
    try {
      switch (method) {
        case "eth_requestAccounts":
          authorized = true;
          return { result: [options.account] };
        case "eth_accounts":
          // like a real wallet: the account is shared once the site asked for it (then across reloads)
          return { result: authorized ? [options.account] : [] };
        case "wallet_switchEthereumChain": {
          const wanted = Number((params[0] as { chainId: string }).chainId);
          const current = Number(await rpc<string>(options.rpcUrl, "eth_chainId"));
          if (wanted === current) return { result: null };
          return { error: { code: 4902, message: `Unrecognized chain ID ${wanted}` } };
        }
        default:
          return { result: await rpc(options.rpcUrl, method, params) };
      }
    } catch (error) {
      const e = error as { code?: number; message?: string; data?: unknown };
      return { error: { code: e.code ?? -32603, message: e.message ?? String(error), data: e.data } };
    }
  });
  await target.addInitScript(() => {
    type Listener = (...args: unknown[]) => void;
    const listeners = new Map<string, Set<Listener>>();
    const call = (
      window as unknown as {
        __testWalletRpc: (
          m: string,
          p: unknown[],
        ) => Promise<{ result?: unknown; error?: { code: number; message: string; data?: unknown } }>;
      }
    ).__testWalletRpc;
    const provider = {
      async request({ method, params }: { method: string; params?: unknown[] }) {
        const answer = await call(method, params ?? []);
        if (answer.error !== undefined) {
          throw Object.assign(new Error(answer.error.message), answer.error);
        }
        return answer.result;
      },
      on(event: string, listener: Listener) {
        if (!listeners.has(event)) listeners.set(event, new Set());
        listeners.get(event)!.add(listener);
      },
      removeListener(event: string, listener: Listener) {
        listeners.get(event)?.delete(listener);
      },
    };
    const info = {
      uuid: "0b6e8b3c-1d3f-4e5a-9a7b-2c4d6e8f0a1b",
      name: "Test Wallet",
      icon: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 8 8'%3E%3Crect width='8' height='8' fill='%23345'/%3E%3C/svg%3E",
      rdns: "dev.compute.test-wallet",
    };
    const announce = () =>
      window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }));
    window.addEventListener("eip6963:requestProvider", announce);
    (window as unknown as { ethereum: unknown }).ethereum = provider;
    announce();
  });
}
