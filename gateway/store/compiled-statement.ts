import { Column, is, NoopLogger, Param, Placeholder, SQL, Subquery } from "drizzle-orm";
import { NoopCache } from "drizzle-orm/cache/core";
import { PostgresJsPreparedQuery } from "drizzle-orm/postgres-js";
import type { Sql } from "postgres";

/** A prepared read statement: its placeholders' values in, its rows out. */
export interface Statement<Row> {
  execute(values: Record<string, unknown>): Promise<Row[]>;
  /** True when it runs without drizzle's per-call work (see {@link compiledStatement}). */
  readonly compiled?: boolean;
}

/** What drizzle 0.45's postgres.js prepared query holds (TypeScript-private, read once here). */
interface PreparedQueryParts {
  client: Sql;
  queryString: string;
  params: unknown[];
  logger: unknown;
  cache: unknown;
  fields?: Array<{ path: string[]; field: unknown }>;
  customResultMapper?: unknown;
  prepare: boolean;
}

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/**
 * The statement drizzle prepared, executed without drizzle's per-call work when it runs on
 * postgres.js (the read connections): the parameters are placed and the columns decoded by
 * functions worked out once, here, instead of once per call and per cell.
 *
 * Why: drizzle's `execute` maps each row with `mapResultRow`, which finds each column's decoder by
 * class checks and walks its path with an iterator, for every cell of every row; a list route's 20
 * rows cost about 140-160 us of mapping and spans per request with no I/O at all, a detail's 9-11 us
 * (decision 0174). The SQL, the parameters, the decoders (drizzle's own columns' `mapFromDriverValue`)
 * and the answers are drizzle's: the unit tier runs every read statement both ways on the same
 * driver rows and compares them.
 *
 * Falls back to drizzle's `execute` for what it does not reproduce: another driver (PGlite), a
 * logger or a cache on the database, a custom result mapper, or a selection of nested objects
 * (drizzle's left-join nulling of a joined table applies to those only).
 */
export function compiledStatement<Row>(prepared: Statement<Row>): Statement<Row> {
  const compiled = compile(prepared);
  if (compiled === undefined) return prepared;
  return { compiled: true, execute: async (values) => compiled.rows(await compiled.run(values)) as Row[] };
}

/** A page of rows and the count of every row matching (undefined when the page has no row to carry it). */
export interface PageOf<Row> {
  rows: Row[];
  total: number | undefined;
}

/** Rows that each carry the count of every matching row (`total`), as a page. */
export function pageOf<Row extends { total: number }>(rows: Row[]): PageOf<Omit<Row, "total">> {
  return { rows: rows.map(({ total: _total, ...row }) => row), total: rows[0]?.total };
}

/**
 * A list statement whose every row carries the count of all matching rows in a column `total`
 * (`count(*) over ()`): the page's rows without that column, and the count read from the first.
 * Compiled as {@link compiledStatement} is; otherwise drizzle's rows with `total` taken out.
 */
export function compiledPage<Row extends { total: number }>(
  prepared: Statement<Row>,
): { execute(values: Record<string, unknown>): Promise<PageOf<Omit<Row, "total">>>; readonly compiled?: boolean } {
  const compiled = compile(prepared);
  if (compiled === undefined || !compiled.keys.includes("total"))
    return { execute: async (values) => pageOf(await prepared.execute(values)) };
  const at = compiled.keys.indexOf("total");
  return {
    compiled: true,
    execute: async (values) => {
      const rows = await compiled.run(values);
      return {
        rows: compiled.rows(rows, at) as Array<Omit<Row, "total">>,
        total: rows.length === 0 ? undefined : (compiled.decode(rows[0], at) as number),
      };
    },
  };
}

/** A prepared query worked out once: how to run it, and how to decode its rows. */
function compile(prepared: Statement<unknown>) {
  if (!is(prepared, PostgresJsPreparedQuery)) return undefined;
  const parts = prepared as unknown as PreparedQueryParts;
  const fields = parts.fields;
  if (
    typeof parts.queryString !== "string" ||
    !Array.isArray(parts.params) ||
    !Array.isArray(fields) ||
    parts.customResultMapper !== undefined ||
    !is(parts.logger, NoopLogger) ||
    !is(parts.cache, NoopCache) ||
    fields.some(({ path }) => path.length !== 1)
  )
    return undefined;

  const { client, queryString, prepare } = parts;
  const place = parts.params.map(parameterOf);
  const keys = fields.map(({ path }) => path[0]);
  const decoders = fields.map(({ field }) => decoderOf(field));
  const width = keys.length;
  const decode = (row: unknown[], column: number) => {
    const value = row[column];
    return value === null ? null : decoders[column].mapFromDriverValue(value);
  };
  return {
    keys,
    decode,
    run: async (values: Record<string, unknown>): Promise<unknown[][]> => {
      const params = new Array<unknown>(place.length);
      for (let i = 0; i < place.length; i++) params[i] = place[i](values);
      return (await client.unsafe(queryString, params as never[], { prepare }).values()) as unknown[][];
    },
    /** Each row as an object keyed as drizzle keys it, without the column `skip` if given. */
    rows: (rows: unknown[][], skip = -1): Array<Record<string, unknown>> => {
      const out = new Array<Record<string, unknown>>(rows.length);
      for (let r = 0; r < rows.length; r++) {
        const row = rows[r];
        const record: Record<string, unknown> = {};
        for (let c = 0; c < width; c++) if (c !== skip) record[keys[c]] = decode(row, c);
        out[r] = record;
      }
      return out;
    },
  };
}

/** How one parameter gets its value, as drizzle's `fillPlaceholders` does. */
function parameterOf(param: unknown): (values: Record<string, unknown>) => unknown {
  const named = (name: string, encode: (value: unknown) => unknown) => (values: Record<string, unknown>) => {
    if (!(name in values)) throw new Error(`No value for placeholder "${name}" was provided`);
    return encode(values[name]);
  };
  if (is(param, Placeholder)) return named(param.name, (value) => value);
  if (is(param, Param) && is(param.value, Placeholder)) {
    const { encoder } = param;
    return named(param.value.name, (value) => encoder.mapToDriverValue(value));
  }
  return () => param;
}

/** The column's decoder, found as drizzle's `mapResultRow` finds it (an SQL's is internal to drizzle). */
function decoderOf(field: unknown): Decoder {
  const decoderOfSql = (value: unknown) => (value as { decoder: Decoder }).decoder;
  if (is(field, Column)) return field;
  if (is(field, SQL)) return decoderOfSql(field);
  if (is(field, Subquery)) return decoderOfSql((field._ as unknown as { sql: SQL }).sql);
  return decoderOfSql((field as SQL.Aliased).sql);
}
