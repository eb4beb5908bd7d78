import type { MarketStep } from "./api";

/** The markets' payment token: the chain's stablecoin (the devnet's mUSDC), 6 decimals. */
export const PAYMENT = { symbol: "mUSDC", decimals: 6 };

/** What the wallet is asked for at each step of a market write. */
export const STEP_TEXT: Record<MarketStep, string> = {
  approve: "Approve the token for the market in your wallet (only if the allowance is short)…",
  send: "Confirm the trade in your wallet…",
};
