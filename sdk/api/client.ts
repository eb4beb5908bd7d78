import createClient from "openapi-fetch";
import type { Client } from "openapi-fetch";

import { apiErrorOf } from "./errors.js";
import type { paths } from "./openapi.js";
import { createRetryingFetch } from "./transport.js";
import type { RetryOptions } from "./transport.js";

/** The gateway's HTTP API, typed from its OpenAPI document (`sdk/api/openapi.ts`, generated). */
export type ApiPaths = paths;

/** A typed client of the gateway's HTTP API (`client.GET("/v1/redemptions/{id}", { params: { path: { id } } })`). */
export type ApiClient = Client<paths>;

export interface CreateApiClientParameters extends RetryOptions {
  /** The gateway's URL, e.g. `http://127.0.0.1:8080` (paths carry their prefix, `/api/v1` or `/v1`). */
  baseUrl: string;
  /** An API key: sent as `Authorization: Bearer <key>`. */
  apiKey?: string;
  /** Another `fetch` under the retries (tests, a proxy); default: the platform's. */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers sent with every request (e.g. a portal's CSRF header). */
  headers?: Record<string, string>;
}

/**
 * A typed client of the gateway's HTTP API on `openapi-fetch` (the platform's `fetch`, so it runs in
 * Node and in the browser). Every path, parameter, body and answer is typed from the gateway's own
 * OpenAPI document. Under it, the transport Stripe's library has (`transport.ts`): connection
 * failures, timeouts, 429 and 5xx are retried (`maxRetries`, default 2) after the server's
 * `Retry-After` or an exponential, jittered backoff; each attempt times out after `timeoutMs`
 * (default 30 s); every POST carries an `Idempotency-Key` (given, or generated and reused by its
 * retries). `unwrap` turns a failed answer into a typed error; `paginate` iterates a paged list.
 *
 * @example
 * const api = createApiClient({ baseUrl: "http://127.0.0.1:8080", apiKey, maxRetries: 3, timeoutMs: 10_000 });
 * const redemption = unwrap(await api.GET("/v1/redemptions/{redemptionId}", { params: { path: { redemptionId: 1 } } }));
 */
export function createApiClient({ baseUrl, apiKey, fetch, headers, ...retry }: CreateApiClientParameters): ApiClient {
  const all = { ...headers, ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }) };
  return createClient<paths>({
    baseUrl,
    fetch: createRetryingFetch(retry, fetch),
    ...(Object.keys(all).length === 0 ? {} : { headers: all }),
  });
}

/**
 * The `data` of a successful answer (`{success: true, data}`), or the typed error of its code
 * (`ApiInvalidParameterError`, `ApiAuthenticationError`, `ApiAuthorizationError`,
 * `ApiNotFoundError`, `ApiRateLimitError`, `ApiInternalError`: all `ApiResponseError`s, with the
 * code, message, details, status and request id).
 *
 * @example
 * const { redemption_id } = unwrap(await api.POST("/v1/redemptions", { body }));
 */
export function unwrap<T>(result: { data?: { success: true; data: T }; error?: unknown; response: Response }): T {
  if (result.data !== undefined && result.response.ok) return result.data.data;
  throw apiErrorOf(result.response, result.error);
}
