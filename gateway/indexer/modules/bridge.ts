import { eq } from "drizzle-orm";

import { CCIP_CHAIN_SELECTORS, chainNameOf, FEE_OPTION_NAMES, interfaceOf } from "@compute-capacity/sdk";
import { bridgeAbi } from "@compute-capacity/sdk/abis";
import type { Tx } from "../../store/db.js";
import { bridgeReceipts, bridgeSends } from "../../store/schema.js";
import { addr, big } from "../module.js";
import type { ChainContext, ContractModule, StoredEvent } from "../module.js";

/** A chain's deployment name from its CCIP selector (a chain the protocol does not know keeps its selector). */
export function chainOfSelector(selector: string | bigint): string {
  const chainId = Object.entries(CCIP_CHAIN_SELECTORS).find(([, s]) => s === BigInt(selector))?.[0];
  const chain = chainId === undefined ? undefined : chainNameOf(chainId);
  return chain ?? `selector-${selector}`;
}

/** The symbol the API shows for a bridged token address of this chain. */
export function bridgeTokenSymbol(token: string, context: Pick<ChainContext, "contracts">): string {
  const lower = token.toLowerCase();
  if (lower === context.contracts.SSTB?.toLowerCase()) return "sSTB";
  if (lower === context.contracts.GovernanceToken?.toLowerCase()) return "STBGOV";
  return token;
}

/**
 * Bridge transfers (DESIGN.md section 8): the source chain's `MessageSent` and the destination's
 * `MessageReceived` / `MessageQueued` / `MessageCompleted` / `MessageRefused` (a queued transfer of
 * a peer governance forgot: never delivered), each into its own side's table. Governance messages
 * travel on the governance channel (not transfers) and stay in `events` only.
 */
export const bridgeModule: ContractModule = {
  contract: "Bridge",
  iface: interfaceOf(bridgeAbi),
  async apply(tx: Tx, e: StoredEvent, context: ChainContext) {
    const a = e.args;
    const messageId = a.messageId as string;
    switch (e.name) {
      case "MessageSent": {
        const sender = addr(a, "sender");
        await tx.insert(bridgeSends).values({
          chainId: e.chainId,
          messageId,
          destinationSelector: a.destinationChainSelector as string,
          sender,
          senderLower: sender.toLowerCase(),
          recipient: addr(a, "recipient"),
          token: addr(a, "token"),
          tokenSymbol: bridgeTokenSymbol(addr(a, "token"), context),
          amount: big(a, "amount").toString(),
          feeOption: FEE_OPTION_NAMES[Number(a.feeOption)] ?? String(a.feeOption),
          fee: big(a, "fee").toString(),
          transportFee: big(a, "transportFee").toString(),
          createdAt: e.timestamp,
          txHash: e.txHash,
        });
        return;
      }
      case "MessageReceived": {
        const completed = a.completed as boolean;
        await tx.insert(bridgeReceipts).values({
          chainId: e.chainId,
          messageId,
          sourceSelector: a.sourceChainSelector as string,
          sender: addr(a, "sender"),
          recipient: addr(a, "recipient"),
          token: addr(a, "token"),
          tokenSymbol: bridgeTokenSymbol(addr(a, "token"), context),
          amount: big(a, "amount").toString(),
          status: completed ? "completed" : "queued",
          receivedAt: e.timestamp,
          completedAt: completed ? e.timestamp : null,
          completedTxHash: completed ? e.txHash : null,
          txHash: e.txHash,
        });
        return;
      }
      case "MessageCompleted":
        await tx
          .update(bridgeReceipts)
          .set({ status: "completed", completedAt: e.timestamp, completedTxHash: e.txHash })
          .where(eq(bridgeReceipts.messageId, messageId));
        return;
      case "MessageRefused":
        await tx.update(bridgeReceipts).set({ status: "refused" }).where(eq(bridgeReceipts.messageId, messageId));
        return;
    }
  },
};
