import { isHexString } from "ethers";
import type { TransactionReceipt } from "ethers";

import { mintingAgentAbi } from "../abis/mintingAgent.js";
import { addressOf, sendPrepared, waitForReceipt } from "../client.js";
import type { PreparedTransaction, ProtocolClient } from "../client.js";
import { encodeFunctionCall, parseEventLogs } from "../contract-calls.js";
import { BaseError, InvalidParameterError } from "../errors.js";
import type { ContractRevertedError } from "../errors.js";

export interface VerifyAndMintSSTBParameters {
  /**
   * The verifier's proof of the unit (for the AttestationVerifier: the attestation and its k-of-n
   * signatures, `encodeProof`); the gateway's verification answers it as `proof`.
   */
  proof: string;
  /**
   * Collateral base units brought along (approve the minting agent first,
   * {@link approveCollateral}); 0 when collateral deposited earlier already covers the new capacity.
   */
  collateralAmount: bigint;
  /** Seconds before the capacity may be retired and excess collateral withdrawn (within the registry's bounds). */
  stakingPeriod: bigint;
}

export interface VerifyAndMintSSTBReturnType {
  receipt: TransactionReceipt;
  /** The compute unit's record (`SSTBMinted`). */
  cuId: bigint;
  /** sSTB minted: the unit's value. */
  amount: bigint;
  collateralAmount: bigint;
  stakingPeriod: bigint;
}

export type VerifyAndMintSSTBErrorType = ContractRevertedError | InvalidParameterError | BaseError;

/**
 * Builds `verifyAndMintSSTB(proof, collateralAmount, stakingPeriod)` on the minting agent: the
 * verifier checks the proof for the caller, the registry records the capacity (an active
 * provider, a staking period within bounds, collateral covering the ratio for all available
 * capacity) and the unit's value is minted in sSTB to the caller.
 *
 * @example
 * const transaction = prepareVerifyAndMintSSTB(client, { proof, collateralAmount: 0n, stakingPeriod: 30n * 86_400n });
 */
export function prepareVerifyAndMintSSTB(
  client: ProtocolClient,
  { proof, collateralAmount, stakingPeriod }: VerifyAndMintSSTBParameters,
): PreparedTransaction {
  if (!isHexString(proof) || proof.length <= 2)
    throw new InvalidParameterError("proof", "must be the verifier's proof (hex)");
  if (collateralAmount < 0n) throw new InvalidParameterError("collateralAmount", "must not be negative");
  if (stakingPeriod <= 0n) throw new InvalidParameterError("stakingPeriod", "must be positive");
  const data = encodeFunctionCall(mintingAgentAbi, "verifyAndMintSSTB", [proof, collateralAmount, stakingPeriod]);
  return { to: addressOf(client, "MintingAgent"), data, value: 0n };
}

/**
 * Verifies and mints; returns the hash. A refusal (a proof for another provider or expired, a
 * staking period out of bounds, too little collateral) throws a `ContractRevertedError` before
 * sending.
 *
 * @example
 * const hash = await verifyAndMintSSTB(client, { proof, collateralAmount, stakingPeriod });
 */
export async function verifyAndMintSSTB(
  client: ProtocolClient,
  parameters: VerifyAndMintSSTBParameters,
): Promise<string> {
  return sendPrepared(client, prepareVerifyAndMintSSTB(client, parameters), "verifyAndMintSSTB");
}

/**
 * Verifies, mints, waits for the receipt and decodes `SSTBMinted`.
 *
 * @example
 * const { cuId, amount } = await verifyAndMintSSTBSync(client, { proof, collateralAmount, stakingPeriod });
 */
export async function verifyAndMintSSTBSync(
  client: ProtocolClient,
  parameters: VerifyAndMintSSTBParameters,
): Promise<VerifyAndMintSSTBReturnType> {
  const hash = await verifyAndMintSSTB(client, parameters);
  const receipt = await waitForReceipt(client, hash, "verifyAndMintSSTB");
  const [minted] = parseEventLogs(mintingAgentAbi, receipt.logs, {
    address: addressOf(client, "MintingAgent"),
    eventName: "SSTBMinted",
  });
  if (minted === undefined) {
    throw new BaseError("verifyAndMintSSTB emitted no SSTBMinted event", { details: `transaction ${hash}` });
  }
  const { cuId, amount, collateralAmount, stakingPeriod } = minted.args;
  return { receipt, cuId, amount, collateralAmount, stakingPeriod };
}
