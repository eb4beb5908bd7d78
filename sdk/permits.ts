import { Signature } from "ethers";
import type { Signer, TypedDataDomain, TypedDataField } from "ethers";

/** EIP-2612's typed data (sSTB and the governance token implement it with version "1"). */
export const PERMIT_TYPES: Record<string, TypedDataField[]> = {
  Permit: [
    { name: "owner", type: "address" },
    { name: "spender", type: "address" },
    { name: "value", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
};

/** A token that supports EIP-2612. */
export interface PermitToken {
  name(): Promise<string>;
  nonces(owner: string): Promise<bigint>;
  getAddress(): Promise<string>;
}

/** Typed data for a wallet to sign (`signer.signTypedData(domain, types, message)`). */
export interface PermitTypedData {
  domain: TypedDataDomain;
  types: Record<string, TypedDataField[]>;
  message: { owner: string; spender: string; value: bigint; nonce: bigint; deadline: bigint };
}

/**
 * The EIP-2612 permit of `owner` for `spender` to spend `value` until `deadline` (Unix seconds),
 * at the owner's current nonce: what the owner's wallet signs.
 */
export async function getPermitTypedData(
  token: PermitToken,
  owner: string,
  spender: string,
  value: bigint,
  deadline: bigint,
  chainId: bigint,
): Promise<PermitTypedData> {
  const domain = { name: await token.name(), version: "1", chainId, verifyingContract: await token.getAddress() };
  const message = { owner, spender, value, nonce: await token.nonces(owner), deadline };
  return { domain, types: PERMIT_TYPES, message };
}

/** Signs an EIP-2612 permit of `owner` for `spender` and returns the split signature. */
export async function signPermit(
  token: PermitToken,
  owner: Signer,
  spender: string,
  value: bigint,
  deadline: bigint,
  chainId: bigint,
): Promise<Signature> {
  const { domain, types, message } = await getPermitTypedData(
    token,
    await owner.getAddress(),
    spender,
    value,
    deadline,
    chainId,
  );
  return Signature.from(await owner.signTypedData(domain, types, message));
}
