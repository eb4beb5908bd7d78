import { isAddress } from "ethers";
import type { TransactionReceipt } from "ethers";

import { erc20Abi } from "../abis/erc20.js";
import { sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall, readContract } from "../contract-calls.js";
import { InvalidParameterError } from "../errors.js";
import type { BaseError, ContractRevertedError } from "../errors.js";
import type { TokenApproval } from "../token-approval.js";

export type ApproveTokenParameters = TokenApproval;

export type ApproveTokenErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds an ERC-20 `approve(spender, amount)`: what a market, bridge or redemption action's
 * `approval` asks for (`prepareBuySpotListing(...).approval`, for instance).
 *
 * @example
 * const { approval } = await prepareBuySpotListing(client, { listingId, amount, maxPrice });
 * const transaction = prepareApproveToken(client, approval);
 */
export function prepareApproveToken(
  _client: ProtocolClient,
  { token, spender, amount }: ApproveTokenParameters,
): PreparedTransaction {
  if (!isAddress(token)) throw new InvalidParameterError("token", "must be an address");
  if (!isAddress(spender)) throw new InvalidParameterError("spender", "must be an address");
  if (amount < 0n) throw new InvalidParameterError("amount", "must not be negative");
  return { to: token, data: encodeFunctionCall(erc20Abi, "approve", [spender, amount]), value: 0n };
}

/**
 * Approves `spender` for `amount` of `token` and returns the transaction's hash.
 *
 * @example
 * const hash = await approveToken(client, { token, spender: market, amount: payment });
 */
export async function approveToken(client: ProtocolClient, parameters: ApproveTokenParameters): Promise<string> {
  return sendPrepared(client, prepareApproveToken(client, parameters), "approve");
}

/** Approves and waits for the receipt. */
export async function approveTokenSync(
  client: ProtocolClient,
  parameters: ApproveTokenParameters,
): Promise<{ receipt: TransactionReceipt }> {
  const hash = await approveToken(client, parameters);
  return { receipt: await waitForReceipt(client, hash, "approve") };
}

export interface GetAllowanceParameters {
  token: string;
  owner: string;
  spender: string;
}

/**
 * What `spender` may still take of `owner`'s `token` (`allowance`): whether an action's
 * `approval` is already covered.
 *
 * @example
 * if ((await getAllowance(client, { token, owner, spender })) < approval.amount) await approveTokenSync(client, approval);
 */
export async function getAllowance(
  client: ProtocolClient,
  { token, owner, spender }: GetAllowanceParameters,
): Promise<bigint> {
  return readContract(client, { abi: erc20Abi, address: token, functionName: "allowance", args: [owner, spender] });
}

/**
 * Approves `approval` unless the allowance already covers it; returns the receipt, or undefined
 * when nothing was sent. What a script does before a market, bridge or redemption write.
 *
 * @example
 * const { approval } = await prepareCreateSpotListing(client, terms);
 * await ensureAllowance(client, approval);
 * const { listingId } = await createSpotListingSync(client, terms);
 */
export async function ensureAllowance(
  client: ProtocolClient,
  approval: TokenApproval,
): Promise<{ receipt: TransactionReceipt } | undefined> {
  if (approval.amount === 0n) return undefined;
  const signer = client.runner as { getAddress?: () => Promise<string> };
  if (typeof signer.getAddress !== "function")
    throw new InvalidParameterError("runner", "a signer is needed to approve");
  const owner = await signer.getAddress();
  if ((await getAllowance(client, { ...approval, owner })) >= approval.amount) return undefined;
  return approveTokenSync(client, approval);
}
