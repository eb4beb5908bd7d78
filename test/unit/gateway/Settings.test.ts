import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import { loadConfig } from "../../../gateway/config.js";
import { RPC_URL_CHAINS, SETTINGS, rpcUrlVariable, settingsMarkdown } from "../../../gateway/settings.js";
import type { Setting } from "../../../gateway/settings.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const ROWS: readonly Setting[] = Object.values(SETTINGS);

/** A record whose every read is noted (what loadConfig asks of the flags or the environment). */
function recording(values: Record<string, string>, reads: Set<string>): Record<string, string | undefined> {
  return new Proxy(values as Record<string, string | undefined>, {
    get(target, property) {
      if (typeof property === "string") reads.add(property);
      return target[property as string];
    },
  });
}

/** The row a variable belongs to: `ETHEREUM_RPC_URL` is `<CHAIN>_RPC_URL`'s, `X_FILE` the secret X's. */
function rowOfVariable(variable: string): string {
  if (RPC_URL_CHAINS.some((chain) => rpcUrlVariable(chain) === variable)) return "<CHAIN>_RPC_URL";
  const secret = ROWS.find((s) => s.file === true && `${s.env}_FILE` === variable);
  return secret?.env ?? variable;
}

/** The cells of the markdown table under `## Settings` in `text`. */
function tableOf(text: string): string[][] {
  const start = text.indexOf("\n## Settings");
  const next = text.indexOf("\n## ", start + 1);
  // the section ends at the next heading of its level (the metrics' table follows it)
  const section = text.slice(start, next === -1 ? undefined : next);
  return section
    .split("\n")
    .filter((line) => line.startsWith("|"))
    .filter((line) => !/^\|\s*-+/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
}

describe("The gateway's settings: one table in code (gateway/settings.ts) and in docs/gateway.md", function () {
  let dir: string;
  before(async function () {
    dir = await mkdtemp(path.join(tmpdir(), "gateway-settings-"));
  });
  after(async function () {
    await rm(dir, { recursive: true, force: true });
  });

  describe("loadConfig", function () {
    it("reads exactly the variables and flags of the table: none without its row, no row unread", function () {
      const variables = new Set<string>();
      const flags = new Set<string>();
      // the devnet's defaults, and another environment's (secrets and a proxy given, as it requires)
      loadConfig(recording({}, flags), recording({}, variables), dir);
      loadConfig(
        recording({}, flags),
        recording(
          {
            GATEWAY_ENVIRONMENT: "mainnet",
            GATEWAY_JWT_SECRET: "x".repeat(32),
            GATEWAY_TRUSTED_PROXIES: "10.0.0.1",
            GATEWAY_DATA_DIR: dir,
          },
          variables,
        ),
        dir,
      );
      const read = new Set([...variables].filter((v) => /^[A-Z][A-Z0-9_]*$/.test(v)).map(rowOfVariable));
      const rows = new Set(ROWS.map((s) => s.env));
      expect(
        [...read].filter((v) => !rows.has(v)),
        "variables read without a row in SETTINGS",
      ).to.deep.equal([]);
      expect(
        [...rows].filter((v) => !read.has(v)),
        "rows of SETTINGS that loadConfig never reads",
      ).to.deep.equal([]);

      // `--port` is `--gateway-port`'s deprecated name (a row's alias, not a setting of its own)
      const flagged = new Set([...flags].filter((f) => f !== "port"));
      const rowFlags = new Set(ROWS.flatMap((s) => (s.flag === undefined ? [] : [s.flag])));
      expect(
        [...flagged].filter((f) => !rowFlags.has(f)),
        "flags read without a row",
      ).to.deep.equal([]);
      expect(
        [...rowFlags].filter((f) => !flagged.has(f)),
        "rows' flags never read",
      ).to.deep.equal([]);
    });

    it("takes a flag over its variable, and the variable over the default", function () {
      const env = { GATEWAY_POLL_MS: "700", GATEWAY_BATCH_BLOCKS: "40", GATEWAY_DATA_DIR: dir };
      expect(loadConfig({}, env, dir).pollIntervalMs).to.equal(700);
      expect(loadConfig({ "poll-ms": "900" }, env, dir).pollIntervalMs).to.equal(900);
      expect(loadConfig({ "batch-blocks": "60" }, env, dir).batchBlocks).to.equal(60);
      expect(loadConfig({}, { GATEWAY_DATA_DIR: dir }, dir).batchBlocks).to.equal(500);
    });

    it("pipelines the read routes' queries on GATEWAY_DB_READ_CONNECTIONS connections, 0 to use the pool, and refuses a bad count", function () {
      const base = { GATEWAY_DATA_DIR: dir };
      expect(loadConfig({}, base, dir).dbReadConnections, "unset: the store's default").to.equal(undefined);
      expect(loadConfig({}, { ...base, GATEWAY_DB_READ_CONNECTIONS: "4" }, dir).dbReadConnections).to.equal(4);
      expect(loadConfig({}, { ...base, GATEWAY_DB_READ_CONNECTIONS: "0" }, dir).dbReadConnections).to.equal(0);
      for (const bad of ["-1", "two", "1.5"]) {
        expect(() => loadConfig({}, { ...base, GATEWAY_DB_READ_CONNECTIONS: bad }, dir), bad).to.throw(
          "GATEWAY_DB_READ_CONNECTIONS must be a whole number, 0 or more",
        );
      }
    });

    it("finds the built portal beside the gateway's code by default, a relative GATEWAY_PORTAL_DIR from the working folder", function () {
      expect(loadConfig({}, { GATEWAY_DATA_DIR: dir }, dir).portal!.distDir).to.equal(
        path.join(ROOT, "portal", "dist"),
      );
      expect(loadConfig({}, { GATEWAY_DATA_DIR: dir, GATEWAY_PORTAL_DIR: "web" }, dir).portal!.distDir).to.equal(
        path.join(dir, "web"),
      );
    });
  });

  describe("docs/gateway.md", function () {
    it("holds the table of SETTINGS, row for row (paste settingsMarkdown()'s output when it differs)", async function () {
      const documented = tableOf(await readFile(path.join(ROOT, "docs", "gateway.md"), "utf8"));
      const expected = tableOf(`\n## Settings\n${settingsMarkdown()}\n`);
      expect(documented.length, "rows in docs/gateway.md's settings table").to.be.greaterThan(1);
      expect(documented, `docs/gateway.md's table; it should read:\n${settingsMarkdown()}\n`).to.deep.equal(expected);
    });
  });
});
