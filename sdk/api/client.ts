import createClient from "openapi-fetch";
import type { Client } from "openapi-fetch";

import { BaseError } from "../errors.js";
import type { paths } from "./openapi.js";

/** The gateway's HTTP API, typed from its OpenAPI document (`sdk/api/openapi.ts`, generated). */
export type ApiPaths = paths;

/** A typed client of the gateway's HTTP API (`client.GET("/v1/redemptions/{id}", { params: { path: { id } } })`). */
export type ApiClient = Client<paths>;

export interface CreateApiClientParameters {
  /** The gateway's URL, e.g. `http://127.0.0.1:8080` (paths carry their prefix, `/api/v1` or `/v1`). */
  baseUrl: string;
  /** An API key: sent as `Authorization: Bearer <key>`. */
  apiKey?: string;
  /** Another `fetch` (tests, a proxy); default: the platform's. */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers sent with every request (e.g. a portal's CSRF header). */
  headers?: Record<string, string>;
}

/**
 * A typed client of the gateway's HTTP API on `openapi-fetch` (the platform's `fetch`, so it runs in
 * Node and in the browser). Every path, parameter, body and answer is typed from the gateway's own
 * OpenAPI document.
 *
 * @example
 * const api = createApiClient({ baseUrl: "http://127.0.0.1:8080", apiKey });
 * const redemption = unwrap(await api.GET("/v1/redemptions/{id}", { params: { path: { id: "1" } } }));
 */
export function createApiClient({ baseUrl, apiKey, fetch, headers }: CreateApiClientParameters): ApiClient {
  const all = { ...headers, ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }) };
  return createClient<paths>({
    baseUrl,
    ...(fetch === undefined ? {} : { fetch }),
    ...(Object.keys(all).length === 0 ? {} : { headers: all }),
  });
}

/** The API's error envelope: `{success: false, error: {code, message, details}}`. */
export interface ApiErrorBody {
  success: false;
  error: { code: string; message: string; details: Record<string, unknown> };
}

/** An answer of the API that is not a success: the spec's error code, message and details. */
export class ApiResponseError extends BaseError {
  override name = "ApiResponseError";
  /** The HTTP status. */
  readonly status: number;
  /** The spec's error code (`invalid_parameter`, `authentication_error`, ...). */
  readonly code: string;
  /** The envelope's `details` (for a revert: `revert` and `args`). */
  readonly body: ApiErrorBody["error"] | undefined;

  constructor(status: number, error: ApiErrorBody["error"] | undefined) {
    super(error?.message ?? `HTTP ${status}`, { details: error === undefined ? "" : JSON.stringify(error.details) });
    this.status = status;
    this.code = error?.code ?? "internal_error";
    this.body = error;
  }
}

/**
 * The `data` of a successful answer (`{success: true, data}`), or an {@link ApiResponseError}.
 *
 * @example
 * const { redemption_id } = unwrap(await api.POST("/v1/redemptions", { body }));
 */
export function unwrap<T>(result: { data?: { success: true; data: T }; error?: unknown; response: Response }): T {
  if (result.data !== undefined && result.response.ok) return result.data.data;
  throw new ApiResponseError(result.response.status, (result.error as ApiErrorBody | undefined)?.error);
}
