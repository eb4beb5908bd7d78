/**
 * Deprecation (docs/api-changelog.md, "Deprecation policy"): a route or a response field is marked
 * in its schema with `deprecated: true` and two dates, `x-deprecated-at` (when the changelog
 * announced it) and `x-sunset` (the earliest day it may be removed, at least
 * {@link MIN_DEPRECATION_DAYS} later). Every answer of a route that is deprecated, or whose success
 * responses hold a deprecated field, carries `Deprecation` (RFC 9745: `@<Unix seconds>`) and
 * `Sunset` (RFC 8594: an HTTP date); the document shows both headers and the OpenAPI `deprecated`
 * flag. A mark without its dates, or with a shorter notice, fails the gateway's start.
 */
import type { FastifyInstance } from "fastify";

import { componentSchema, refId } from "./components.js";

/** The schema keyword that dates a deprecation's announcement (YYYY-MM-DD, UTC). */
export const DEPRECATED_AT = "x-deprecated-at";
/** The schema keyword that dates the earliest removal (YYYY-MM-DD, UTC). */
export const SUNSET = "x-sunset";
/** The shortest notice between the announcement and the removal, in days. */
export const MIN_DEPRECATION_DAYS = 180;

export interface Deprecation {
  /** When it was announced. */
  deprecatedAt: Date;
  /** The earliest removal. */
  sunset: Date;
  /** What is deprecated: the route (`route`) or the fields' paths. */
  what: string[];
}

type Schema = Record<string, unknown>;

function dateOf(value: unknown, keyword: string, where: string): Date {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    throw new Error(`${where} is deprecated without ${keyword} (YYYY-MM-DD)`);
  }
  return new Date(`${value}T00:00:00Z`);
}

/** The dates of a schema marked deprecated, checked against the policy. */
function markOf(schema: Schema, where: string): Deprecation {
  const deprecatedAt = dateOf(schema[DEPRECATED_AT], DEPRECATED_AT, where);
  const sunset = dateOf(schema[SUNSET], SUNSET, where);
  if (sunset.getTime() - deprecatedAt.getTime() < MIN_DEPRECATION_DAYS * 86_400_000) {
    throw new Error(`${where}: the sunset must be at least ${MIN_DEPRECATION_DAYS} days after the deprecation`);
  }
  return { deprecatedAt, sunset, what: [where] };
}

/** Every field marked deprecated in `schema` (named schemas followed), with its path. */
function deprecatedFields(schema: unknown, path: string, seen: Set<string>): Deprecation[] {
  if (schema === null || typeof schema !== "object") return [];
  const s = schema as Schema;
  const id = refId(s);
  if (id !== undefined) {
    if (seen.has(id)) return [];
    return deprecatedFields(componentSchema(id), id, new Set([...seen, id]));
  }
  const found: Deprecation[] = [];
  for (const [name, property] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) {
    const where = `${path}.${name}`;
    if (property.deprecated === true) found.push(markOf(property, where));
    found.push(...deprecatedFields(property, where, seen));
  }
  for (const key of ["items", "additionalProperties"]) found.push(...deprecatedFields(s[key], `${path}[]`, seen));
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    for (const option of (s[key] ?? []) as unknown[]) found.push(...deprecatedFields(option, path, seen));
  }
  return found;
}

/**
 * The deprecation a route's answers announce: the route's own when its schema is marked, else the
 * one of the deprecated fields of its success responses whose sunset comes first (the earliest
 * announcement). Undefined when nothing it serves is deprecated.
 */
export function deprecationOf(schema: Schema | undefined): Deprecation | undefined {
  if (schema === undefined) return undefined;
  if (schema.deprecated === true) return { ...markOf(schema, "route"), what: ["route"] };
  const responses = (schema.response ?? {}) as Record<string, unknown>;
  const fields = Object.entries(responses)
    .filter(([status]) => status.startsWith("2"))
    .flatMap(([status, response]) => deprecatedFields(response, String(status), new Set()));
  if (fields.length === 0) return undefined;
  const first = fields.reduce((a, b) => (b.sunset < a.sunset ? b : a));
  const earliest = fields.reduce((a, b) => (b.deprecatedAt < a.deprecatedAt ? b : a));
  return { deprecatedAt: earliest.deprecatedAt, sunset: first.sunset, what: fields.flatMap((f) => f.what) };
}

/** The `Deprecation` and `Sunset` header values of a deprecation. */
export function deprecationHeaders(deprecation: Deprecation): { deprecation: string; sunset: string } {
  return {
    deprecation: `@${Math.floor(deprecation.deprecatedAt.getTime() / 1000)}`,
    sunset: deprecation.sunset.toUTCString(),
  };
}

/**
 * Makes every route of `app` registered from now on that {@link deprecationOf} finds deprecated
 * carry `Deprecation` and `Sunset` in each of its answers (successes and failures alike).
 */
export function announceDeprecations(app: FastifyInstance): void {
  app.addHook("onRoute", (route) => {
    const deprecation = deprecationOf(route.schema as Schema | undefined);
    if (deprecation === undefined) return;
    const headers = deprecationHeaders(deprecation);
    const onSend = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
    route.onSend = [
      ...onSend,
      async (_request: unknown, reply: { header(name: string, value: string): unknown }, payload: unknown) => {
        reply.header("deprecation", headers.deprecation);
        reply.header("sunset", headers.sunset);
        return payload;
      },
    ] as never;
  });
}
