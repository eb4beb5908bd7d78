// `npm run docs:api`: docs/api-reference.md, the HTTP API's reference, generated from the OpenAPI
// document the gateway serves (gateway/http/openapi.ts builds it in-process, no chain), so the
// routes, their parameters and their answers are never restated by hand.
import prettier from "prettier";

import { openApiDocument } from "../gateway/http/openapi.js";
import { githubSlug } from "./markdown-links.js";

/** Where the generated reference lives (committed). */
export const API_REFERENCE_FILE = "docs/api-reference.md";

/** The part of a JSON schema the reference reads. */
interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  description?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  "x-free-text"?: boolean;
  additionalProperties?: boolean | Schema;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
}

/** The part of an OpenAPI 3.1 document the reference reads. */
export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema>; securitySchemes?: Record<string, unknown> };
}

const METHODS = ["get", "put", "post", "delete", "patch"];
const REFERENCE_PREFIX = "/api/v1";
const SHORT_PREFIX = "/v1";

/** Markdown table cell text: pipes escaped, line breaks flattened. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
}

function code(text: string): string {
  return "`" + text.replace(/`/g, "'") + "`";
}

function resolve(document: OpenApiDocument, schema: Schema): Schema {
  if (schema.$ref === undefined) return schema;
  const name = schema.$ref.replace("#/components/schemas/", "");
  return document.components?.schemas?.[name] ?? schema;
}

/** A schema's type in a few characters: `string`, `integer`, `"a" \| "b"`, `object[]`, `string \| null`. */
function typeOf(document: OpenApiDocument, raw: Schema): string {
  if (raw.$ref !== undefined) return raw.$ref.replace("#/components/schemas/", "");
  const variants = raw.anyOf ?? raw.oneOf;
  if (variants !== undefined) return [...new Set(variants.map((v) => typeOf(document, v)))].join(" | ");
  if (raw.enum !== undefined) return raw.enum.map((value) => JSON.stringify(value)).join(" | ");
  if (raw.type === "array") return `${raw.items === undefined ? "unknown" : typeOf(document, raw.items)}[]`;
  if (Array.isArray(raw.type)) return raw.type.join(" | ");
  return raw.type ?? "any";
}

/** A schema's constraints as words: pattern, bounds, lengths, default, free text. */
function constraintsOf(schema: Schema): string[] {
  const words: string[] = [];
  if (schema.pattern !== undefined) words.push(`pattern ${code(schema.pattern)}`);
  if (schema.minimum !== undefined) words.push(`min ${schema.minimum}`);
  if (schema.exclusiveMinimum !== undefined) words.push(`above ${schema.exclusiveMinimum}`);
  if (schema.maximum !== undefined) words.push(`max ${schema.maximum}`);
  if (schema.minLength !== undefined) words.push(`min length ${schema.minLength}`);
  if (schema.maxLength !== undefined) words.push(`max length ${schema.maxLength}`);
  if (schema.minItems !== undefined) words.push(`min items ${schema.minItems}`);
  if (schema.maxItems !== undefined) words.push(`max items ${schema.maxItems}`);
  if (schema.default !== undefined) words.push(`default ${code(JSON.stringify(schema.default))}`);
  if (schema["x-free-text"] === true) words.push("free text (tab, line feed, carriage return allowed)");
  return words;
}

function describe(schema: Schema): string {
  return [schema.description, ...constraintsOf(schema)].filter((part) => part !== undefined && part !== "").join("; ");
}

/** The object a schema describes, if any: the schema itself, an array's items, or the object variant of an `anyOf`. */
function objectOf(document: OpenApiDocument, raw: Schema): Schema | undefined {
  const schema = resolve(document, raw);
  if (schema.properties !== undefined) return schema;
  if (schema.type === "array" && schema.items !== undefined) return objectOf(document, schema.items);
  for (const variant of schema.anyOf ?? schema.oneOf ?? []) {
    const found = objectOf(document, variant);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** One row per field, nested fields by their dotted path (`lease.renewals[].expires_at`). */
function fieldRows(document: OpenApiDocument, raw: Schema, prefix = "", depth = 0): string[] {
  const object = objectOf(document, raw);
  if (object?.properties === undefined || depth > 5) return [];
  const required = new Set(object.required ?? []);
  const rows: string[] = [];
  for (const [name, property] of Object.entries(object.properties)) {
    const field = prefix + name;
    const resolved = resolve(document, property);
    rows.push(
      `| ${code(field)} | ${cell(code(typeOf(document, property)))} | ${required.has(name) ? "yes" : "no"} | ${cell(describe(resolved))} |`,
    );
    const isArray = resolved.type === "array";
    rows.push(...fieldRows(document, property, `${field}${isArray ? "[]" : ""}.`, depth + 1));
  }
  return rows;
}

function fieldTable(document: OpenApiDocument, schema: Schema): string[] {
  const rows = fieldRows(document, schema);
  if (rows.length === 0) return [`${code(typeOf(document, schema))}`, ""];
  return ["| field | type | required | notes |", "| --- | --- | --- | --- |", ...rows, ""];
}

function jsonSchema(content: Record<string, { schema?: Schema }> | undefined): Schema | undefined {
  return content?.["application/json"]?.schema;
}

/** The route with its prefix swapped: `/api/v1/x` -> `/v1/x`. */
function twinPath(route: string): string | undefined {
  if (route.startsWith(REFERENCE_PREFIX + "/")) return SHORT_PREFIX + route.slice(REFERENCE_PREFIX.length);
  return undefined;
}

function headingOf(method: string, route: string): string {
  return `${method.toUpperCase()} ${route}`;
}

/** The reference's Markdown (before formatting) for an OpenAPI document. */
export function renderApiReference(document: OpenApiDocument): string {
  const entries: { method: string; route: string; operation: Operation; twin?: Operation }[] = [];
  for (const [route, methods] of Object.entries(document.paths)) {
    if (route.startsWith(SHORT_PREFIX + "/")) continue; // shown with their /api/v1 twin
    for (const method of METHODS) {
      const operation = methods[method];
      if (operation === undefined) continue;
      const twinRoute = twinPath(route);
      const twin = twinRoute === undefined ? undefined : document.paths[twinRoute]?.[method];
      entries.push({ method, route, operation, twin });
    }
  }
  const declared = (document.tags ?? []).map((tag) => tag.name);
  const used = entries.flatMap((entry) => entry.operation.tags ?? ["other"]);
  const tags = [...new Set([...declared.filter((tag) => used.includes(tag)), ...used])];
  const tagDescription = new Map((document.tags ?? []).map((tag) => [tag.name, tag.description]));

  const lines: string[] = [
    "# HTTP API reference",
    "",
    "<!-- Generated by `npm run docs:api` (tools/api-reference.ts) from the gateway's OpenAPI document. Do not edit:",
    "change the route schemas in gateway/ and regenerate (tools/api-reference.test.ts fails while this file is stale). -->",
    "",
    `${document.info.title}, version ${document.info.version}. The guide to the API (keys, limits, errors, write`,
    "routes, verification) is [api.md](api.md); the running gateway serves this document at `/api/v1/openapi.json`",
    "and a browsable page at `/docs`.",
    "",
    document.info.description ?? "",
    "",
    "Every operation below is listed under `/api/v1`; the same route under `/v1` answers the same, with the",
    "operationId suffixed `Short`. Authentication: `Authorization: Bearer <key>` (or `?api_key=` for testing).",
    "Every operation may also answer the error envelope (`Error` below) with 400, 401, 403, 404, 429 or 500.",
    "",
    "## Contents",
    "",
  ];
  for (const tag of tags) {
    lines.push(
      `- **${tag}**: ` +
        entries
          .filter((entry) => (entry.operation.tags ?? ["other"])[0] === tag)
          .map((entry) => {
            const heading = headingOf(entry.method, entry.route);
            return `[${code(heading)}](#${githubSlug(heading)})`;
          })
          .join(", "),
    );
  }
  lines.push("", "");
  for (const tag of tags) {
    lines.push(`## ${tag}`, "");
    const description = tagDescription.get(tag);
    if (description !== undefined) lines.push(description, "");
    for (const { method, route, operation, twin } of entries.filter(
      (e) => (e.operation.tags ?? ["other"])[0] === tag,
    )) {
      lines.push(`### ${headingOf(method, route)}`, "");
      if (operation.summary !== undefined)
        lines.push(operation.summary + (operation.summary.endsWith(".") ? "" : "."), "");
      if (operation.description !== undefined) lines.push(operation.description, "");
      const ids = [`operationId ${code(operation.operationId ?? "-")}`];
      const twinRoute = twinPath(route);
      if (twin !== undefined && twinRoute !== undefined) {
        ids.push(`also ${code(headingOf(method, twinRoute))} (${code(twin.operationId ?? "-")})`);
      }
      lines.push(ids.join("; ") + ".", "");
      const parameters = operation.parameters ?? [];
      if (parameters.length > 0) {
        lines.push("| parameter | in | type | required | notes |", "| --- | --- | --- | --- | --- |");
        for (const parameter of parameters) {
          const schema = parameter.schema ?? {};
          const notes = [parameter.description, ...constraintsOf(schema)].filter((p) => p !== undefined && p !== "");
          lines.push(
            `| ${code(parameter.name)} | ${parameter.in} | ${cell(code(typeOf(document, schema)))} | ${parameter.required === true ? "yes" : "no"} | ${cell(notes.join("; "))} |`,
          );
        }
        lines.push("");
      }
      const body = jsonSchema(operation.requestBody?.content);
      if (body !== undefined) {
        lines.push(`Request body (JSON${operation.requestBody?.required === true ? "" : ", optional"}):`, "");
        lines.push(...fieldTable(document, body));
      }
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (!/^2/.test(status)) continue;
        const schema = jsonSchema(response.content);
        if (schema === undefined) {
          lines.push(`Answer ${status}: ${response.description ?? "no body"}.`, "");
          continue;
        }
        const resolved = resolve(document, schema);
        const data = resolved.properties?.data;
        lines.push(`Answer ${status}${data !== undefined ? ", `data`" : ""}:`, "");
        lines.push(...fieldTable(document, data ?? schema));
      }
      const errors = Object.keys(operation.responses ?? {}).filter((status) => !/^2/.test(status));
      if (errors.length > 0) lines.push(`Errors: ${errors.join(", ")}.`, "");
    }
  }
  const schemas = Object.entries(document.components?.schemas ?? {});
  if (schemas.length > 0) {
    lines.push("## Schemas", "");
    for (const [name, schema] of schemas) {
      lines.push(`### ${name}`, "");
      if (schema.description !== undefined) lines.push(schema.description, "");
      lines.push(...fieldTable(document, schema));
    }
  }
  return lines.join("\n");
}

/** The text of docs/api-reference.md: the gateway's document today, rendered and formatted by the project's prettier settings. */
export async function generateApiReference(root = process.cwd()): Promise<string> {
  const document = (await openApiDocument()) as unknown as OpenApiDocument;
  const file = `${root}/${API_REFERENCE_FILE}`;
  const options = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(renderApiReference(document), { ...options, filepath: file });
}
