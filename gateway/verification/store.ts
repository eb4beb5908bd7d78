import { and, eq, getTableColumns, inArray, ne, notExists, sql } from "drizzle-orm";

import type { ComputeSpecs } from "@compute-capacity/sdk";
import type { Db, Tx } from "../store/db.js";
import { computeUnits, providers, verificationRequests, verifications } from "../store/schema.js";

export type VerificationRequestRow = typeof verificationRequests.$inferSelect;
export type OnChainVerificationRow = typeof verifications.$inferSelect;
type Hardware = Pick<ComputeSpecs, "cpuCores" | "ramGb" | "storageGb" | "networkMbps">;

/** Statuses of a submitted verification whose attestation may still be minted. */
export const OPEN_STATUSES = ["verified", "partially_signed"] as const;

/** The verification service's reads and writes: its own table beside the indexed projections. */
export class VerificationStore {
  constructor(
    readonly db: Db,
    private readonly chainId: number,
  ) {}

  async request(id: string, tx: Db | Tx = this.db): Promise<VerificationRequestRow | undefined> {
    const [row] = await tx
      .select()
      .from(verificationRequests)
      .where(eq(verificationRequests.verificationId, id.toLowerCase()))
      .limit(1);
    return row;
  }

  /** The indexed on-chain verification (the attestation consumed by a mint), with its unit's value. */
  async onChain(id: string): Promise<(OnChainVerificationRow & { cuValue: string | null }) | undefined> {
    const [row] = await this.db
      .select({ ...getTableColumns(verifications), cuValue: computeUnits.cuValue })
      .from(verifications)
      .leftJoin(
        computeUnits,
        and(eq(computeUnits.chainId, verifications.chainId), eq(computeUnits.cuHash, verifications.verificationId)),
      )
      .where(and(eq(verifications.verificationId, id.toLowerCase()), eq(verifications.chainId, this.chainId)))
      .limit(1);
    return row;
  }

  async provider(providerId: string) {
    const [row] = await this.db
      .select()
      .from(providers)
      .where(and(eq(providers.addressLower, providerId.toLowerCase()), eq(providers.chainId, this.chainId)))
      .limit(1);
    return row;
  }

  /**
   * Serializes decisions about one provider's capacity (two reports at once must not both take
   * the last cores): a transaction-scoped advisory lock, released at commit.
   */
  async lockProvider(tx: Tx, providerId: string): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${"verification:" + providerId.toLowerCase()}))`);
  }

  /**
   * Hardware a provider's capacity already holds: its minted units (indexed), plus the attestations
   * this gateway issued that can still be minted (open, not expired at `now`, not minted yet),
   * except the report `exceptId` being decided.
   */
  async hardwareInUse(tx: Tx, providerId: string, exceptId: string, now: number): Promise<Hardware> {
    const lower = providerId.toLowerCase();
    const sums = {
      cpuCores: sql<string>`coalesce(sum(cpu_cores), 0)`,
      ramGb: sql<string>`coalesce(sum(ram_gb), 0)`,
      storageGb: sql<string>`coalesce(sum(storage_gb), 0)`,
      networkMbps: sql<string>`coalesce(sum(network_mbps), 0)`,
    };
    const [minted] = await tx
      .select(sums)
      .from(computeUnits)
      .where(and(eq(computeUnits.chainId, this.chainId), eq(computeUnits.providerLower, lower)));
    const [open] = await tx
      .select(sums)
      .from(verificationRequests)
      .where(
        and(
          eq(verificationRequests.providerLower, lower),
          inArray(verificationRequests.status, [...OPEN_STATUSES]),
          sql`${verificationRequests.expiry} > ${now}`,
          ne(verificationRequests.verificationId, exceptId),
          notExists(
            tx
              .select({ one: sql`1` })
              .from(computeUnits)
              .where(
                and(
                  eq(computeUnits.chainId, this.chainId),
                  eq(computeUnits.cuHash, verificationRequests.verificationId),
                ),
              ),
          ),
        ),
      );
    const total = (field: keyof Hardware) => Number(minted?.[field] ?? 0) + Number(open?.[field] ?? 0);
    return {
      cpuCores: total("cpuCores"),
      ramGb: total("ramGb"),
      storageGb: total("storageGb"),
      networkMbps: total("networkMbps"),
    };
  }

  async save(tx: Tx, row: VerificationRequestRow): Promise<void> {
    const { verificationId: _id, createdAt: _created, ...changes } = row;
    await tx
      .insert(verificationRequests)
      .values(row)
      .onConflictDoUpdate({ target: verificationRequests.verificationId, set: changes });
  }
}
