import { parseEther } from "ethers";
import { futuresMarketAbi, optionsMarketAbi } from "@compute-capacity/sdk";

import { block, ethCall, jsonRpc } from "../../../testing/chain";
import { CHAIN_NOW, HOLDER, PROVIDER } from "../../../testing/data";
import { testDeployment } from "../../../testing/render";

/** The tests' deployment with the two derivatives markets. */
export const deployment = testDeployment();
deployment.chain.contracts.FuturesMarket = "0x00000000000000000000000000000000000000b2";
deployment.chain.contracts.OptionsMarket = "0x00000000000000000000000000000000000000b3";
const { SSTB, CollateralToken } = deployment.chain.contracts;
const ZERO = "0x0000000000000000000000000000000000000000";

/** The markets' fee in the tests: 1% (100 bps), rounded up as MarketMath.fee does. */
const FEE_BPS = 100n;
const cost = (amount: bigint, price: bigint) => (amount * price + 10n ** 18n - 1n) / 10n ** 18n;
const fee = (payment: bigint) => (payment * FEE_BPS + 9_999n) / 10_000n;

/** A position as `listingOf` answers it (SPEC's marketplace listing), by the enums' indices. */
export interface Position {
  kind: number;
  status: number;
  seller?: string;
  counterparty?: string;
  amount?: bigint;
  remaining?: bigint;
  price: bigint;
  strike?: bigint;
  expiration: number;
}

/**
 * The chain as the wallet's node answers it: the latest block at {@link CHAIN_NOW}, both markets'
 * reads (tokens, fee quotes, the positions given by id), a gas estimate, and a transaction that
 * stays with the wallet (the person has not answered yet). Every method asked is kept in `rpc`.
 */
export function derivativesChain(positions: Record<number, Position>, rpc: string[] = []) {
  const listingOf = ([id]: readonly unknown[]) => {
    const p = positions[Number(id)];
    if (p === undefined) throw { code: 3, message: "execution reverted", data: "0x" };
    const amount = p.amount ?? parseEther("2");
    return [
      [
        id,
        Number(id) % 3 === 2 ? 2 : 3,
        p.kind,
        p.status,
        "sSTB",
        p.seller ?? PROVIDER,
        p.counterparty ?? ZERO,
        amount,
        p.remaining ?? amount,
        p.price,
        cost(amount, p.price),
        p.strike ?? 0n,
        CHAIN_NOW - 3_600,
        p.expiration,
      ],
    ];
  };
  const market = {
    listingOf,
    sstb: () => [SSTB],
    paymentToken: () => [CollateralToken],
    feeBps: () => [FEE_BPS],
    quoteTrade: ([filled, amount, price]: readonly unknown[]) => {
      const payment =
        cost((filled as bigint) + (amount as bigint), price as bigint) - cost(filled as bigint, price as bigint);
      return [payment, fee(payment)];
    },
    optionOf: ([id]: readonly unknown[]) => {
      const p = positions[Number(id)];
      const amount = p.amount ?? parseEther("2");
      return [
        [
          p.seller ?? PROVIDER,
          p.expiration,
          CHAIN_NOW - 3_600,
          p.status,
          p.kind,
          amount,
          amount - (p.remaining ?? amount),
          p.price,
          p.counterparty ?? HOLDER,
          p.strike ?? 0n,
        ],
      ];
    },
  };
  return jsonRpc(
    {
      eth_blockNumber: () => "0x64",
      eth_getBlockByNumber: () => block(CHAIN_NOW),
      eth_call: ethCall([
        { abi: futuresMarketAbi, answers: market },
        { abi: optionsMarketAbi, answers: market },
      ]),
      eth_estimateGas: () => "0x30000",
      eth_sendTransaction: () => new Promise(() => {}),
    },
    rpc,
  );
}

/** The gateway's list item of an open position. */
export const anItem = (
  listing_id: number,
  market_type: "futures" | "options",
  price_per_token: number,
  expiration: number,
) => ({
  listing_id,
  market_type,
  token_type: "sSTB" as const,
  seller: PROVIDER,
  amount: 2,
  amount_base_units: "2000000000000000000",
  price_per_token,
  // the payment token's base units (6 decimals), as the gateway gives them beside the numbers
  price_per_token_base_units: String(Math.round(price_per_token * 1e6)),
  total_price: 2 * price_per_token,
  total_price_base_units: String(Math.round(2 * price_per_token * 1e6)),
  listed_at: CHAIN_NOW - 3_600,
  expiration,
});
