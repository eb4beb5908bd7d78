export { WalletProvider, useWallet } from "./wallet";
export type { WalletState } from "./wallet";
export type { DiscoveredWallet, Eip1193Provider } from "./discovery";
