import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

import { componentSchemas } from "../../api/components.js";
import { documentRoute, finishDocument, openApiOptions } from "../document.js";
import { operationIdOf } from "../operations.js";

export interface OpenApiOptions {
  /** Whether every POST honours Idempotency-Key (the store is there): the document says so. */
  idempotency: boolean;
}

/**
 * The OpenAPI 3.1 document (served per prefix at `openapi.json` by routes/index.ts) and the docs page
 * at `/docs`: the named schemas (every resource, the error envelope, the webhook events), and on
 * every route registered after this plugin its stable operationId, and a refusal of any query
 * parameter where the route takes none (an unknown filter is an error, not ignored).
 */
export const openApi = fp(async (app: FastifyInstance, options: OpenApiOptions) => {
  for (const schema of componentSchemas()) app.addSchema(schema);
  await app.register(swagger, {
    openapi: openApiOptions() as never,
    // the headers each route really uses, in the document only (every POST honours Idempotency-Key
    // when the store is there: plugins/idempotency.ts)
    transform: documentRoute(options.idempotency) as never,
    transformObject: finishDocument as never,
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (json.$id as string | undefined) ?? `def-${i}` },
  });
  await app.register(swaggerUi, { routePrefix: "/docs", uiConfig: { docExpansion: "list" } });
  app.addHook("onRoute", (route) => {
    if (route.url === "/graphql") return; // documented by the GraphQL plugin (graphql.ts)
    const schema = route.schema as { querystring?: unknown; hide?: boolean } | undefined;
    if (schema !== undefined && !schema.hide && schema.querystring === undefined) {
      schema.querystring = { type: "object", additionalProperties: false, properties: {} };
    }
    if (schema !== undefined && !schema.hide && route.method !== "HEAD") {
      // a copy: two routes may share one schema object (/providers and /providers/list do)
      route.schema = { ...schema, operationId: operationIdOf(route.method as string, route.url) };
    }
  });
});
