import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { GraphQLFormattedError, SourceLocation } from "graphql";
import mercurius from "mercurius";

import { ERROR_STATUS, errorSchema, invalidParameter } from "../../api/errors.js";
import type { ErrorCode } from "../../api/errors.js";
import { EXAMPLE, errors as errorResponses } from "../../api/schemas.js";
import { resolvers, typeDefs } from "../../graphql/schema.js";
import type { ActivitySource } from "../../graphql/schema.js";
import type { Logger } from "../../observability/log.js";
import type { ReadModel } from "../../store/queries.js";
import { operationIdOf } from "../operations.js";
import { toApiError } from "./errors.js";

export interface GraphqlOptions {
  model: ReadModel;
  activity: ActivitySource;
  logger: Logger;
}

/** Whether a request is GraphQL's (before routing: by its URL). */
export function isGraphql(request: FastifyRequest): boolean {
  return request.url === "/graphql" || request.url.startsWith("/graphql?");
}

/**
 * GraphQL at `/graphql` (mercurius): the same credentials, limits and error codes as the HTTP API,
 * documented in the OpenAPI document like the other routes.
 */
export const graphql = fp(async (app: FastifyInstance, options: GraphqlOptions) => {
  app.addHook("onRoute", (route) => {
    if (route.url !== "/graphql") return;
    const graphqlFailure = {
      type: "object",
      // request-level failures (auth, limits, malformed documents) also carry the envelope;
      // failures while executing a valid document carry GraphQL's `errors` with the code
      required: ["errors"],
      properties: { ...errorSchema.properties, data: { type: "null" }, errors: graphqlErrors },
    };
    const querystring = (route.schema as { querystring?: { properties?: Record<string, object> } } | undefined)
      ?.querystring;
    route.schema = {
      ...route.schema,
      ...(querystring?.properties === undefined
        ? {}
        : {
            querystring: {
              ...querystring,
              properties: Object.fromEntries(
                Object.entries(querystring.properties).map(([name, property]) => [
                  name,
                  { ...property, description: GRAPHQL_QUERY_PARAMETERS[name] ?? `GraphQL's \`${name}\`` },
                ]),
              ),
            },
          }),
      tags: ["graphql"],
      summary: "GraphQL: provider(id), marketplaceActivity(limit) and claimableBalances(account)",
      description:
        "The spec's GraphQL endpoint with the same credentials as the HTTP API: `{query, variables}` as a JSON " +
        "body (POST) or in the query string (GET). Queries only. Amounts are Float whole tokens and, exactly, " +
        "String base units (`…BaseUnits`).",
      ...(route.method === "HEAD" ? {} : { operationId: operationIdOf(route.method as string, route.url) }),
      response: {
        200: {
          type: "object",
          description: "The query's data (and `errors` for the fields that failed)",
          required: ["data"],
          properties: { data: { type: ["object", "null"], additionalProperties: true }, errors: graphqlErrors },
          examples: [{ data: { provider: { id: EXAMPLE.provider, name: "Acme Compute", reputation: 87.5 } } }],
        },
        ...Object.fromEntries(
          (Object.entries(ERROR_STATUS) as Array<[ErrorCode, number]>).map(([code, status]) => [
            status,
            {
              ...graphqlFailure,
              description: `${code}: the request failed before or while running the query`,
              examples: [
                {
                  ...(errorResponses[status as keyof typeof errorResponses].examples[0] as object),
                  data: null,
                  errors: [{ message: "failed", extensions: { code, details: {} } }],
                },
              ],
            },
          ]),
        ),
      },
    };
  });

  await app.register(mercurius, {
    schema: typeDefs,
    resolvers: resolvers(options.model, options.activity) as never,
    graphiql: false,
    queryDepth: 8,
    errorHandler: async (error, _request, reply) => {
      const graphqlErrors = error as { code?: string; errors?: Array<{ message: string; locations?: unknown }> };
      const original = graphqlErrors.code === "MER_ERR_GQL_VALIDATION" ? graphqlErrors.errors : undefined;
      const api = Array.isArray(original)
        ? invalidParameter("query", original[0]?.message ?? "invalid GraphQL document")
        : toApiError(error, _request.log);
      // awaited until the response is written: mercurius's async wrapper sends `undefined` a second
      // time when it resolves while the reply is still in its onSend hooks
      await reply.code(api.statusCode).send({
        ...api.body(),
        data: null,
        errors: (original ?? [{ message: api.message }]).map((e) => graphqlError(e, api.code)),
      });
    },
    errorFormatter: (execution, context) => {
      const log = (context as { reply?: FastifyReply } | undefined)?.reply?.request.log ?? options.logger;
      const errors = (execution.errors ?? []).map((e) => {
        const api = toApiError((e as { originalError?: unknown }).originalError ?? e, log);
        return graphqlError({ message: api.message, locations: e.locations, path: e.path }, api.code, api.details);
      });
      const status = execution.data
        ? 200
        : Math.max(...errors.map((e) => ERROR_STATUS[e.extensions.code as ErrorCode] ?? 500));
      return { statusCode: status, response: { data: execution.data ?? null, errors } };
    },
  });
});

/** What the GET form of GraphQL takes in its query string. */
const GRAPHQL_QUERY_PARAMETERS: Record<string, string> = {
  query: "the GraphQL document (queries only)",
  variables: "the variables, as a JSON object",
  operationName: "which operation of the document to run",
  persisted: "not used: the gateway keeps no persisted queries",
  extensions: "GraphQL request extensions, as JSON (not used by the gateway)",
};

/** GraphQL's `errors`, with the API's error code in `extensions.code`. */
const graphqlErrors = {
  type: "array",
  items: {
    type: "object",
    required: ["message", "extensions"],
    properties: {
      message: { type: "string" },
      locations: { type: "array", items: { type: "object", additionalProperties: true } },
      path: { type: "array", items: { type: ["string", "integer"] } },
      extensions: {
        type: "object",
        required: ["code"],
        properties: { code: { type: "string" }, details: { type: "object", additionalProperties: true } },
      },
    },
  },
} as const;

function graphqlError(
  error: { message: string; locations?: unknown; path?: unknown },
  code: string,
  details: Record<string, unknown> = {},
): GraphQLFormattedError & { extensions: { code: string } } {
  return {
    message: error.message,
    ...(error.locations == null ? {} : { locations: error.locations as SourceLocation[] }),
    ...(error.path == null ? {} : { path: error.path as Array<string | number> }),
    extensions: { code, details },
  };
}
