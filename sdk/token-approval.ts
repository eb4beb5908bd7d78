/**
 * An ERC-20 approval a transaction needs first: `spender` (a market, the bridge, the redemption
 * manager) must be allowed to take `amount` of `token` from the sender. `approveToken` sends it;
 * a wallet may show it before anything is signed ("what is escrowed").
 */
export interface TokenApproval {
  /** The token's address. */
  token: string;
  /** Who takes it (the contract the transaction calls). */
  spender: string;
  /** Base units of the token. */
  amount: bigint;
}
