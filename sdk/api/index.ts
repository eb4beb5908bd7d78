// The `./api` entry: the gateway's HTTP API, typed from its OpenAPI document, with retries,
// timeouts, idempotency keys, typed errors and auto-pagination.
export { createApiClient, unwrap } from "./client.js";
export type { ApiClient, ApiPaths, CreateApiClientParameters } from "./client.js";
export {
  API_ERROR_CODES,
  ApiAuthenticationError,
  ApiAuthorizationError,
  ApiConnectionError,
  ApiInternalError,
  ApiInvalidParameterError,
  ApiNotFoundError,
  ApiRateLimitError,
  ApiResponseError,
  REQUEST_ID_HEADER,
  apiErrorOf,
} from "./errors.js";
export type { ApiErrorBody, ApiErrorCode, ApiResponseErrorOptions } from "./errors.js";
export { paginate } from "./paginate.js";
export type { PagedItem, PagedPath, PagedQuery, PaginateInit } from "./paginate.js";
export { IDEMPOTENCY_KEY_HEADER, backoffMs, createRetryingFetch, retryAfterMs } from "./transport.js";
export type { RetryOptions } from "./transport.js";
// the API's named schemas and the webhook events, generated from the gateway's OpenAPI document
export type * from "./schemas.js";
