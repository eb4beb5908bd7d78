import { and, eq, sql } from "drizzle-orm";

import { ISSUE_TYPES, interfaceOf } from "@compute-capacity/sdk";
import { redemptionManagerAbi } from "@compute-capacity/sdk/abis";
import type { Tx } from "../../store/db.js";
import { accessKeys, events, leases, redemptions } from "../../store/schema.js";
import { addr, big, num } from "../module.js";
import type { ContractModule, StoredEvent } from "../module.js";

/** No standing renewal offer. */
const NO_OFFER = { offerPrice: null, offerExtension: null, offerValidUntil: null } as const;

/**
 * The `LeaseStarted` a stated-end fulfilment emits right after its `RedemptionFulfilled` (the next
 * log of the same transaction), read from the stored events: a batch stores every event before it
 * applies any, so the fulfilment's projection (and its `redemption.fulfilled` webhook) already
 * carries the end.
 */
async function statedEndOf(tx: Tx, e: StoredEvent): Promise<number | null> {
  const [next] = await tx
    .select({ args: events.args })
    .from(events)
    .where(
      and(
        eq(events.chainId, e.chainId),
        eq(events.blockNumber, e.blockNumber),
        eq(events.logIndex, e.logIndex + 1),
        eq(events.txHash, e.txHash),
        eq(events.name, "LeaseStarted"),
      ),
    );
  return next === undefined ? null : num(next.args, "end");
}

/** Redemptions, their leases and the users' access keys (DESIGN.md sections 5 and 5b). */
export const redemptionManagerModule: ContractModule = {
  contract: "RedemptionManager",
  iface: interfaceOf(redemptionManagerAbi),
  async apply(tx: Tx, e: StoredEvent) {
    const a = e.args;
    const where = and(eq(redemptions.redemptionId, num(a, "redemptionId")), eq(redemptions.chainId, e.chainId));
    const lease = () => and(eq(leases.chainId, e.chainId), eq(leases.leaseId, num(a, "leaseId")));
    switch (e.name) {
      case "RedemptionInitiated": {
        const user = addr(a, "user");
        const provider = addr(a, "provider");
        await tx.insert(redemptions).values({
          chainId: e.chainId,
          redemptionId: num(a, "redemptionId"),
          user,
          userLower: user.toLowerCase(),
          providerId: provider,
          providerLower: provider.toLowerCase(),
          amount: big(a, "amount").toString(),
          status: "pending",
          initiatedAt: e.timestamp,
        });
        return;
      }
      case "RedemptionTerms":
        await tx
          .update(redemptions)
          .set({ fee: big(a, "fee").toString(), lock: big(a, "lock").toString(), deadline: num(a, "deadline") })
          .where(where);
        return;
      case "RedemptionFulfilled": {
        // every fulfilment starts a lease with the redemption's id (a renewal is born fulfilled: no event)
        const [row] = await tx
          .update(redemptions)
          .set({ status: "fulfilled", fulfilledAt: e.timestamp, leaseId: num(a, "redemptionId") })
          .where(where)
          .returning();
        if (row === undefined) return;
        const end = await statedEndOf(tx, e);
        await tx
          .insert(leases)
          .values({
            chainId: e.chainId,
            leaseId: row.redemptionId,
            userLower: row.userLower,
            providerLower: row.providerId.toLowerCase(),
            startedAt: e.timestamp,
            expiresAt: end,
            endBlock: end === null ? null : e.blockNumber,
            terminatedAt: null,
            ...NO_OFFER,
            renewals: 0,
          })
          .onConflictDoNothing();
        return;
      }
      case "LeaseStarted":
        await tx
          .update(leases)
          .set({ expiresAt: num(a, "end"), endBlock: e.blockNumber })
          .where(lease());
        return;
      case "RenewalOffered":
        await tx
          .update(leases)
          .set({
            offerPrice: big(a, "price").toString(),
            offerExtension: num(a, "extension"),
            offerValidUntil: num(a, "validUntil"),
          })
          .where(lease());
        return;
      case "RenewalOfferWithdrawn":
        await tx.update(leases).set(NO_OFFER).where(lease());
        return;
      case "LeaseRenewed": {
        const end = num(a, "end");
        await tx
          .update(leases)
          .set({ expiresAt: end, endBlock: e.blockNumber, ...NO_OFFER, renewals: sql`${leases.renewals} + 1` })
          .where(lease());
        // the renewal's record, born fulfilled and due at acceptance (RedemptionInitiated inserted it pending)
        await tx
          .update(redemptions)
          .set({
            status: "fulfilled",
            fee: big(a, "fee").toString(),
            lock: big(a, "lock").toString(),
            deadline: e.timestamp,
            fulfilledAt: e.timestamp,
            leaseId: num(a, "leaseId"),
            renewedEnd: end,
          })
          .where(and(eq(redemptions.redemptionId, num(a, "renewalId")), eq(redemptions.chainId, e.chainId)));
        return;
      }
      case "LeaseTerminated":
        // a standing offer goes with the lease
        await tx
          .update(leases)
          .set({ terminatedAt: e.timestamp, ...NO_OFFER })
          .where(lease());
        return;
      case "AccessKeyRegistered": {
        const values = {
          chainId: e.chainId,
          userLower: addr(a, "user").toLowerCase(),
          publicKey: (a.publicKey as string).toLowerCase(),
          registeredAt: e.timestamp,
        };
        await tx
          .insert(accessKeys)
          .values(values)
          .onConflictDoUpdate({
            target: [accessKeys.chainId, accessKeys.userLower],
            set: { publicKey: values.publicKey, registeredAt: values.registeredAt },
          });
        return;
      }
      case "RedemptionConfirmed":
        await tx.update(redemptions).set({ status: "confirmed", completedAt: e.timestamp }).where(where);
        return;
      case "RedemptionExpired":
        await tx.update(redemptions).set({ status: "expired", completedAt: e.timestamp }).where(where);
        return;
      case "DisputeOpened":
        await tx
          .update(redemptions)
          .set({ status: "disputed", disputedAt: e.timestamp, issueType: ISSUE_TYPES[num(a, "issueType")] ?? "other" })
          .where(where);
        return;
      case "DisputeResolved":
      case "DisputeLapsed":
        await tx
          .update(redemptions)
          .set({ status: "resolved", completedAt: e.timestamp, userWon: a.userWon as boolean })
          .where(where);
        return;
    }
  },
};
