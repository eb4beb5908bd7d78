import { inArray, sql } from "drizzle-orm";

import type { Db } from "../store/db.js";
import { apiKeyUsage } from "../store/schema.js";

/** What the portal's key list shows of a key's use. */
export interface KeyUsage {
  /** Unix seconds of the key's last request, or null. */
  lastUsedAt: number | null;
  /** Requests in the current hour and the 23 before it. */
  requests24h: number;
}

const HOUR = 3_600;

/**
 * Counts requests per API key in hourly buckets. Requests are counted in memory and written every
 * `flushMs` (one upsert per key and hour), so counting costs a request no database write; a crash
 * loses at most that interval's counts. "Requests in the last 24 h" is the sum of the current hour
 * and the 23 before it.
 */
export class KeyUsageCounter {
  private pending = new Map<string, { keyId: string; hour: number; requests: number; lastAt: number }>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly flushMs = 2_000,
  ) {}

  /** Counts one request of `keyId` now. */
  record(keyId: string): void {
    const at = Math.floor(Date.now() / 1000);
    const hour = at - (at % HOUR);
    const slot = `${keyId}|${hour}`;
    const entry = this.pending.get(slot);
    if (entry === undefined) this.pending.set(slot, { keyId, hour, requests: 1, lastAt: at });
    else {
      entry.requests++;
      entry.lastAt = at;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.flushMs);
  }

  /** Writes the counts gathered so far. */
  flush(): Promise<void> {
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.flushing = this.flushing.then(async () => {
      for (const entry of batch) {
        await this.db
          .insert(apiKeyUsage)
          .values(entry)
          .onConflictDoUpdate({
            target: [apiKeyUsage.keyId, apiKeyUsage.hour],
            set: {
              requests: sql`${apiKeyUsage.requests} + ${entry.requests}`,
              lastAt: sql`greatest(${apiKeyUsage.lastAt}, ${entry.lastAt})`,
            },
          })
          .catch(() => {}); // counting never fails a request; the next flush carries on
      }
    });
    return this.flushing;
  }

  /** Usage of each key (written counts plus those not flushed yet). */
  async usageOf(keyIds: readonly string[]): Promise<Map<string, KeyUsage>> {
    const result = new Map<string, KeyUsage>(keyIds.map((id) => [id, { lastUsedAt: null, requests24h: 0 }]));
    if (keyIds.length === 0) return result;
    const at = Math.floor(Date.now() / 1000);
    const since = at - (at % HOUR) - 23 * HOUR;
    const rows = await this.db
      .select({
        keyId: apiKeyUsage.keyId,
        requests: sql<number>`sum(case when ${apiKeyUsage.hour} >= ${since} then ${apiKeyUsage.requests} else 0 end)::int`,
        lastAt: sql<number>`max(${apiKeyUsage.lastAt})::bigint`,
      })
      .from(apiKeyUsage)
      .where(inArray(apiKeyUsage.keyId, [...keyIds]))
      .groupBy(apiKeyUsage.keyId);
    for (const row of rows) {
      result.set(row.keyId, { lastUsedAt: Number(row.lastAt), requests24h: Number(row.requests) });
    }
    for (const entry of this.pending.values()) {
      const usage = result.get(entry.keyId);
      if (usage === undefined) continue;
      if (entry.hour >= since) usage.requests24h += entry.requests;
      usage.lastUsedAt = Math.max(usage.lastUsedAt ?? 0, entry.lastAt);
    }
    return result;
  }

  async close(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}
