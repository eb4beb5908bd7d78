import { expect } from "chai";
import { getTableColumns } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import type { Sql } from "postgres";

import type { Db } from "../../../gateway/store/db.js";
import { statementsOf } from "../../../gateway/store/queries.js";
import * as schema from "../../../gateway/store/schema.js";

interface Sent {
  query: string;
  params: unknown[];
  prepare: unknown;
}

/** A postgres.js client answering every query with `rows` (the driver's arrays), recording what it was sent. */
function answeringClient() {
  const client = {
    rows: [] as unknown[][],
    sent: [] as Sent[],
    options: { parsers: {}, serializers: {} },
    unsafe(query: string, params: unknown[], options?: { prepare?: boolean }) {
      client.sent.push({ query, params, prepare: options?.prepare });
      return { values: async () => client.rows.map((row) => [...row]) };
    },
  };
  return client;
}

/**
 * Driver rows `width` columns wide: every cell a digit string, which each column type decodes
 * differently (integer and bigint to numbers, numeric and text kept), a row with every other cell
 * null, and the last column a number when `counted` (`count(*) over ()::int`).
 */
function driverRows(width: number, counted: boolean): unknown[][] {
  const row = (n: number, nulls: boolean) =>
    Array.from({ length: width }, (_, c) =>
      counted && c === width - 1 ? 2 : nulls && c % 2 === 1 ? null : String(100 * n + c),
    );
  return [row(1, false), row(2, true)];
}

const columns = (table: Parameters<typeof getTableColumns>[0]) => Object.keys(getTableColumns(table)).length;

/** Each read statement, its width in columns, whether it is a page, and the values it is run with. */
const STATEMENTS = [
  { name: "computeUnit", width: columns(schema.computeUnits) + 2, page: false, values: { chainId: 1, cuId: 7 } },
  {
    name: "listComputeUnits",
    width: columns(schema.computeUnits) + 3,
    page: true,
    values: { chainId: 1, providerLower: "0xab", minValue: "1.5", maxValue: null, limit: 20, offset: 40 },
  },
  { name: "provider", width: columns(schema.providers), page: false, values: { chainId: 1, addressLower: "0xab" } },
  {
    name: "listProviders",
    width: columns(schema.providers) + 1,
    page: true,
    values: { chainId: 1, status: "active", minReputation: null, location: "de", limit: 10, offset: 0 },
  },
  { name: "listing", width: columns(schema.listings), page: false, values: { chainId: 1, listingId: 3 } },
] as const;

type Statements = ReturnType<typeof statementsOf>;
type AnyStatement = { execute(values: Record<string, unknown>): Promise<unknown>; compiled?: boolean };

describe("The read routes' compiled statements (gateway/store/compiled-statement.ts)", () => {
  // the same statements twice over postgres.js: compiled, and drizzle's own `execute` (a database
  // with a logger is left to drizzle, which logs each query)
  const compiledClient = answeringClient();
  const drizzleClient = answeringClient();
  const compiled = statementsOf(drizzle(compiledClient as unknown as Sql, { schema }) as unknown as Db);
  const plain = statementsOf(
    drizzle(drizzleClient as unknown as Sql, { schema, logger: { logQuery: () => {} } }) as unknown as Db,
  );
  const statement = (of: Statements, name: string) => (of as unknown as Record<string, AnyStatement>)[name];

  describe("compiledStatement and compiledPage", () => {
    it("run every read statement on postgres.js without drizzle's per-call work, and leave the rest to drizzle", () => {
      for (const { name } of STATEMENTS) {
        expect(statement(compiled, name).compiled, name).to.equal(true);
        expect(statement(plain, name).compiled, name).to.equal(undefined);
      }
    });

    for (const { name, width, page, values } of STATEMENTS) {
      it(`${name}: sends drizzle's SQL and parameters, and answers drizzle's rows`, async () => {
        compiledClient.rows = drizzleClient.rows = driverRows(width, page);
        compiledClient.sent = [];
        drizzleClient.sent = [];
        const ours = await statement(compiled, name).execute(values);
        const theirs = await statement(plain, name).execute(values);
        expect(compiledClient.sent).to.deep.equal(drizzleClient.sent);
        expect(compiledClient.sent[0].prepare).to.equal(true);
        expect(ours).to.deep.equal(theirs);
        // the decoders were applied: an integer column came back a number, not the driver's string
        const first = (page ? (ours as { rows: unknown[] }).rows[0] : (ours as unknown[])[0]) as Record<
          string,
          unknown
        >;
        expect(first.chainId).to.be.a("number");
        if (page) expect((ours as { total: unknown }).total).to.equal(2);
      });
    }

    it("answers no rows, and a page with no row has no total", async () => {
      compiledClient.rows = [];
      expect(await compiled.computeUnit.execute({ chainId: 1, cuId: 7 })).to.deep.equal([]);
      expect(await compiled.listProviders.execute(STATEMENTS[3].values)).to.deep.equal({ rows: [], total: undefined });
    });

    it("refuses a call missing a placeholder's value, as drizzle does", async () => {
      compiledClient.sent = [];
      const refusal = await compiled.computeUnit.execute({ chainId: 1 }).then(
        () => undefined,
        (error: Error) => error.message,
      );
      expect(refusal).to.equal('No value for placeholder "cuId" was provided');
      expect(compiledClient.sent).to.deep.equal([]);
    });
  });
});
