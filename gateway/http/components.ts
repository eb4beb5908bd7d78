/**
 * The API's named schemas: every resource the API serves is one schema with an id, registered with
 * Fastify (`app.addSchema`) and referenced by `$ref`, so the OpenAPI document lists it under
 * `components.schemas` and the SDK exports a type of that name (tools/sdk-openapi.ts). Each carries
 * an example; the examples of whole responses are composed from them ({@link exampleOf}).
 */

type Schema = Record<string, unknown>;

/** A `$ref` to a named schema (what route and resource schemas embed). */
export interface Ref {
  readonly $ref: string;
}

interface Component {
  schema: Schema;
  example: unknown;
}

const COMPONENTS = new Map<string, Component>();

/**
 * Names `schema` `id` with `example` (shown in the document and composed into the examples of the
 * responses that carry it) and returns the `$ref` to embed. Ids are unique across the API.
 */
export function component(id: string, schema: object, example: unknown): Ref {
  if (COMPONENTS.has(id)) throw new Error(`schema ${id} is named twice`);
  COMPONENTS.set(id, { schema: schema as Schema, example });
  return { $ref: `${id}#` };
}

/** The id a `$ref` names (`Provider#` -> `Provider`), or undefined for another schema. */
export function refId(schema: unknown): string | undefined {
  const ref = (schema as Partial<Ref> | null)?.$ref;
  return typeof ref === "string" ? ref.replace(/#.*$/, "") : undefined;
}

/** The schema named `id` as registered (throws for an unknown id). */
export function componentSchema(id: string): Schema {
  const found = COMPONENTS.get(id);
  if (found === undefined) throw new Error(`no schema named ${id}`);
  return found.schema;
}

/** Every named schema, as `app.addSchema` takes it (with `$id` and its example). */
export function componentSchemas(): Schema[] {
  return [...COMPONENTS].map(([id, { schema, example }]) => ({ $id: id, ...schema, examples: [example] }));
}

/**
 * An example of a value of `schema`: a named schema's own example; else the schema's first
 * `examples` entry, its `const`, or one composed from its properties or items. A leaf without any of
 * these is a mistake in the schema (every leaf the document shows has an example): it throws,
 * naming where.
 */
export function exampleOf(schema: unknown, where = "schema"): unknown {
  const s = schema as Schema;
  const id = refId(s);
  if (id !== undefined) {
    const found = COMPONENTS.get(id);
    if (found === undefined) throw new Error(`${where}: no schema named ${id}`);
    return found.example;
  }
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if ("const" in s) return s.const;
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = s[key] as unknown[] | undefined;
    if (options !== undefined) {
      const first = options.find((o) => (o as Schema).type !== "null") ?? options[0];
      return exampleOf(first, where);
    }
  }
  if (Array.isArray(s.enum)) return s.enum[0];
  const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
  if (types.includes("object") && s.properties !== undefined) {
    return Object.fromEntries(
      Object.entries(s.properties as Record<string, unknown>).map(([name, property]) => [
        name,
        exampleOf(property, `${where}.${name}`),
      ]),
    );
  }
  if (types.includes("array") && s.items !== undefined) return [exampleOf(s.items, `${where}[]`)];
  if (types.includes("null")) return null;
  if (types.includes("boolean")) return true;
  throw new Error(`${where}: no example (give the schema \`examples\`)`);
}

/** `schema` with `example` as its first example. */
export function withExample<T extends object>(schema: T, example: unknown): T & { examples: unknown[] } {
  return { ...schema, examples: [example] };
}
