/**
 * Figures of an OpenAPI document: how much of the contract it states (issue 25). `npm run
 * openapi:figures [file]` prints them for the gateway's document (built in-process) or for a saved
 * one, so a change to the document can quote them before and after; the document's test asserts the
 * completeness they measure.
 */

type Json = Record<string, unknown>;

const METHODS = ["get", "put", "post", "delete", "patch", "options", "head", "trace"] as const;

/** One operation of the document, with where it is. */
export interface OperationEntry {
  path: string;
  method: string;
  operation: Json;
  /** `paths` or `webhooks`. */
  section: "paths" | "webhooks";
}

/** Every operation under `paths` and `webhooks`. */
export function operationsOf(document: Json): OperationEntry[] {
  const entries: OperationEntry[] = [];
  for (const section of ["paths", "webhooks"] as const) {
    for (const [path, item] of Object.entries((document[section] ?? {}) as Record<string, Json>)) {
      for (const method of METHODS) {
        const operation = item[method] as Json | undefined;
        if (operation !== undefined) entries.push({ path, method, operation, section });
      }
    }
  }
  return entries;
}

const responsesOf = (operation: Json) => Object.entries((operation.responses ?? {}) as Record<string, Json>);
const mediaOf = (response: Json) => Object.values((response.content ?? {}) as Record<string, Json>);
const hasExample = (response: Json) => {
  const media = mediaOf(response);
  return media.length > 0 && media.every((m) => m.example !== undefined || m.examples !== undefined);
};
const headerNames = (response: Json) => Object.keys((response.headers ?? {}) as Json).map((h) => h.toLowerCase());
const parametersOf = (operation: Json) => (operation.parameters ?? []) as Json[];

/** The figures the issue names, and a few that explain them. */
export interface OpenApiFigures {
  /** Named schemas under `components.schemas`. */
  namedSchemas: number;
  /** Operations under `paths`. */
  operations: number;
  operationsWithDescription: number;
  /** Operations whose every response that has a body shows an example of it. */
  operationsWithExamples: number;
  responses: number;
  responsesWithExample: number;
  /** Responses still described "Default Response" (Fastify's filler). */
  responsesDescribedByDefault: number;
  parameters: number;
  parametersWithDescription: number;
  /** Operations that document at least one response header. */
  operationsDocumentingHeaders: number;
  /** Response header entries over every response of every operation. */
  documentedResponseHeaders: number;
  /** How many operations document each header on some response (lower-case names). */
  headerCoverage: Record<string, number>;
  posts: number;
  postsDeclaringIdempotencyKey: number;
  /** Events in the `webhooks` section. */
  webhookEvents: number;
  /** `$ref`s to named schemas from the operations (paths and webhooks). */
  schemaRefs: number;
}

export function figuresOf(document: Json): OpenApiFigures {
  const all = operationsOf(document);
  const ops = all.filter((o) => o.section === "paths");
  const responses = ops.flatMap((o) => responsesOf(o.operation).map(([, r]) => r));
  const withBody = responses.filter((r) => mediaOf(r).length > 0);
  const parameters = ops.flatMap((o) => parametersOf(o.operation));
  const headerCoverage: Record<string, number> = {};
  for (const { operation } of ops) {
    const names = new Set(responsesOf(operation).flatMap(([, r]) => headerNames(r)));
    for (const name of names) headerCoverage[name] = (headerCoverage[name] ?? 0) + 1;
  }
  const posts = ops.filter((o) => o.method === "post");
  const refs = JSON.stringify(all.map((o) => o.operation)).match(/"#\/components\/schemas\/[^"]+"/g) ?? [];
  return {
    namedSchemas: Object.keys(((document.components as Json | undefined)?.schemas ?? {}) as Json).length,
    operations: ops.length,
    operationsWithDescription: ops.filter((o) => typeof o.operation.description === "string").length,
    operationsWithExamples: ops.filter((o) =>
      responsesOf(o.operation).every(([, r]) => mediaOf(r).length === 0 || hasExample(r)),
    ).length,
    responses: responses.length,
    responsesWithExample: withBody.filter(hasExample).length,
    responsesDescribedByDefault: responses.filter((r) => r.description === "Default Response").length,
    parameters: parameters.length,
    parametersWithDescription: parameters.filter((p) => typeof p.description === "string" && p.description !== "")
      .length,
    operationsDocumentingHeaders: ops.filter((o) => responsesOf(o.operation).some(([, r]) => headerNames(r).length > 0))
      .length,
    documentedResponseHeaders: responses.reduce((n, r) => n + headerNames(r).length, 0),
    headerCoverage: Object.fromEntries(Object.entries(headerCoverage).sort(([a], [b]) => a.localeCompare(b))),
    posts: posts.length,
    postsDeclaringIdempotencyKey: posts.filter((o) =>
      parametersOf(o.operation).some((p) => p.in === "header" && String(p.name).toLowerCase() === "idempotency-key"),
    ).length,
    webhookEvents: Object.keys((document.webhooks ?? {}) as Json).length,
    schemaRefs: refs.length,
  };
}

/** The figures as the lines of a Markdown table (`| figure | value |`). */
export function figuresTable(figures: OpenApiFigures, before?: OpenApiFigures): string {
  const rows: Array<[string, (f: OpenApiFigures) => string]> = [
    ["named schemas (components.schemas)", (f) => String(f.namedSchemas)],
    ["operations", (f) => String(f.operations)],
    ["operations with a description", (f) => String(f.operationsWithDescription)],
    ["operations with an example on every response", (f) => String(f.operationsWithExamples)],
    ["responses with an example", (f) => `${f.responsesWithExample} of ${f.responses}`],
    ['responses described "Default Response"', (f) => String(f.responsesDescribedByDefault)],
    ["parameters with a description", (f) => `${f.parametersWithDescription} of ${f.parameters}`],
    ["operations documenting response headers", (f) => String(f.operationsDocumentingHeaders)],
    ["documented response headers (entries)", (f) => String(f.documentedResponseHeaders)],
    [
      "… of which X-Request-Id / X-RateLimit-Limit / Retry-After / Idempotent-Replayed (operations)",
      (f) =>
        ["x-request-id", "x-ratelimit-limit", "retry-after", "idempotent-replayed"]
          .map((h) => f.headerCoverage[h] ?? 0)
          .join(" / "),
    ],
    ["POSTs declaring Idempotency-Key", (f) => `${f.postsDeclaringIdempotencyKey} of ${f.posts}`],
    ["events in the webhooks section", (f) => String(f.webhookEvents)],
    ["$refs to named schemas from operations", (f) => String(f.schemaRefs)],
  ];
  const header = before === undefined ? "| figure | value |\n|---|---|" : "| figure | before | after |\n|---|---|---|";
  return [
    header,
    ...rows.map(([name, value]) =>
      before === undefined ? `| ${name} | ${value(figures)} |` : `| ${name} | ${value(before)} | ${value(figures)} |`,
    ),
  ].join("\n");
}
