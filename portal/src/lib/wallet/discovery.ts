/** An EIP-1193 provider (what a wallet injects). */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] | Record<string, unknown> }): Promise<unknown>;
  on?(event: string, listener: (...args: unknown[]) => void): void;
  removeListener?(event: string, listener: (...args: unknown[]) => void): void;
}

/** A wallet found on the page: announced by EIP-6963, or the legacy `window.ethereum`. */
export interface DiscoveredWallet {
  uuid: string;
  name: string;
  /** A data: URI (EIP-6963 requires one). */
  icon: string;
  rdns: string;
  provider: Eip1193Provider;
}

/** The id of the entry for a wallet found only as `window.ethereum`. */
export const LEGACY = "window.ethereum";

interface AnnounceEvent extends Event {
  detail: { info: { uuid: string; name: string; icon: string; rdns: string }; provider: Eip1193Provider };
}

declare global {
  interface Window {
    ethereum?: Eip1193Provider;
  }
}

/**
 * Finds the page's wallets (EIP-6963: listen for `eip6963:announceProvider`, then ask with
 * `eip6963:requestProvider`); `window.ethereum` is added when no wallet announced itself within
 * `graceMs` (an older wallet). Calls `onChange` with the list as it grows; returns a stop function.
 */
export function discoverWallets(onChange: (wallets: DiscoveredWallet[]) => void, graceMs = 400): () => void {
  const found = new Map<string, DiscoveredWallet>();
  const onAnnounce = (event: Event) => {
    const { info, provider } = (event as AnnounceEvent).detail ?? {};
    if (info?.uuid === undefined || typeof provider?.request !== "function") return;
    found.set(info.uuid, { ...info, provider });
    // a wallet that announced itself late (after the grace period) is the one behind the
    // window.ethereum entry added meanwhile: it goes by the name it announced
    const legacy = found.get(LEGACY);
    if (legacy !== undefined && (legacy.provider === provider || window.ethereum === provider)) found.delete(LEGACY);
    onChange([...found.values()]);
  };
  window.addEventListener("eip6963:announceProvider", onAnnounce);
  window.dispatchEvent(new Event("eip6963:requestProvider"));
  const timer = setTimeout(() => {
    if (found.size === 0 && window.ethereum !== undefined) {
      found.set(LEGACY, {
        uuid: LEGACY,
        name: "Browser wallet",
        icon: "",
        rdns: LEGACY,
        provider: window.ethereum,
      });
      onChange([...found.values()]);
    }
  }, graceMs);
  return () => {
    clearTimeout(timer);
    window.removeEventListener("eip6963:announceProvider", onAnnounce);
  };
}
