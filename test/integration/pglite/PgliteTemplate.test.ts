import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { sql } from "drizzle-orm";

import { MIGRATIONS, openStore, pendingMigrations } from "../../../gateway/store/db.js";
import type { Store } from "../../../gateway/store/db.js";
import { apiKeys } from "../../../gateway/store/schema.js";
import { copyFromTemplate, templateKey } from "../../../gateway/store/pglite-template.js";

/** The rows of a query on a PGlite store. */
async function rows<T>(store: Store, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await store.db.execute(query)) as unknown as { rows: T[] }).rows;
}

const addKey = (store: Store) =>
  store.db
    .insert(apiKeys)
    .values({ keyId: "k1", tier: "standard", account: "0x01", scopes: ["read"], label: "", createdAt: 1 });
const keyCount = async (store: Store) =>
  Number((await rows<{ n: string }>(store, sql`select count(*)::text as n from api_keys`))[0].n);

describe("PGlite data folders made from a migrated template (gateway/store/pglite-template.ts)", function () {
  this.timeout(180_000);
  let dir: string;
  /** A templates folder the tests that need not make their own share (a template costs seconds of CPU). */
  let shared: string;
  before(function () {
    shared = mkdtempSync(path.join(tmpdir(), "pglite-templates-"));
  });
  after(function () {
    rmSync(shared, { recursive: true, force: true });
  });
  beforeEach(function () {
    dir = mkdtempSync(path.join(tmpdir(), "pglite-template-"));
  });
  afterEach(function () {
    rmSync(dir, { recursive: true, force: true });
  });

  describe("openStore with pgliteTemplates", function () {
    it("makes the template once, then starts each new folder as its own copy: migrated, empty, independent", async function () {
      const templates = shared;
      const first = await openStore({ dataDir: path.join(dir, "a"), pgliteTemplates: templates });
      const key = await templateKey(MIGRATIONS);
      expect(readdirSync(templates)).to.deep.equal([`pglite-${key}`]);
      const second = await openStore({ dataDir: path.join(dir, "b"), pgliteTemplates: templates });
      try {
        for (const store of [first, second]) {
          expect(await pendingMigrations(store.db)).to.deep.equal([]);
          expect(await keyCount(store)).to.equal(0);
        }
        await addKey(first);
        expect(await keyCount(first)).to.equal(1);
        expect(await keyCount(second)).to.equal(0);
      } finally {
        await first.close();
        await second.close();
      }
      // the template itself is untouched by the copies' writes
      const third = await openStore({ dataDir: path.join(dir, "c"), pgliteTemplates: templates });
      try {
        expect(await keyCount(third)).to.equal(0);
      } finally {
        await third.close();
      }
    });

    it("reopens a folder that has a database without copying over it", async function () {
      const templates = shared;
      const dataDir = path.join(dir, "a");
      const store = await openStore({ dataDir, pgliteTemplates: templates });
      await addKey(store);
      await store.close();
      const again = await openStore({ dataDir, pgliteTemplates: templates });
      try {
        expect(await keyCount(again)).to.equal(1);
      } finally {
        await again.close();
      }
    });

    it("is not used with migrate false: the folder is made by initdb and every migration stays pending", async function () {
      const templates = path.join(dir, "templates");
      const store = await openStore({ dataDir: path.join(dir, "a"), pgliteTemplates: templates, migrate: false });
      try {
        expect(existsSync(templates)).to.equal(false);
        expect((await pendingMigrations(store.db)).length).to.be.greaterThan(0);
      } finally {
        await store.close();
      }
    });
  });

  describe("templateKey", function () {
    it("changes with any file of the migrations folder, so no folder starts from another set's template", async function () {
      const migrations = path.join(dir, "drizzle");
      cpSync(MIGRATIONS, migrations, { recursive: true });
      const before = await templateKey(migrations);
      expect(await templateKey(migrations)).to.equal(before);
      expect(before).to.equal(await templateKey(MIGRATIONS));
      writeFileSync(path.join(migrations, "0000_init.sql"), "-- changed\n", { flag: "a" });
      expect(await templateKey(migrations)).to.not.equal(before);
    });
  });

  describe("copyFromTemplate", function () {
    it("lets makers that start at once (as processes side by side do) each build the template: one is kept, every copy is whole", async function () {
      const templates = path.join(dir, "templates");
      await Promise.all(
        ["a", "b", "c"].map((name) => copyFromTemplate(path.join(dir, name, "pgdata"), templates, MIGRATIONS)),
      );
      expect(readdirSync(templates)).to.deep.equal([`pglite-${await templateKey(MIGRATIONS)}`]);
      for (const name of ["a", "b", "c"]) {
        const store = await openStore({ dataDir: path.join(dir, name) });
        try {
          expect(await pendingMigrations(store.db)).to.deep.equal([]);
        } finally {
          await store.close();
        }
      }
    });

    it("refuses to copy over a folder that exists", async function () {
      const templates = shared;
      const pgdata = path.join(dir, "a", "pgdata");
      await copyFromTemplate(pgdata, templates, MIGRATIONS);
      const error = await copyFromTemplate(pgdata, templates, MIGRATIONS).then(
        () => undefined,
        (e: NodeJS.ErrnoException) => e,
      );
      expect(error?.code).to.equal("ERR_FS_CP_EEXIST");
    });
  });
});
