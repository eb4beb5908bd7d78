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
  chain: PortalChain;
  /**
   * Every chain of the deployment, the primary first: what the bridge page sends between and what
   * the wallet is switched to for each step.
   */
  chains: PortalChain[];
}

/** One chain of the deployment as the portal needs it: the wallet's terms for it and its contracts. */
export interface PortalChain {
  name: string;
  label: string;
  chain_id: number;
  /** Handed to the wallet by `wallet_addEthereumChain` only; the portal itself never calls them. */
  wallet_rpc_urls: string[];
  native_currency: { name: string; symbol: string; decimals: number };
  /** The chain's contracts by name (no implementations): the primary's all, a satellite's bridge and tokens. */
  contracts: Record<string, string>;
}
