import { isAddress } from "ethers";
import type { TransactionReceipt } from "ethers";

import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall, readContract } from "../contract-calls.js";
import { InvalidParameterError } from "../errors.js";
import type { BaseError, ContractRevertedError } from "../errors.js";
import { MARKET_CONTRACTS } from "../market-contracts.js";
import type { MarketName } from "../market-contracts.js";

export interface GetClaimableParameters {
  market: MarketName;
  /** Whose claimable balance. */
  account: string;
  /** The token (the payment token or sSTB). */
  token: string;
}

/**
 * What a market holds for `account` in `token`: payments the token refused to transfer to it (a
 * blacklisted address, as native USDC can have), withdrawn with {@link withdrawClaimable}.
 *
 * @example
 * const held = await getClaimable(client, { market: "spot", account, token: usdc });
 */
export async function getClaimable(
  client: ProtocolClient,
  { market, account, token }: GetClaimableParameters,
): Promise<bigint> {
  const { name, abi } = MARKET_CONTRACTS[market];
  return readContract(client, {
    abi,
    address: addressOf(client, name),
    functionName: "claimable",
    args: [account, token],
  });
}

export interface WithdrawClaimableParameters {
  market: MarketName;
  token: string;
  /** Where the balance goes: the caller's own address or any other the token accepts. */
  to: string;
}

export type WithdrawClaimableErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds `withdrawClaimable(token, to)`: all of `token` the market holds for the caller, to `to`.
 * Works while the market is paused.
 *
 * @example
 * const transaction = prepareWithdrawClaimable(client, { market: "spot", token: usdc, to: newAddress });
 */
export function prepareWithdrawClaimable(
  client: ProtocolClient,
  { market, token, to }: WithdrawClaimableParameters,
): PreparedTransaction {
  const contract = MARKET_CONTRACTS[market];
  if (contract === undefined) throw new InvalidParameterError("market", 'must be "spot", "futures" or "options"');
  if (!isAddress(token)) throw new InvalidParameterError("token", "must be an address");
  if (!isAddress(to)) throw new InvalidParameterError("to", "must be an address");
  const data = encodeFunctionCall(contract.abi, "withdrawClaimable", [token, to]);
  return { to: addressOf(client, contract.name), data, value: 0n };
}

/**
 * Withdraws a claimable balance and returns the transaction's hash; with nothing held, it is
 * refused (`MarketNothingToWithdraw`) before anything is sent.
 */
export async function withdrawClaimable(
  client: ProtocolClient,
  parameters: WithdrawClaimableParameters,
): Promise<string> {
  return sendPrepared(client, prepareWithdrawClaimable(client, parameters), "withdrawClaimable");
}

/** Withdraws a claimable balance and waits for the receipt. */
export async function withdrawClaimableSync(
  client: ProtocolClient,
  parameters: WithdrawClaimableParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await withdrawClaimable(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "withdrawClaimable") };
}
