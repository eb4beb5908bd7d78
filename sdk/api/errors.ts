import { BaseError } from "../errors.js";

/** The spec's error codes (SPEC.md "Error handling"), each with its HTTP status. */
export const API_ERROR_CODES = [
  "invalid_parameter",
  "authentication_error",
  "authorization_error",
  "resource_not_found",
  "rate_limit_exceeded",
  "internal_error",
] as const;

/** An error code of the API. */
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/** The API's error envelope: `{success: false, error: {code, message, details}}`. */
export interface ApiErrorBody {
  success: false;
  error: { code: ApiErrorCode; message: string; details: Record<string, unknown> };
}

/** The response header that carries the gateway's id of a request (quote it to the operator). */
export const REQUEST_ID_HEADER = "x-request-id";

/** What an {@link ApiResponseError} knows besides the status and the envelope. */
export interface ApiResponseErrorOptions {
  /** The response's `X-Request-Id`. */
  requestId?: string | undefined;
  cause?: unknown;
}

/**
 * An answer of the API that is not a success: the spec's `code`, the `message`, the envelope's
 * `details` (for a revert: `revert` and `args`), the HTTP `status` and the gateway's `requestId`.
 * Each code has its subclass (`ApiRateLimitError`, ...), so `instanceof` or `code` tells them apart.
 *
 * @example
 * try { unwrap(await api.GET("/v1/redemptions/{redemptionId}", { params: { path: { redemptionId: 7 } } })); }
 * catch (error) { if (error instanceof ApiNotFoundError) console.log(error.requestId); }
 */
export class ApiResponseError extends BaseError {
  override name = "ApiResponseError";
  /** The HTTP status. */
  readonly status: number;
  /** The spec's error code; `internal_error` for an answer without the envelope (a proxy's 502, say). */
  readonly code: ApiErrorCode;
  /** The envelope's `details` (empty when there is none). */
  readonly errorDetails: Record<string, unknown>;
  /** The response's `X-Request-Id`, when the gateway sent one. */
  readonly requestId: string | undefined;
  /** The envelope's `error` as sent, undefined for an answer without it. */
  readonly body: ApiErrorBody["error"] | undefined;

  constructor(status: number, error: ApiErrorBody["error"] | undefined, options: ApiResponseErrorOptions = {}) {
    super(error?.message ?? `HTTP ${status}`, {
      details: error === undefined ? "" : JSON.stringify(error.details),
      ...(options.requestId === undefined ? {} : { metaMessages: [`Request id: ${options.requestId}`] }),
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.status = status;
    this.code =
      error !== undefined && (API_ERROR_CODES as readonly string[]).includes(error.code)
        ? error.code
        : "internal_error";
    this.errorDetails = error?.details ?? {};
    this.requestId = options.requestId;
    this.body = error;
  }
}

/** `invalid_parameter` (400): `errorDetails.parameter` names the parameter, `errorDetails.reason` says why. */
export class ApiInvalidParameterError extends ApiResponseError {
  override name = "ApiInvalidParameterError";
}
/** `authentication_error` (401): no API key, or one that is unknown, revoked or expired. */
export class ApiAuthenticationError extends ApiResponseError {
  override name = "ApiAuthenticationError";
}
/** `authorization_error` (403): the key lacks the scope or the account's right. */
export class ApiAuthorizationError extends ApiResponseError {
  override name = "ApiAuthorizationError";
}
/** `resource_not_found` (404). */
export class ApiNotFoundError extends ApiResponseError {
  override name = "ApiNotFoundError";
}
/** `rate_limit_exceeded` (429), after the client's retries (each waited for `Retry-After`). */
export class ApiRateLimitError extends ApiResponseError {
  override name = "ApiRateLimitError";
}
/** `internal_error` (5xx), after the client's retries. */
export class ApiInternalError extends ApiResponseError {
  override name = "ApiInternalError";
}

const ERROR_CLASSES: Record<ApiErrorCode, typeof ApiResponseError> = {
  invalid_parameter: ApiInvalidParameterError,
  authentication_error: ApiAuthenticationError,
  authorization_error: ApiAuthorizationError,
  resource_not_found: ApiNotFoundError,
  rate_limit_exceeded: ApiRateLimitError,
  internal_error: ApiInternalError,
};

/** The code of a status when the answer has no envelope. */
function codeOfStatus(status: number): ApiErrorCode {
  if (status === 401) return "authentication_error";
  if (status === 403) return "authorization_error";
  if (status === 404) return "resource_not_found";
  if (status === 429) return "rate_limit_exceeded";
  if (status >= 400 && status < 500) return "invalid_parameter";
  return "internal_error";
}

/**
 * The typed error of a failed answer: the subclass of its code (from the envelope, else from the
 * status), with the response's request id.
 */
export function apiErrorOf(response: Response, body: unknown): ApiResponseError {
  const envelope = (body as Partial<ApiErrorBody> | undefined)?.error;
  const valid =
    envelope !== undefined &&
    typeof envelope === "object" &&
    (API_ERROR_CODES as readonly string[]).includes(envelope.code) &&
    typeof envelope.message === "string";
  const error = valid ? { ...envelope, details: envelope.details ?? {} } : undefined;
  const code = error?.code ?? codeOfStatus(response.status);
  const requestId = response.headers.get(REQUEST_ID_HEADER) ?? undefined;
  const ErrorClass = ERROR_CLASSES[code];
  return new ErrorClass(
    response.status,
    error ?? {
      code,
      message: `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`,
      details: {},
    },
    { requestId },
  );
}

/**
 * The request never got an answer: the connection failed, or the attempt outlived its timeout
 * (`timedOut`), on every attempt the client made.
 */
export class ApiConnectionError extends BaseError {
  override name = "ApiConnectionError";
  /** Whether the last attempt ran out of time (the client's `timeoutMs`). */
  readonly timedOut: boolean;
  /** How many attempts were made. */
  readonly attempts: number;

  constructor(url: string, options: { timedOut: boolean; attempts: number; cause?: unknown }) {
    const what = options.timedOut ? "timed out" : "could not connect";
    super(`The request to ${url} ${what} (${options.attempts} attempt${options.attempts === 1 ? "" : "s"}).`, {
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.timedOut = options.timedOut;
    this.attempts = options.attempts;
  }
}
