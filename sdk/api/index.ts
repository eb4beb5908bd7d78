// The `./api` entry: the gateway's HTTP API, typed from its OpenAPI document.
export { ApiResponseError, createApiClient, unwrap } from "./client.js";
export type { ApiClient, ApiErrorBody, ApiPaths, CreateApiClientParameters } from "./client.js";
