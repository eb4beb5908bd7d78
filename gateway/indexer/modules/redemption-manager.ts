import { and, eq } from "drizzle-orm";

import { RedemptionManager__factory } from "../../../typechain-types/index.js";
import type { Tx } from "../../store/db.js";
import { redemptions } from "../../store/schema.js";
import { addr, big, num } from "../module.js";
import type { ContractModule, StoredEvent } from "../module.js";

/** `IRedemptionManager.IssueType`, by index, as the API names them. */
export const ISSUE_TYPES = [
  "not_delivered",
  "access_failure",
  "resource_mismatch",
  "performance_shortfall",
  "other",
] as const;

/** Redemptions and their status (DESIGN.md section 5). */
export const redemptionManagerModule: ContractModule = {
  contract: "RedemptionManager",
  iface: RedemptionManager__factory.createInterface(),
  async apply(tx: Tx, e: StoredEvent) {
    const a = e.args;
    const where = and(eq(redemptions.redemptionId, num(a, "redemptionId")), eq(redemptions.chainId, e.chainId));
    switch (e.name) {
      case "RedemptionInitiated": {
        const user = addr(a, "user");
        await tx.insert(redemptions).values({
          chainId: e.chainId,
          redemptionId: num(a, "redemptionId"),
          user,
          userLower: user.toLowerCase(),
          providerId: addr(a, "provider"),
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
      case "RedemptionFulfilled":
        await tx.update(redemptions).set({ status: "fulfilled", fulfilledAt: e.timestamp }).where(where);
        return;
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
