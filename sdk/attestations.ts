import { AbiCoder, getAddress, hexlify, keccak256, randomBytes, toUtf8Bytes, verifyTypedData } from "ethers";
import type { BaseWallet, TypedDataDomain } from "ethers";

/** Hardware metadata and benchmark scores; mirrors `ComputeSpecs` in IComputeVerifier.sol. */
export interface ComputeSpecs {
  cpuCores: number;
  ramGb: number;
  storageGb: number;
  networkMbps: number;
  cpuScore: number;
  memoryScore: number;
  storageScore: number;
  networkScore: number;
}

/** What the verifiers sign; mirrors `AttestationVerifier.Attestation`. */
export interface Attestation {
  provider: string;
  cuHash: string;
  cuValue: bigint;
  specs: ComputeSpecs;
  expiry: bigint;
  nonce: bigint;
}

export const ATTESTATION_TYPES = {
  Attestation: [
    { name: "provider", type: "address" },
    { name: "cuHash", type: "bytes32" },
    { name: "cuValue", type: "uint256" },
    { name: "specs", type: "ComputeSpecs" },
    { name: "expiry", type: "uint64" },
    { name: "nonce", type: "uint256" },
  ],
  ComputeSpecs: [
    { name: "cpuCores", type: "uint32" },
    { name: "ramGb", type: "uint32" },
    { name: "storageGb", type: "uint32" },
    { name: "networkMbps", type: "uint32" },
    { name: "cpuScore", type: "uint24" },
    { name: "memoryScore", type: "uint24" },
    { name: "storageScore", type: "uint24" },
    { name: "networkScore", type: "uint24" },
  ],
};

const SPECS_TUPLE =
  "tuple(uint32 cpuCores,uint32 ramGb,uint32 storageGb,uint32 networkMbps," +
  "uint24 cpuScore,uint24 memoryScore,uint24 storageScore,uint24 networkScore)";
const ATTESTATION_TUPLE = `tuple(address provider,bytes32 cuHash,uint256 cuValue,${SPECS_TUPLE} specs,uint64 expiry,uint256 nonce)`;

/** The EIP-712 domain of an AttestationVerifier deployment. */
export function attestationDomain(chainId: bigint, verifyingContract: string): TypedDataDomain {
  return { name: "ComputeAttestationVerifier", version: "1", chainId, verifyingContract };
}

/**
 * The identity of a benchmark report: keccak256 of its canonical JSON. The off-chain verifier
 * computes the same hash when it attests.
 */
export function cuHashOf(report: unknown): string {
  return keccak256(toUtf8Bytes(JSON.stringify(report)));
}

/** A fresh random 256-bit nonce. */
export function randomNonce(): bigint {
  return BigInt(hexlify(randomBytes(32)));
}

/**
 * Signs `attestation` with each signer and returns the signatures ordered by ascending signer
 * address, which is the order the contract requires.
 */
export async function signAttestation(
  attestation: Attestation,
  domain: TypedDataDomain,
  signers: readonly BaseWallet[],
): Promise<string[]> {
  const sorted = [...signers].sort((a, b) => (BigInt(getAddress(a.address)) < BigInt(getAddress(b.address)) ? -1 : 1));
  return Promise.all(sorted.map((s) => s.signTypedData(domain, ATTESTATION_TYPES, attestation)));
}

/** Encodes a proof for `MintingAgent.verifyAndMintSSTB`: `abi.encode(Attestation, bytes[])`. */
export function encodeProof(attestation: Attestation, signatures: readonly string[]): string {
  return AbiCoder.defaultAbiCoder().encode([ATTESTATION_TUPLE, "bytes[]"], [attestation, signatures]);
}

/** Signs and encodes in one step. */
export async function buildProof(
  attestation: Attestation,
  domain: TypedDataDomain,
  signers: readonly BaseWallet[],
): Promise<string> {
  return encodeProof(attestation, await signAttestation(attestation, domain, signers));
}

/** The verifier key that signed `attestation` (throws on a malformed signature). */
export function attestationSigner(attestation: Attestation, domain: TypedDataDomain, signature: string): string {
  return verifyTypedData(domain, ATTESTATION_TYPES, attestation, signature);
}

/**
 * Combines signatures of one attestation gathered from several verifier operators (each runs its
 * own gateway with its own key): recovers each signer, drops repeats of a signer, and orders them
 * by ascending signer address as the contract requires. Throws on a malformed signature.
 */
export function combineSignatures(
  attestation: Attestation,
  domain: TypedDataDomain,
  signatures: readonly string[],
): Array<{ signer: string; signature: string }> {
  const bySigner = new Map<string, string>();
  for (const signature of signatures) {
    const signer = attestationSigner(attestation, domain, signature);
    if (!bySigner.has(signer)) bySigner.set(signer, signature);
  }
  return [...bySigner.entries()]
    .sort(([a], [b]) => (BigInt(a) < BigInt(b) ? -1 : 1))
    .map(([signer, signature]) => ({ signer, signature }));
}

/**
 * An attestation as JSON carries it: the EIP-712 message with its integers as decimal strings
 * (cuValue, nonce: beyond what a JSON number holds exactly) and the expiry in Unix seconds.
 */
export interface AttestationJson {
  provider: string;
  cuHash: string;
  cuValue: string;
  specs: ComputeSpecs;
  expiry: number;
  nonce: string;
}

export function attestationToJson(a: Attestation): AttestationJson {
  return {
    provider: getAddress(a.provider),
    cuHash: a.cuHash.toLowerCase(),
    cuValue: a.cuValue.toString(),
    specs: { ...a.specs },
    expiry: Number(a.expiry),
    nonce: a.nonce.toString(),
  };
}

export function attestationFromJson(a: AttestationJson): Attestation {
  return {
    provider: getAddress(a.provider.toLowerCase()),
    cuHash: a.cuHash.toLowerCase(),
    cuValue: BigInt(a.cuValue),
    specs: { ...a.specs },
    expiry: BigInt(a.expiry),
    nonce: BigInt(a.nonce),
  };
}
