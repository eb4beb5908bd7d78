/**
 * The chains the protocol runs on, by Hardhat network name: the chain id each network must report
 * and its label. One table for the deployment (which chains make an environment), the gateway (chain
 * names and labels in the API) and the portal. The CCIP chain selectors are in `bridge.ts`.
 */
export const CHAINS = {
  arbitrum: { chainId: 42161n, label: "Arbitrum One" },
  ethereum: { chainId: 1n, label: "Ethereum" },
  polygon: { chainId: 137n, label: "Polygon PoS" },
  arbitrumSepolia: { chainId: 421614n, label: "Arbitrum Sepolia" },
  sepolia: { chainId: 11155111n, label: "Sepolia" },
  polygonAmoy: { chainId: 80002n, label: "Polygon Amoy" },
} as const;

/** A chain's name in {@link CHAINS} (a Hardhat network name). */
export type ChainName = keyof typeof CHAINS;

/** The name of the chain with `chainId`, or undefined for a chain the protocol does not run on. */
export function chainNameOf(chainId: bigint | number | string): ChainName | undefined {
  const id = String(chainId);
  return (Object.keys(CHAINS) as ChainName[]).find((name) => String(CHAINS[name].chainId) === id);
}
