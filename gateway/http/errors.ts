/** The spec's six error codes and their HTTP statuses (DESIGN.md section 9). */
export const ERROR_STATUS = {
  invalid_parameter: 400,
  authentication_error: 401,
  authorization_error: 403,
  resource_not_found: 404,
  rate_limit_exceeded: 429,
  internal_error: 500,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

/** An error the API answers with `{success: false, error: {code, message, details}}`. */
export class ApiError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.statusCode = ERROR_STATUS[code];
  }

  body() {
    return { success: false as const, error: { code: this.code, message: this.message, details: this.details } };
  }
}

/** A bad parameter: `details.parameter` names it, `details.reason` says what is wrong. */
export function invalidParameter(parameter: string, reason: string): ApiError {
  return new ApiError("invalid_parameter", `invalid ${parameter}: ${reason}`, { parameter, reason });
}

export function notFound(resource: string, id: string | number): ApiError {
  return new ApiError("resource_not_found", `${resource} ${id} not found`, { resource, id: String(id) });
}

/** JSON schema of the error envelope (every error response of every route). */
export const errorSchema = {
  type: "object",
  description: "A failure: `{success: false, error: {code, message, details}}`.",
  required: ["success", "error"],
  additionalProperties: false,
  properties: {
    success: { type: "boolean", const: false, description: "always false" },
    error: {
      type: "object",
      required: ["code", "message", "details"],
      additionalProperties: false,
      properties: {
        code: {
          type: "string",
          enum: Object.keys(ERROR_STATUS),
          description:
            "the spec's error code; its HTTP status: invalid_parameter 400, authentication_error 401, " +
            "authorization_error 403, resource_not_found 404, rate_limit_exceeded 429, internal_error 500",
        },
        message: { type: "string", description: "what went wrong, for people" },
        details: {
          type: "object",
          additionalProperties: true,
          description:
            "facts for programs: `parameter` and `reason` for invalid_parameter, `scope` for a missing scope, " +
            "`resource` and `id` for resource_not_found, `limit` and `retry_after_seconds` for rate_limit_exceeded, " +
            "`revert` and `args` for a contract's refusal",
        },
      },
    },
  },
} as const;
