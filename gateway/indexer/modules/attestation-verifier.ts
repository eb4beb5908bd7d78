import { interfaceOf } from "@compute-capacity/sdk";
import { attestationVerifierAbi, mintingAgentAbi } from "@compute-capacity/sdk/abis";
import type { Tx } from "../../store/db.js";
import { verifications } from "../../store/schema.js";
import { addr, num } from "../module.js";
import type { ContractModule, StoredEvent } from "../module.js";

const mintingAgent = interfaceOf(mintingAgentAbi);

/**
 * Verifications, from `AttestationConsumed`: the verification id is the unit's identity
 * (`cuHash`, which backs sSTB once). The proof itself is an input of the call, not state, so no
 * event carries it: `enrich` reads it once from the calldata of the `verifyAndMintSSTB` that
 * consumed the attestation (the one read besides logs; "0x" when the call came through another
 * contract), and it is stored with the event.
 */
export const attestationVerifierModule: ContractModule = {
  contract: "AttestationVerifier",
  iface: interfaceOf(attestationVerifierAbi),
  async enrich(e, rpc, context) {
    if (e.name !== "AttestationConsumed") return {};
    const transaction = await rpc.getTransaction(e.txHash);
    let proof = "0x";
    if (transaction !== null && transaction.to?.toLowerCase() === context.contracts.MintingAgent?.toLowerCase()) {
      const call = mintingAgent.parseTransaction({ data: transaction.data });
      if (call?.name === "verifyAndMintSSTB") proof = call.args[0] as string;
    }
    return { proof };
  },
  async apply(tx: Tx, e: StoredEvent) {
    if (e.name !== "AttestationConsumed") return;
    const a = e.args;
    await tx
      .insert(verifications)
      .values({
        verificationId: a.cuHash as string,
        chainId: e.chainId,
        providerId: addr(a, "provider"),
        method: "attestation",
        proof: (a.proof as string | undefined) ?? "0x",
        status: "verified",
        nonce: a.nonce as string,
        signatures: num(a, "signatures"),
        createdAt: e.timestamp,
        verifiedAt: e.timestamp,
        txHash: e.txHash,
      })
      .onConflictDoNothing(); // a unit is minted once; a second attestation for it reverts on-chain
  },
};
