import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { sql } from "drizzle-orm";

import { openStore } from "../../../gateway/store/db.js";
import type { Store } from "../../../gateway/store/db.js";
import { webhookSubscriptions } from "../../../gateway/store/schema.js";
import { TEST_PGLITE_TEMPLATES } from "../../../testing/fixtures.js";

/** Resolves after `ms`. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Sends a drizzle query now (a query builder runs only once it is awaited or `then` is called). */
const send = <T>(query: PromiseLike<T>): Promise<T> => Promise.resolve(query);

describe("What PGlite's one connection is doing (gateway/store/pglite-activity.ts)", function () {
  this.timeout(60_000);
  let dir: string;
  let store: Store;

  before(async function () {
    dir = mkdtempSync(path.join(tmpdir(), "pglite-activity-"));
    store = await openStore({ dataDir: path.join(dir, "db"), pgliteTemplates: TEST_PGLITE_TEMPLATES });
  });

  /** A transaction that holds the connection (everything else queues behind it) until released. */
  async function holdConnection(...statements: string[]): Promise<{ release: () => Promise<void> }> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let begun!: () => void;
    const inside = new Promise<void>((resolve) => (begun = resolve));
    const transaction = store.db.transaction(async (tx) => {
      for (const statement of statements.length > 0 ? statements : ["select 'held' as holder"]) {
        await tx.execute(sql.raw(statement));
      }
      begun();
      await held;
    });
    await inside;
    return {
      release: async () => {
        release();
        await transaction;
      },
    };
  }

  after(async function () {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe("pool", function () {
    it("reads one idle connection and nothing waiting when nothing is asked of it", async function () {
      await store.db.select().from(webhookSubscriptions).limit(1);
      expect(store.pool()).to.deep.equal({ total: 1, idle: 1, waiting: 0 });
      expect(store.pending!()).to.deep.equal([]);
    });

    it("reads the connection busy and the statements queued behind a transaction while it runs, and idle once it ends", async function () {
      const holder = await holdConnection();
      const queued = [
        send(store.db.select().from(webhookSubscriptions).limit(1)),
        send(store.db.execute(sql`select 2 as queued_here`)),
      ];
      await sleep(20);
      const reading = store.pool();
      await holder.release();
      await Promise.all(queued);
      expect(reading).to.deep.equal({ total: 1, idle: 0, waiting: 2 });
      expect(store.pool()).to.deep.equal({ total: 1, idle: 1, waiting: 0 });
    });
  });

  describe("pending", function () {
    it("names the transaction everything waits behind, at its latest statement, with its age, then what queues", async function () {
      const holder = await holdConnection("select 1 as first_statement", "select 2 as latest_statement");
      const queued = send(store.db.execute(sql`select 3 as waiting_statement`));
      await sleep(50);
      const pending = store.pending!();
      await holder.release();
      await queued;

      expect(pending.map((p) => p.what)).to.deep.equal([
        "transaction, at: select 2 as latest_statement",
        "query: select 3 as waiting_statement",
      ]);
      expect(pending[0].ms).to.be.at.least(50);
      expect(pending[0].ms).to.be.at.least(pending[1].ms);
      expect(store.pending!()).to.deep.equal([]);
    });

    it("forgets an operation that failed, and shortens a long statement", async function () {
      const failed = await store.db.execute(sql`select * from no_such_table`).then(
        () => "answered",
        (error: Error) => error.message,
      );
      expect(failed).to.match(/no_such_table/);
      expect(store.pending!()).to.deep.equal([]);

      const long = `select ${Array.from({ length: 100 }, (_, i) => `${i} as c${i}`).join(", ")}`;
      const holder = await holdConnection();
      const running = send(store.db.execute(sql.raw(long)));
      await sleep(20);
      const [, shown] = store.pending!();
      await holder.release();
      await running;
      expect(shown.what.length).to.equal(160);
      expect(shown.what.endsWith("…")).to.equal(true);
      expect(shown.what.startsWith("query: select 0 as c0, 1 as c1")).to.equal(true);
    });

    it("is limited to the oldest few", async function () {
      const holder = await holdConnection();
      const many = Array.from({ length: 6 }, (_, i) => send(store.db.execute(sql.raw(`select ${i} as n`))));
      await sleep(20);
      const shown = store.pending!(2);
      await holder.release();
      await Promise.all(many);
      expect(shown.map((p) => p.what)).to.deep.equal([
        "transaction, at: select 'held' as holder",
        "query: select 0 as n",
      ]);
    });
  });
});
