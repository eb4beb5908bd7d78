/**
 * Text the API accepts in any string parameter (path, query, JSON body, GraphQL variables): no
 * control character (Unicode's category Cc: U+0000-U+001F, U+007F-U+009F) and well-formed Unicode
 * (no lone surrogate). PostgreSQL refuses U+0000 in text and jsonb and a lone surrogate's escape in
 * jsonb, so such a value would otherwise reach the database and fail as an internal error; the
 * other controls have no place in an id, a filter, a chain name or a URL, and would reach the logs.
 *
 * Free text (a dispute's description and evidence, a GraphQL document) may also hold tab, line
 * feed and carriage return, which multi-line text needs; every other control is refused there too.
 * A body field is free text when its schema says `"x-free-text": true` (shown in the OpenAPI
 * document). Names (object keys) are never free text.
 */

/** The schema keyword that marks a body field as free text. */
export const FREE_TEXT = "x-free-text";

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROL_IN_FREE_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export interface TextProblem {
  /** The parameter as `details.parameter` names it: `location`, `cu_id`, `evidence.logs.0`. */
  parameter: string;
  reason: string;
}

/** What is wrong with one string, or undefined. */
export function stringProblem(value: string, freeText: boolean): string | undefined {
  const control = (freeText ? CONTROL_IN_FREE_TEXT : CONTROL).exec(value);
  if (control !== null) {
    const code = `U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
    return freeText
      ? `must not contain control characters other than tab, line feed and carriage return (found ${code})`
      : `must not contain control characters (found ${code})`;
  }
  if (LONE_SURROGATE.test(value)) return "is not well-formed Unicode (it holds a lone surrogate)";
  return undefined;
}

/** A name as it can be shown: control characters and lone surrogates escaped as JSON does. */
function printable(name: string): string {
  return stringProblem(name, false) === undefined ? name : JSON.stringify(name).slice(1, -1);
}

/**
 * The first string inside `values` (an object of named parameters: a query, path parameters, a
 * JSON body) that is not acceptable text, with its dotted path. `freeText` names the top-level
 * entries whose strings (at any depth) may hold tab, line feed and carriage return.
 */
export function textProblemIn(values: unknown, freeText: ReadonlySet<string> = new Set()): TextProblem | undefined {
  if (values === null || values === undefined) return undefined;
  if (typeof values === "string") {
    const reason = stringProblem(values, false);
    return reason === undefined ? undefined : { parameter: "body", reason };
  }
  if (typeof values !== "object") return undefined;
  const stack: Array<[unknown, string, boolean]> = Object.entries(values as Record<string, unknown>)
    .reverse()
    .map(([name, value]) => [value, name, freeText.has(name)]);
  // the top level's names first: a bad name is reported as itself
  for (const name of Object.keys(values as Record<string, unknown>)) {
    const reason = stringProblem(name, false);
    if (reason !== undefined) return { parameter: printable(name), reason: `(the name) ${reason}` };
  }
  while (stack.length > 0) {
    const [value, path, free] = stack.pop()!;
    if (typeof value === "string") {
      const reason = stringProblem(value, free);
      if (reason !== undefined) return { parameter: path, reason };
    } else if (value !== null && typeof value === "object") {
      const entries = Object.entries(value as Record<string, unknown>);
      for (const [name] of entries) {
        const reason = stringProblem(name, false);
        if (reason !== undefined) return { parameter: `${path}.${printable(name)}`, reason: `(the name) ${reason}` };
      }
      for (const [name, child] of entries.reverse()) stack.push([child, `${path}.${name}`, free]);
    }
  }
  return undefined;
}
