import { Signature } from "ethers";
import type { Signer } from "ethers";

const PERMIT_TYPES = {
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

/** Signs an EIP-2612 permit of `owner` for `spender` and returns the split signature. */
export async function signPermit(
  token: PermitToken,
  owner: Signer,
  spender: string,
  value: bigint,
  deadline: bigint,
  chainId: bigint,
): Promise<Signature> {
  const ownerAddress = await owner.getAddress();
  const domain = { name: await token.name(), version: "1", chainId, verifyingContract: await token.getAddress() };
  const message = { owner: ownerAddress, spender, value, nonce: await token.nonces(ownerAddress), deadline };
  return Signature.from(await owner.signTypedData(domain, PERMIT_TYPES, message));
}
