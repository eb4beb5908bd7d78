import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";

import { invalidParameter } from "../../api/errors.js";
import { FREE_TEXT, textProblemIn } from "../../api/text.js";
import { isGraphql } from "./graphql.js";

/** Deepest nesting of arrays and objects a JSON body may have. */
export const MAX_JSON_DEPTH = 32;

/**
 * What no route's schema says: JSON bodies only, nested at most MAX_JSON_DEPTH deep; no control
 * character or lone surrogate in any string of the query, the path or the body (GraphQL's variables
 * too); numbers in the query and the path written in decimal and finite; GraphQL's body shaped as
 * the spec says. Refused before the schema, the handler or the database sees them.
 */
export const inputGuards = fp(async (app: FastifyInstance) => {
  // JSON only: a text/plain body is refused as a wrong content type, not parsed as a string
  app.removeContentTypeParser("text/plain");
  // Fastify's own JSON parser (prototype-poisoning checks included), then a depth limit: a small
  // body nested thousands deep would otherwise overflow the stack of whatever walks it later
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    parseJson(request, body as string, (error: Error | null, value?: unknown) => {
      if (error !== null) return done(error, undefined);
      if (nestedDeeperThan(value, MAX_JSON_DEPTH)) {
        return done(invalidParameter("body", `is nested deeper than ${MAX_JSON_DEPTH} levels`), undefined);
      }
      done(null, value);
    });
  });
  app.addHook("preValidation", (request, _reply, done) => {
    try {
      refuseControlCharacters(request);
      refuseOddNumbers(request);
    } catch (error) {
      return done(error as Error);
    }
    done();
  });
});

/** Whether `value` nests arrays or objects deeper than `limit` (iterative: any depth is safe to ask). */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== "object") continue;
    if (depth + 1 > limit) return true;
    for (const child of Object.values(item as Record<string, unknown>)) stack.push([child, depth + 1]);
  }
  return false;
}

// control characters and lone surrogates in any string of the query, the path or the body (and
// GraphQL's variables): refused before the schema, the handler or the database sees them
function refuseControlCharacters(request: FastifyRequest): void {
  const graphql = isGraphql(request);
  const bodySchema = (request.routeOptions.schema as { body?: { properties?: Record<string, object> } } | undefined)
    ?.body;
  const freeBodyFields = new Set(
    graphql
      ? ["query"]
      : Object.entries(bodySchema?.properties ?? {})
          .filter(([, property]) => (property as Record<string, unknown>)[FREE_TEXT] === true)
          .map(([name]) => name),
  );
  let variables: unknown;
  if (graphql && request.method === "GET") {
    const text = (request.query as Record<string, unknown> | undefined)?.variables;
    try {
      variables = typeof text === "string" ? { variables: JSON.parse(text) } : undefined;
    } catch {
      variables = undefined; // not JSON: GraphQL refuses it
    }
  }
  const problem =
    textProblemIn(request.query, graphql ? new Set(["query"]) : undefined) ??
    textProblemIn(request.params) ??
    textProblemIn(request.body, freeBodyFields) ??
    textProblemIn(variables);
  if (problem !== undefined) throw invalidParameter(problem.parameter, problem.reason);
}

// Ajv's coercion takes "0x10" for 16 and "1e400" for a non-number without an error: numbers in
// the query and the path must be written in decimal (integers without a fraction or exponent)
// and be finite, before the schema checks their range
function refuseOddNumbers(request: FastifyRequest): void {
  if (isGraphql(request)) {
    // the spec's body: {query: string, variables: object}; anything else never reaches GraphQL
    const body = (request.method === "POST" ? request.body : request.query) as Record<string, unknown> | null;
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      throw invalidParameter("body", "must be a JSON object with a query string");
    }
    if (typeof body.query !== "string" || body.query.trim() === "")
      throw invalidParameter("query", "must be a GraphQL document");
    const variables = body.variables;
    if (
      request.method === "POST" &&
      variables !== undefined &&
      variables !== null &&
      (typeof variables !== "object" || Array.isArray(variables))
    ) {
      throw invalidParameter("variables", "must be an object");
    }
    return;
  }
  const schema = request.routeOptions.schema as
    | {
        querystring?: { properties?: Record<string, { type?: string }> };
        params?: { properties?: Record<string, { type?: string }> };
      }
    | undefined;
  for (const [values, properties] of [
    [request.query, schema?.querystring?.properties],
    [request.params, schema?.params?.properties],
  ] as const) {
    if (properties === undefined || values === undefined || values === null) continue;
    for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
      const type = properties[name]?.type;
      if (typeof value !== "string" || (type !== "number" && type !== "integer")) continue;
      const decimal = type === "integer" ? /^-?\d+$/ : /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
      if (!decimal.test(value))
        throw invalidParameter(name, `must be ${type === "integer" ? "an integer" : "a number"} in decimal`);
      if (!Number.isFinite(Number(value))) throw invalidParameter(name, "must be a finite number");
    }
  }
}
