import { createHash, randomBytes } from "node:crypto";
import { cpSync, existsSync, readFileSync } from "node:fs";
import { mkdir, readFile, readdir, rename, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";

/**
 * A new PGlite folder made as a copy of a migrated, empty database instead of by `initdb` and the
 * migrations. In PGlite (PostgreSQL compiled to WebAssembly) those cost about 4.5 s of CPU on these
 * machines; a copy of the 40 MB folder and its opening cost about 0.45 s (decision 0177). Worth it
 * where folders are made often: the devnet on every `npm start`, and each test's gateway.
 *
 * The template lives in `templates/pglite-<key>`, where the key hashes PGlite's version and every
 * file of the migrations folder: a new migration or a new PGlite makes a new template, and no
 * folder is ever made from a template of other migrations. It is made once, under a name of its own,
 * then renamed into place, so processes that start at once (the test tiers side by side) never see
 * half a template: the first rename wins, the others drop theirs and copy the winner's.
 */
export async function copyFromTemplate(pgdata: string, templates: string, migrationsFolder: string): Promise<void> {
  const template = path.join(templates, `pglite-${await templateKey(migrationsFolder)}`);
  if (!existsSync(template)) await makeTemplate(template, migrationsFolder);
  // Node's synchronous copy (native code) of the template's 1,100 files: 0.13 CPU s on these machines
  // against 0.55 s for `fs.promises.cp`, whose JavaScript walk makes a system call per step of each
  // file. A store opens once, before its gateway serves, so the event loop waits on nobody.
  cpSync(template, pgdata, { recursive: true, errorOnExist: true, force: false });
}

/** PGlite's version and a hash of the migrations folder's files (names and contents). */
export async function templateKey(migrationsFolder: string): Promise<string> {
  const hash = createHash("sha256").update(`pglite ${pgliteVersion()}\n`);
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full, `${prefix}${entry.name}/`);
      else hash.update(`${prefix}${entry.name}\n`).update(await readFile(full));
    }
  };
  await walk(migrationsFolder, "");
  return hash.digest("hex").slice(0, 16);
}

async function makeTemplate(template: string, migrationsFolder: string): Promise<void> {
  await mkdir(path.dirname(template), { recursive: true });
  const building = `${template}.${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    const client = await PGlite.create(building);
    try {
      await migrate(drizzle(client), { migrationsFolder });
    } finally {
      await client.close();
    }
    await rename(building, template).catch((error: NodeJS.ErrnoException) => {
      // another process renamed its template first: the same migrations, so the same database
      if (!existsSync(template)) throw error;
    });
  } finally {
    await rm(building, { recursive: true, force: true });
  }
}

/** The installed PGlite's version (its package.json, above the entry point in its `dist/`). */
function pgliteVersion(): string {
  try {
    let dir = path.dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"));
    while (!existsSync(path.join(dir, "package.json")) && path.dirname(dir) !== dir) dir = path.dirname(dir);
    return (JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }).version;
  } catch {
    return "unknown";
  }
}
