import { formatEther } from "ethers";

import type { AttestationJson } from "@compute-capacity/sdk";
import type { OnChainVerificationRow, VerificationRequestRow } from "./store.js";

/** What `verifyAndMintSSTB(computeProof, collateralAmount, stakingPeriod)` needs besides the proof. */
export interface MintInstructions {
  minting_agent: string;
  collateral_token: string;
  /** Collateral base units to post with the mint: what ratio x price x (available + cu_value) needs beyond the free collateral, as of now. */
  collateral_amount: string;
  staking_period_min: number;
  staking_period_max: number;
}

/** A verification as the API shows it: the spec's fields, then what minting needs. */
export interface VerificationView {
  verification_id: string;
  provider_id: string;
  verification_method: string;
  verification_type: string | null;
  status: string;
  created_at: number;
  verified_at: number | null;
  rejection: { parameter: string; reason: string } | null;
  cu_hash: string;
  cu_value: number;
  cu_value_base_units: string;
  expiry: number | null;
  threshold: number | null;
  attestation: AttestationJson | null;
  signatures: Array<{ signer: string; signature: string }>;
  proof: string | null;
  minted: boolean;
  cu_id: number | null;
  transaction_hash: string | null;
  mint: MintInstructions | null;
}

/** The method of the attestation verifier (`IComputeVerifier.verificationMethod()`). */
export const VERIFICATION_METHOD = "attestation";

/**
 * Combines what this gateway decided (`request`) with what the chain did (`onChain`, once a mint
 * consumed an attestation for the unit): after the mint the chain's facts win (the proof that was
 * consumed, its block time as `verified_at`).
 */
export function verificationView(
  request: VerificationRequestRow | undefined,
  onChain: (OnChainVerificationRow & { cuValue: string | null }) | undefined,
  live: { proof: string | null; threshold: number | null; mint: MintInstructions | null },
): VerificationView {
  const id = (request?.verificationId ?? onChain?.verificationId)!;
  const value = request?.cuValue ?? onChain?.cuValue ?? "0";
  return {
    verification_id: id,
    provider_id: (request?.providerId ?? onChain?.providerId)!,
    verification_method: onChain?.method ?? VERIFICATION_METHOD,
    verification_type: request?.verificationType ?? null,
    status: onChain?.status ?? request!.status,
    created_at: (request?.createdAt ?? onChain?.createdAt)!,
    verified_at: onChain?.verifiedAt ?? request?.verifiedAt ?? null,
    rejection: onChain === undefined ? (request?.rejection ?? null) : null,
    cu_hash: id,
    cu_value: Number(formatEther(BigInt(value))),
    cu_value_base_units: BigInt(value).toString(),
    expiry: request?.expiry ?? null,
    threshold: live.threshold,
    attestation: request?.attestation ?? null,
    signatures: request?.signatures ?? [],
    proof: onChain?.proof ?? live.proof,
    minted: onChain !== undefined,
    cu_id: onChain?.cuId ?? null,
    transaction_hash: onChain?.txHash ?? null,
    mint: onChain === undefined ? live.mint : null,
  };
}
