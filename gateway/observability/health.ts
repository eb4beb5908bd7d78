/** What a chain's indexer reports to the readiness check (its `status()` has these fields). */
export interface IndexerProgress {
  chain: string;
  head: number | null;
  indexedBlock: number | null;
  /** Blocks below the head before one is indexed: the lag counts from the head less this. */
  confirmations: number;
  /** Unix milliseconds of the last step that reached the node and the database, or null. */
  lastProgressAt: number | null;
  lastError: string | null;
}

export interface ReadinessSources {
  /** Answers when the database does (throws otherwise). */
  ping(): Promise<void>;
  /** The committed migrations the database has not applied. */
  pendingMigrations(): Promise<string[]>;
  /** This process's indexers (none when it serves only). */
  indexers(): IndexerProgress[];
  /**
   * Why this gateway's master key cannot open the database's sealed data, or undefined when it can
   * (asked once the migrations are applied: a gateway started before them checks its key here).
   */
  sealingKey?(): Promise<string | undefined>;
}

export interface ReadinessSettings {
  /** Most blocks a chain's indexer may be behind its head, by chain name (missing: `defaultMaxLagBlocks`). */
  maxLagBlocks: Record<string, number>;
  defaultMaxLagBlocks: number;
  /** An indexer that has not reached its node and the database for this long is stalled. */
  staleMs: number;
  /** A database that has not answered a check within this time is down. */
  timeoutMs: number;
}

/** What `/readyz` answers: ready, or the reasons it is not (each names what is wrong). */
export interface ReadinessReport {
  ready: boolean;
  reasons: string[];
  checks: {
    /** `unchecked` while shutting down (the answer is 503 whatever the database says). */
    database: "ok" | "down" | "unchecked";
    migrations: "ok" | "pending" | "unknown";
    indexers: Array<{ chain: string; status: "ok" | "lagging" | "stalled" | "starting"; lag: number | null }>;
    shutting_down: boolean;
  };
}

/**
 * Readiness: whether this gateway should get traffic. Not ready while the database does not
 * answer, while committed migrations are pending, while its master key does not open the database's
 * sealed data, while an indexer is more than its configured
 * number of blocks behind the head or has not reached its node for `staleMs` (a stalled node: its
 * head is then unknown, so the lag alone would not show it), and once a shutdown has begun.
 */
export class Readiness {
  private shuttingDown = false;
  private readonly startedAt = Date.now();

  constructor(
    private readonly sources: ReadinessSources,
    private readonly settings: ReadinessSettings,
  ) {}

  /** From now on not ready (a shutdown: the load balancer stops sending traffic). */
  drain(): void {
    this.shuttingDown = true;
  }

  get draining(): boolean {
    return this.shuttingDown;
  }

  async check(now = Date.now()): Promise<ReadinessReport> {
    const reasons: string[] = [];
    if (this.shuttingDown) reasons.push("shutting down");
    // shutting down, the answer is 503 whatever the database says: it is not asked, so that a load
    // balancer's probe is answered at once even while the database is busy (the requests still sent
    // during the shutdown's delay are what it should stop sending)
    const { database, migrations } = this.shuttingDown
      ? { database: "unchecked" as const, migrations: "unknown" as const }
      : await this.checkDatabase(reasons);
    const indexers = this.sources.indexers().map((indexer) => {
      const limit = this.settings.maxLagBlocks[indexer.chain] ?? this.settings.defaultMaxLagBlocks;
      const lag = lagOf(indexer);
      const since = indexer.lastProgressAt ?? this.startedAt;
      const why = indexer.lastError === null ? "" : ` (last error: ${indexer.lastError})`;
      if (now - since > this.settings.staleMs) {
        reasons.push(
          `${indexer.chain}: the indexer has not reached its node and the database for ${Math.round((now - since) / 1000)} s${why}`,
        );
        return { chain: indexer.chain, status: "stalled" as const, lag };
      }
      if (lag === null) {
        reasons.push(`${indexer.chain}: the indexer has not read the head yet${why}`);
        return { chain: indexer.chain, status: "starting" as const, lag };
      }
      if (lag > limit) {
        reasons.push(
          `${indexer.chain}: the indexer is ${lag} blocks behind (head ${indexer.head}, depth ` +
            `${indexer.confirmations}, indexed ${indexer.indexedBlock}; at most ${limit})`,
        );
        return { chain: indexer.chain, status: "lagging" as const, lag };
      }
      return { chain: indexer.chain, status: "ok" as const, lag };
    });
    return {
      ready: reasons.length === 0,
      reasons,
      checks: { database, migrations, indexers, shutting_down: this.shuttingDown },
    };
  }

  /** The database answers, its migrations are applied, and the master key opens its sealed data. */
  private async checkDatabase(reasons: string[]): Promise<Pick<ReadinessReport["checks"], "database" | "migrations">> {
    let migrations: ReadinessReport["checks"]["migrations"] = "unknown";
    try {
      await withTimeout(this.sources.ping(), this.settings.timeoutMs, "no answer");
      const pending = await withTimeout(this.sources.pendingMigrations(), this.settings.timeoutMs, "no answer");
      migrations = pending.length === 0 ? "ok" : "pending";
      if (pending.length > 0) {
        reasons.push(`migrations pending: ${pending.join(", ")} (run the gateway's migrate command)`);
      } else if (this.sources.sealingKey !== undefined) {
        const problem = await withTimeout(this.sources.sealingKey(), this.settings.timeoutMs, "no answer");
        if (problem !== undefined) reasons.push(`master key: ${problem}`);
      }
      return { database: "ok", migrations };
    } catch (error) {
      reasons.push(`database: ${(error as Error).message}`);
      return { database: "down", migrations };
    }
  }
}

/** Blocks between the indexable head (the head less the confirmation depth) and the last indexed block. */
export function lagOf(indexer: Pick<IndexerProgress, "head" | "indexedBlock" | "confirmations">): number | null {
  if (indexer.head === null || indexer.indexedBlock === null) return null;
  return Math.max(0, indexer.head - indexer.confirmations - indexer.indexedBlock);
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${message} within ${ms} ms`)), ms);
    }),
  ]);
}
