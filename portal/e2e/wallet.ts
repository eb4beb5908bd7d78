import type { BrowserContext, Page } from "@playwright/test";

/** Every wallet call the page made, for assertions (method and, for signatures, nothing secret). */
export interface WalletCall {
  method: string;
}

/** A JSON-RPC call to one of the devnet's nodes (the arbitrum one unless another URL is given). */
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
 * `window.ethereum`) whose requests run in Node through a binding. It starts on the primary's node
 * (`rpcUrl`) and, like a wallet, learns another chain when the page adds it (`wallet_addEthereumChain`,
 * whose RPC URL must answer with that chain id), switches between the chains it knows
 * (`wallet_switchEthereumChain`, 4902 for one it does not) and tells the page (`chainChanged`). It
 * shares one account of the devnet nodes; the node signs (`personal_sign`, `eth_signTypedData_v4`, `eth_sendTransaction`)
 * for its unlocked accounts, so every signature and transaction is real. `refuse` makes the wallet
 * answer 4001 (the user declined) to the methods listed; `onceBefore` runs a step of the test
 * (another party's transaction) the next time the page asks for a method, before it is answered.
 */
export async function injectWallet(
  target: Page | BrowserContext,
  options: {
    rpcUrl: string;
    account: string;
    calls: WalletCall[];
    refuse?: Set<string>;
    onceBefore?: Map<string, () => Promise<void>>;
  },
): Promise<void> {
  let authorized = false;
  // the chain the wallet is on (its node) and the chains it knows, as a wallet keeps them: it starts on
  // the primary's node and learns another chain when the page adds it (`wallet_addEthereumChain`)
  let current = options.rpcUrl;
  const known = new Map<number, string>();
  const chainIdOf = async (url: string) => Number(await rpc<string>(url, "eth_chainId"));
  const hex = (n: number) => `0x${n.toString(16)}`;
  await target.exposeBinding("__testWalletRpc", async (_source, method: string, params: unknown[]) => {
    options.calls.push({ method });
    if (options.refuse?.has(method)) return { error: { code: 4001, message: "User rejected the request." } };
    const hook = options.onceBefore?.get(method);
    if (hook !== undefined) {
      options.onceBefore!.delete(method);
      await hook();
    }
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
          if (known.size === 0) known.set(await chainIdOf(current), current);
          if (wanted === (await chainIdOf(current))) return { result: null };
          const url = known.get(wanted);
          if (url === undefined) return { error: { code: 4902, message: `Unrecognized chain ID ${wanted}` } };
          current = url;
          return { result: null, chainChanged: hex(wanted) };
        }
        case "wallet_addEthereumChain": {
          // like a wallet: the chain's first RPC URL must answer with the chain id it is added under
          const chain = params[0] as { chainId: string; rpcUrls?: string[] };
          const wanted = Number(chain.chainId);
          const url = chain.rpcUrls?.[0];
          if (url === undefined) return { error: { code: -32602, message: "rpcUrls is empty" } };
          if ((await chainIdOf(url)) !== wanted) {
            return { error: { code: -32602, message: `${url} is not chain ${wanted}` } };
          }
          if (known.size === 0) known.set(await chainIdOf(current), current);
          known.set(wanted, url);
          current = url;
          return { result: null, chainChanged: hex(wanted) };
        }
        default:
          return { result: await rpc(current, method, params) };
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
        ) => Promise<{
          result?: unknown;
          error?: { code: number; message: string; data?: unknown };
          chainChanged?: string;
        }>;
      }
    ).__testWalletRpc;
    const provider = {
      async request({ method, params }: { method: string; params?: unknown[] }) {
        const answer = await call(method, params ?? []);
        if (answer.error !== undefined) {
          throw Object.assign(new Error(answer.error.message), answer.error);
        }
        // EIP-1193: a switch is announced to the page's listeners
        if (answer.chainChanged !== undefined) {
          for (const listener of listeners.get("chainChanged") ?? []) listener(answer.chainChanged);
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
