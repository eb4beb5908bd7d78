import { randomInt } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgresJs } from "drizzle-orm/postgres-js";
import pg from "pg";

import { PgliteActivity } from "./pglite-activity.js";
import type { PendingOperation } from "./pglite-activity.js";
import { copyFromTemplate } from "./pglite-template.js";
import { readConnections as openReadConnections } from "./read-connections.js";
import * as schema from "./schema.js";

/** The drizzle database, whichever driver is under it. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction of {@link Db} (same query API). */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface Store {
  db: Db;
  /**
   * Where the read routes' prepared statements run: on PostgreSQL, a few connections of their own on
   * which concurrent queries are pipelined (postgres.js); otherwise {@link db}.
   */
  reads: Db;
  /** `pglite` (embedded, a data folder) or `postgres` (a server, `DATABASE_URL`). */
  kind: "pglite" | "postgres";
  /** Where the data lives: the folder, or the URL without its password. */
  location: string;
  /** The connections: PostgreSQL's pool, or PGlite's one connection. */
  pool(): { total: number; idle: number; waiting: number };
  /**
   * PGlite only: the statements and transactions pending on its one connection, the running one
   * first (what holds the database when everything else waits; a shutdown that runs out of time
   * logs it).
   */
  pending?(limit?: number): PendingOperation[];
  /** This process among those sharing the database: work it leaves unfinished can be told from work in progress. */
  instance: Instance;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** A PostgreSQL URL; when absent, PGlite in `dataDir`. */
  databaseUrl?: string;
  /** PGlite data folder. */
  dataDir: string;
  /**
   * Where a migrated, empty PGlite database is kept: a data folder without a database starts as its
   * copy rather than by `initdb` and the migrations ({@link copyFromTemplate}). Not with `migrate: false`.
   */
  pgliteTemplates?: string;
  /**
   * Apply the committed migrations at open (default true). False: a release step applies them
   * (`gateway migrate`); meanwhile `/readyz` reports them pending.
   */
  migrate?: boolean;
  /** Most connections to PostgreSQL (default 10). */
  poolSize?: number;
  /**
   * Connections to PostgreSQL, besides the pool, for the read routes' prepared statements (default
   * {@link DEFAULT_READ_CONNECTIONS}; 0: they run on the pool).
   */
  readConnections?: number;
}

/**
 * The read routes' connections. Their queries are pipelined: a query is written while those before
 * it on the connection are still answered, so that concurrent requests share the round trips and
 * the system calls that one query at a time per pooled connection (node-postgres) costs each of
 * them. Measured with the benchmark's CPU profile: an uncached detail read spent 127 us of its
 * 630 us in the kernel's socket writes through the pool, 24 us of about 420 us pipelined on two
 * connections (docs/gateway-bench.md, decision 0171). Each is a client of its own
 * ({@link openReadConnections}, decision 0173).
 */
export const DEFAULT_READ_CONNECTIONS = 2;

/** The committed migrations (gateway/drizzle/). */
export const MIGRATIONS = path.join(import.meta.dirname, "..", "drizzle");
/** Key of the advisory lock that serializes start-up migrations between instances. */
const MIGRATION_LOCK = 7_240_112;
/** First key of the advisory locks each gateway process holds while it runs (the second is its id). */
const INSTANCE_LOCKS = 7_240_113;

/**
 * A gateway process among those sharing a database. Work it records as its own (an
 * `Idempotency-Key` being processed) names its `id`; another process asks {@link alive} whether
 * that owner still runs, or stopped (killed, crashed) and left the work unfinished.
 */
export interface Instance {
  readonly id: number;
  alive(id: number): Promise<boolean>;
}

/** Raised when the store cannot be opened; the message says what to do. */
export class StoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StoreError";
  }
}

/**
 * The drizzle database over a pool, with transactions that always give their client back.
 * drizzle's own pooled `transaction` (0.45) takes a client and sends `begin` before the
 * `try/finally` that releases it: when `begin` fails (the server went away, a connection it
 * dropped) the client is never released, the pool shrinks by one for good and `pool.end()` waits
 * for ever (found by the readiness test: the gateway could not close after PostgreSQL restarted).
 * Here the client is taken and released around the whole transaction; one that failed for any
 * reason but an error PostgreSQL itself reported is destroyed rather than reused.
 */
function pooledDatabase(pool: pg.Pool): Db {
  const db = drizzlePg(pool, { schema });
  const transaction: typeof db.transaction = async (work, config) => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      // a database over this one client: its transaction runs begin, the work and commit on it
      return await drizzlePg(client).transaction(work as never, config);
    } catch (error) {
      if (!reportedByServer(error)) broken = error instanceof Error ? error : new Error(String(error));
      throw error;
    } finally {
      client.release(broken);
    }
  };
  db.transaction = transaction;
  return db as unknown as Db;
}

/** Whether an error (or its cause) is one PostgreSQL sent (it has a SQLSTATE): the connection is sound. */
function reportedByServer(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) {
    if (e instanceof pg.DatabaseError) return true;
  }
  return false;
}

/**
 * Opens the store and applies the committed migrations (gateway/drizzle/). PostgreSQL when
 * `databaseUrl` is set (several gateways may share it: migrations take an advisory lock);
 * otherwise PGlite in `dataDir`, which one process at a time may open (a lock file with the
 * owner's pid guards it: PGlite itself would let two processes corrupt the folder).
 */
export async function openStore(options: StoreOptions): Promise<Store> {
  if (options.databaseUrl !== undefined && options.databaseUrl !== "") {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10 });
    pool.on("error", () => {}); // an idle client's error surfaces on its next query
    // a client in use when the server goes away emits an error event as well as failing its query:
    // the query's caller handles the failure, the event must not become an uncaught exception
    pool.on("connect", (client) => client.on("error", () => {}));
    const client = await pool.connect().catch((error: Error) => {
      void pool.end();
      throw new StoreError(`cannot connect to DATABASE_URL: ${error.message}`);
    });
    try {
      if (options.migrate !== false) {
        await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
        await migratePg(drizzlePg(client, { schema }), { migrationsFolder: MIGRATIONS });
      }
    } finally {
      if (options.migrate !== false)
        await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
      client.release();
    }
    const url = new URL(options.databaseUrl);
    url.password = url.password === "" ? "" : "***";
    const instance = await PostgresInstance.start(options.databaseUrl, pool);
    const readConnections = options.readConnections ?? DEFAULT_READ_CONNECTIONS;
    // connections are opened on first use and again after the server went away (a failed query
    // fails its request only); notices are the server's, not the gateway's, to log
    const readClient =
      readConnections > 0
        ? openReadConnections(options.databaseUrl, readConnections, { onnotice: () => {} })
        : undefined;
    const db = pooledDatabase(pool);
    return {
      db,
      reads: readClient === undefined ? db : (drizzlePostgresJs(readClient, { schema }) as unknown as Db),
      kind: "postgres",
      location: url.toString(),
      pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      instance,
      close: async () => {
        await instance.stop();
        // queries in flight are answered first (the HTTP server has stopped taking requests)
        await readClient?.end({ timeout: 5 });
        await pool.end();
      },
    };
  }

  mkdirSync(options.dataDir, { recursive: true });
  const releaseLock = takeFolderLock(options.dataDir);
  try {
    const pgdata = path.join(options.dataDir, "pgdata");
    if (options.pgliteTemplates !== undefined && options.migrate !== false && !existsSync(pgdata)) {
      await copyFromTemplate(pgdata, options.pgliteTemplates, MIGRATIONS);
    }
    const client = await PGlite.create(pgdata);
    const activity = new PgliteActivity(client);
    const db = drizzlePglite(client, { schema });
    if (options.migrate !== false) await migratePglite(db, { migrationsFolder: MIGRATIONS });
    return {
      db: db as unknown as Db,
      reads: db as unknown as Db,
      kind: "pglite",
      location: path.resolve(options.dataDir),
      pool: () => activity.reading(),
      pending: (limit) => activity.oldest(limit),
      // one process per folder: any other owner is a process that has stopped
      instance: { id: process.pid, alive: async (id) => id === process.pid },
      close: async () => {
        await client.close();
        releaseLock();
      },
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
}

/** The pid holding a data folder's lock, if a live process holds it. */
export function folderLockOwner(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(dataDir, "gateway.lock"), "utf8"));
    if (!Number.isInteger(pid) || pid <= 0) return undefined;
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

function takeFolderLock(dataDir: string): () => void {
  const file = path.join(dataDir, "gateway.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch {
      const owner = folderLockOwner(dataDir);
      if (owner !== undefined && owner !== process.pid) {
        throw new StoreError(
          `the data folder ${dataDir} is in use by process ${owner} (one gateway per PGlite folder; ` +
            "use DATABASE_URL for several)",
        );
      }
      rmSync(file, { force: true }); // stale: its owner is gone
    }
  }
  throw new StoreError(`cannot lock the data folder ${dataDir}`);
}

/** `SELECT 1` through the store: for readiness checks. */
export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}

/**
 * The committed migrations the database has not applied, by tag (drizzle's own rule: those of the
 * journal newer than the last one applied). Every one when the database has none.
 */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const journal = JSON.parse(await readFile(path.join(MIGRATIONS, "meta", "_journal.json"), "utf8")) as {
    entries: Array<{ when: number; tag: string }>;
  };
  let last = -1;
  try {
    const result = await db.execute(sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`);
    const rows = (result as unknown as { rows: Array<{ last: string | null }> }).rows;
    last = rows[0]?.last === null || rows[0]?.last === undefined ? -1 : Number(rows[0].last);
  } catch (error) {
    // no migration table (or schema) yet: nothing applied; anything else (the database down) is the caller's
    const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
    if (code !== "42P01" && code !== "3F000") throw error;
  }
  return journal.entries.filter((e) => e.when > last).map((e) => e.tag);
}

/**
 * On PostgreSQL an instance holds a session advisory lock on its id, on a connection of its own, for
 * as long as it runs: the server releases it when the process dies, however it dies. An id whose
 * lock can be taken belongs to no running process. The lock is taken again if the connection drops.
 */
class PostgresInstance implements Instance {
  readonly id = randomInt(1, 2 ** 31 - 1);
  private client: pg.Client | undefined;
  private stopped = false;

  private constructor(
    private readonly databaseUrl: string,
    private readonly pool: pg.Pool,
  ) {}

  static async start(databaseUrl: string, pool: pg.Pool): Promise<PostgresInstance> {
    const instance = new PostgresInstance(databaseUrl, pool);
    await instance.hold();
    return instance;
  }

  private async hold(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    client.on("error", () => {}); // its end is handled below
    await client.connect();
    await client.query("SELECT pg_advisory_lock($1, $2)", [INSTANCE_LOCKS, this.id]);
    this.client = client;
    client.once("end", () => {
      if (this.stopped) return;
      // the server went away (a restart): take the lock again once it is back
      const retry = () => void this.hold().catch(() => setTimeout(retry, 1_000).unref());
      setTimeout(retry, 1_000).unref();
    });
  }

  async alive(id: number): Promise<boolean> {
    if (id === this.id) return true;
    // taking the lock succeeds only when no session holds it: give it back at once, in the same statement
    const { rows } = await this.pool.query<{ alive: boolean }>(
      "SELECT CASE WHEN pg_try_advisory_lock($1, $2) THEN NOT pg_advisory_unlock($1, $2) ELSE true END AS alive",
      [INSTANCE_LOCKS, id],
    );
    return rows[0].alive;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.client?.end().catch(() => {});
  }
}
