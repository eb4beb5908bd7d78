import type { PGlite, Transaction } from "@electric-sql/pglite";

/** A statement or transaction asked of PGlite's connection and not yet settled. */
export interface PendingOperation {
  /** `query`, `exec` or `transaction`, with its SQL (a transaction's latest statement), shortened. */
  what: string;
  /** How long ago it was asked for (ms). */
  ms: number;
}

const SQL_SHOWN = 160;

/**
 * What PGlite's one connection is doing. PGlite runs one statement or transaction at a time, in the
 * order they were asked for (a queue in front of its connection), so the oldest pending operation
 * is the one running and the rest wait behind it. The gateway reads it for the database pool's
 * gauges (`gateway_db_pool_connections`) and, when a shutdown runs out of time, to say what holds
 * the database (a transaction waiting on something never answers, and everything queues behind it).
 */
export class PgliteActivity {
  private readonly pending = new Map<number, { what: string; since: number }>();
  private next = 0;

  /** Wraps `client`'s `query`, `exec` and `transaction` (the calls drizzle and the migrator make). */
  constructor(client: PGlite) {
    type Call = (...args: unknown[]) => Promise<unknown>;
    const tracked =
      (label: string, call: Call) =>
      (sqlText: string, ...rest: unknown[]) =>
        this.around(`${label}: ${sqlText}`, () => call(sqlText, ...rest));
    const transaction = client.transaction.bind(client);
    client.query = tracked("query", client.query.bind(client) as Call) as PGlite["query"];
    client.exec = tracked("exec", client.exec.bind(client) as Call) as PGlite["exec"];
    client.transaction = (<T>(work: (tx: Transaction) => Promise<T>) => {
      const id = this.open("transaction (not begun)");
      return transaction(async (tx) => {
        this.describe(id, "transaction");
        const txQuery = tx.query.bind(tx);
        tx.query = ((sqlText: string, ...rest: unknown[]) => {
          this.describe(id, `transaction, at: ${sqlText}`);
          return (txQuery as (...args: unknown[]) => Promise<unknown>)(sqlText, ...rest);
        }) as Transaction["query"];
        return work(tx);
      }).finally(() => this.pending.delete(id));
    }) as PGlite["transaction"];
  }

  /** The connection's state as a pool's: one connection, idle when nothing is pending. */
  reading(): { total: number; idle: number; waiting: number } {
    const n = this.pending.size;
    return { total: 1, idle: n === 0 ? 1 : 0, waiting: Math.max(0, n - 1) };
  }

  /** The pending operations, oldest (the running one) first; at most `limit`. */
  oldest(limit = 3): PendingOperation[] {
    const now = Date.now();
    const shown: PendingOperation[] = [];
    for (const { what, since } of this.pending.values()) {
      if (shown.length === limit) break;
      shown.push({ what: shorten(what), ms: now - since });
    }
    return shown;
  }

  private around<T>(what: string, work: () => Promise<T>): Promise<T> {
    const id = this.open(what);
    return work().finally(() => this.pending.delete(id));
  }

  private open(what: string): number {
    const id = this.next++;
    // shortened when read: most statements settle within a millisecond, never read
    this.pending.set(id, { what, since: Date.now() });
    return id;
  }

  private describe(id: number, what: string): void {
    const entry = this.pending.get(id);
    if (entry !== undefined) entry.what = what;
  }
}

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= SQL_SHOWN ? flat : `${flat.slice(0, SQL_SHOWN - 1)}…`;
}
