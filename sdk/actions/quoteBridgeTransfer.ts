import { addressOf } from "../client.js";
import type { ProtocolClient } from "../client.js";
import type { BaseError, ContractRevertedError, InvalidParameterError } from "../errors.js";
import type { FeeOptionName } from "../bridge.js";
import { readFeeQuote } from "../bridge-tokens.js";
import type { BridgeTokenSymbol } from "../bridge-tokens.js";

export interface QuoteBridgeTransferParameters {
  /** The destination's EVM chain id (42161, 1, 137; their testnets). */
  destinationChainId: bigint | number;
  /** `sSTB` or `STBGOV` (the governance token). */
  token: BridgeTokenSymbol;
  /** Base units to move. */
  amount: bigint;
}

/** One fee option: the token the protocol fee is paid in, the amount, and its discount. */
export interface BridgeFee {
  token: string;
  amount: bigint;
  /** Basis points off the `default` fee (0 for `default`). */
  discountBps: bigint;
}

export interface QuoteBridgeTransferReturnType {
  /** The protocol fee in each option (SPEC.md "Bridge fee quote"), in that token's base units. */
  fees: Record<FeeOptionName, BridgeFee>;
  /** CCIP's fee in the source chain's native gas, sent as the transaction's value with any option. */
  transportFee: bigint;
}

export type QuoteBridgeTransferErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * The fees of a transfer from the client's chain, every option, from the bridge's own `quoteFee`
 * (governed parameters and CCIP's current price): what a sender sees before choosing.
 *
 * @example
 * const { fees, transportFee } = await quoteBridgeTransfer(client, { destinationChainId: 1, token: "sSTB", amount });
 * console.log(fees.service.amount, fees.service.discountBps);
 */
export async function quoteBridgeTransfer(
  client: ProtocolClient,
  parameters: QuoteBridgeTransferParameters,
): Promise<QuoteBridgeTransferReturnType> {
  const quote = await readFeeQuote(client, parameters);
  return {
    fees: {
      default: { token: quote.stablecoin, amount: quote.defaultFee, discountBps: 0n },
      service: { token: addressOf(client, "SSTB"), amount: quote.serviceFee, discountBps: quote.serviceDiscountBps },
      stb_gov: {
        token: addressOf(client, "GovernanceToken"),
        amount: quote.governanceFee,
        discountBps: quote.governanceDiscountBps,
      },
    },
    transportFee: quote.transportFee,
  };
}
