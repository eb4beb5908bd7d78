import type { FastifyError, FastifyInstance, FastifyReply } from "fastify";
import fp from "fastify-plugin";

import { ApiError, invalidParameter } from "../../api/errors.js";
import type { Log } from "../../observability/log.js";
import { REQUEST_ID_HEADER } from "./request-id.js";

/** Every failure of a route or a hook answers the error envelope with one of the six codes. */
export const errorHandling = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error, request, reply) => {
    const api = toApiError(error, request.log);
    return reply.code(api.statusCode).type("application/json; charset=utf-8").send(api.body());
  });
});

/** Fastify's `frameworkErrors`: what the URL rewrite (request-id.ts) leaves to the router (an absolute-form target it cannot parse). */
export function frameworkErrors(
  error: Error,
  request: { id: string },
  reply: { header(name: string, value: string): unknown },
): void {
  const api = invalidParameter("url", error.message.includes("URL") ? "the URL is malformed" : "malformed request");
  void (reply as unknown as FastifyReply).header(REQUEST_ID_HEADER, request.id).code(api.statusCode).send(api.body());
}

/**
 * Any failure -> one of the six codes. Framework errors keep their meaning but never their shape;
 * anything unexpected is an `internal_error` whose message says nothing about the internals.
 */
export function toApiError(error: unknown, log: Pick<Log, "error">): ApiError {
  if (error instanceof ApiError) return error;
  const e = error as Partial<FastifyError> & {
    validation?: Array<Record<string, unknown>>;
    validationContext?: string;
  };
  if (Array.isArray(e.validation) && e.validation.length > 0) {
    const v = e.validation[0] as { instancePath?: string; message?: string; params?: Record<string, unknown> };
    const fromPath = (v.instancePath ?? "")
      .split("/")
      .filter((p) => p !== "")
      .join(".");
    const parameter =
      (v.params?.additionalProperty as string | undefined) ??
      (v.params?.missingProperty as string | undefined) ??
      (fromPath === "" ? (e.validationContext ?? "request") : fromPath);
    const reason =
      v.params?.additionalProperty !== undefined ? "is not a parameter of this route" : (v.message ?? "is invalid");
    return invalidParameter(parameter, reason);
  }
  switch (e.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return invalidParameter("body", "is larger than the limit");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return invalidParameter("content-type", "must be application/json");
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return invalidParameter("body", "is empty but the content type says JSON");
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return invalidParameter("body", "is not valid JSON");
  }
  const status = typeof e.statusCode === "number" ? e.statusCode : 500;
  if (status === 429) return new ApiError("rate_limit_exceeded", "rate limit exceeded");
  if (status === 404) return new ApiError("resource_not_found", "not found");
  if (status === 413) return invalidParameter("body", "is larger than the limit");
  if (status === 415) return invalidParameter("content-type", "is not supported");
  if (status >= 400 && status < 500) {
    return invalidParameter(
      e instanceof SyntaxError ? "body" : "request",
      e instanceof SyntaxError ? "is not valid JSON" : "is malformed",
    );
  }
  log.error({ err: error }, "internal error");
  return new ApiError("internal_error", "internal error");
}
