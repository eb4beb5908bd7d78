import { createContext, useCallback, useContext, useEffect, useMemo, useState } from "react";
import type { ReactNode } from "react";
import type { JsonRpcSigner } from "ethers";

import type { Deployment } from "../../config/deployment";
import { discoverWallets } from "./discovery";
import type { DiscoveredWallet, Eip1193Provider } from "./discovery";

/** The wallet as the pages see it. */
export interface WalletState {
  /** Wallets found on the page. */
  wallets: DiscoveredWallet[];
  /** The connected wallet and account, if any. */
  wallet?: DiscoveredWallet;
  account?: string;
  /** The wallet's current chain. */
  chainId?: number;
  /** The chain the portal works on (the deployment's primary chain). */
  appChainId: number;
  /** Whether the wallet is on the portal's chain (writes and signatures need it). */
  onAppChain: boolean;
  connect(wallet: DiscoveredWallet): Promise<string>;
  /**
   * Asks the wallet to switch to a chain of the deployment (the portal's own by default), adding the
   * chain first if the wallet does not know it.
   */
  switchChain(chainId?: number): Promise<void>;
  disconnect(): void;
  /** EIP-191 `personal_sign` of a text by the connected account. */
  signMessage(message: string): Promise<string>;
  /**
   * An ethers signer on a chain of the deployment (the portal's own by default); undefined while not
   * connected or while the wallet is on another chain.
   */
  getSigner(chainId?: number): Promise<JsonRpcSigner | undefined>;
}

const WalletContext = createContext<WalletState | undefined>(undefined);

const hex = (n: number) => `0x${n.toString(16)}`;
const toUtf8Hex = (text: string) =>
  "0x" + Array.from(new TextEncoder().encode(text), (b) => b.toString(16).padStart(2, "0")).join("");

/**
 * The one place the portal touches the wallet (STYLE-WEB.md "Portal" 2): discovery, connection,
 * the chain switch, signing, and the ethers signer, which exists only while the wallet is on the
 * deployment's chain (it is dropped when the wallet moves to another chain).
 */
export function WalletProvider({ deployment, children }: { deployment: Deployment; children: ReactNode }) {
  const appChainId = deployment.chain.chain_id;
  const [wallets, setWallets] = useState<DiscoveredWallet[]>([]);
  const [wallet, setWallet] = useState<DiscoveredWallet>();
  const [account, setAccount] = useState<string>();
  const [chainId, setChainId] = useState<number>();
  // off once the visitor disconnects: no silent reconnection after that in this page
  const [autoConnect, setAutoConnect] = useState(true);

  useEffect(() => discoverWallets(setWallets), []);

  // a wallet that already shares an account with this site (`eth_accounts` asks nothing) is
  // reconnected after a reload: the session cookie survives one, the page's state does not
  useEffect(() => {
    if (wallet !== undefined || wallets.length === 0 || !autoConnect) return;
    let cancelled = false;
    void (async () => {
      for (const w of wallets) {
        try {
          const accounts = (await w.provider.request({ method: "eth_accounts" })) as string[];
          if (cancelled || accounts.length === 0) continue;
          const chain = Number((await w.provider.request({ method: "eth_chainId" })) as string);
          if (cancelled) return;
          setWallet(w);
          setAccount(accounts[0]);
          setChainId(chain);
          return;
        } catch {
          // a wallet that cannot answer stays for the visitor to connect
        }
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [wallets, wallet, autoConnect]);

  // the connected wallet found again under its own name (it announced itself after the page took
  // it as window.ethereum): the same provider, named as it announced itself
  useEffect(() => {
    if (wallet === undefined || wallets.some((w) => w.uuid === wallet.uuid)) return;
    const same = wallets.find((w) => w.provider === wallet.provider);
    if (same !== undefined) setWallet(same);
  }, [wallets, wallet]);

  // follow the connected wallet's account and chain
  useEffect(() => {
    const provider = wallet?.provider;
    if (provider?.on === undefined) return;
    const onAccounts = (...args: unknown[]) => {
      const accounts = args[0] as string[];
      setAccount(accounts[0]);
      if (accounts.length === 0) setWallet(undefined);
    };
    const onChain = (...args: unknown[]) => setChainId(Number(args[0] as string));
    provider.on("accountsChanged", onAccounts);
    provider.on("chainChanged", onChain);
    return () => {
      provider.removeListener?.("accountsChanged", onAccounts);
      provider.removeListener?.("chainChanged", onChain);
    };
  }, [wallet]);

  const connect = useCallback(async (w: DiscoveredWallet) => {
    const accounts = (await w.provider.request({ method: "eth_requestAccounts" })) as string[];
    if (accounts.length === 0) throw new Error("The wallet shared no account.");
    const chain = Number((await w.provider.request({ method: "eth_chainId" })) as string);
    setWallet(w);
    setAccount(accounts[0]);
    setChainId(chain);
    return accounts[0];
  }, []);

  const switchChain = useCallback(
    async (to: number = appChainId) => {
      const provider: Eip1193Provider | undefined = wallet?.provider;
      if (provider === undefined) throw new Error("Connect a wallet first.");
      const chain = [deployment.chain, ...deployment.chains].find((c) => c.chain_id === to);
      if (chain === undefined) throw new Error(`Chain ${to} is not a chain of this deployment.`);
      try {
        await provider.request({ method: "wallet_switchEthereumChain", params: [{ chainId: hex(to) }] });
      } catch (error) {
        // 4902: the wallet does not know the chain; add it (it switches to it as it adds it)
        if ((error as { code?: number }).code !== 4902) throw error;
        await provider.request({
          method: "wallet_addEthereumChain",
          params: [
            {
              chainId: hex(to),
              chainName: chain.label,
              rpcUrls: chain.wallet_rpc_urls,
              nativeCurrency: chain.native_currency,
            },
          ],
        });
      }
      setChainId(Number((await provider.request({ method: "eth_chainId" })) as string));
    },
    [wallet, appChainId, deployment],
  );

  const value = useMemo<WalletState>(() => {
    const onAppChain = chainId === appChainId;
    return {
      wallets,
      wallet,
      account,
      chainId,
      appChainId,
      onAppChain,
      connect,
      switchChain,
      disconnect: () => {
        setAutoConnect(false);
        setWallet(undefined);
        setAccount(undefined);
        setChainId(undefined);
      },
      async signMessage(message: string) {
        if (wallet === undefined || account === undefined) throw new Error("Connect a wallet first.");
        return (await wallet.provider.request({
          method: "personal_sign",
          params: [toUtf8Hex(message), account],
        })) as string;
      },
      async getSigner(on: number = appChainId) {
        if (wallet === undefined || account === undefined || chainId !== on) return undefined;
        const { BrowserProvider } = await import("ethers");
        return new BrowserProvider(wallet.provider, on).getSigner(account);
      },
    };
  }, [wallets, wallet, account, chainId, appChainId, connect, switchChain]);

  return <WalletContext.Provider value={value}>{children}</WalletContext.Provider>;
}

/** The wallet (inside {@link WalletProvider}). */
export function useWallet(): WalletState {
  const wallet = useContext(WalletContext);
  if (wallet === undefined) throw new Error("useWallet outside WalletProvider");
  return wallet;
}
