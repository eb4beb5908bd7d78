/**
 * The deployment facts the portal reads at start from the gateway that serves it
 * (`/portal/config.json`): the primary chain, its contracts and the chains of the deployment. The
 * gateway writes it (gateway/server.ts) and the portal reads it (portal/src/config/deployment.ts);
 * no address is built into the portal's bundle.
 */
export interface PortalConfig {
  /** `devnet`, `testnet` or `mainnet`. */
  environment: string;
  /** The primary chain: where redemptions live and what sign-in names. */
  chain: {
    name: string;
    label: string;
    chain_id: number;
    /** Handed to the wallet by `wallet_addEthereumChain` only; the portal itself never calls them. */
    wallet_rpc_urls: string[];
    native_currency: { name: string; symbol: string; decimals: number };
    contracts: Record<string, string>;
  };
  chains: Array<{ name: string; label: string; chain_id: number }>;
}
