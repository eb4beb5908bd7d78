import type { FastifyRequest } from "fastify";

import { ApiError } from "../../api/errors.js";

/** A list route's page and page size (`s.paging` in its query). */
export type Paging = { page: number; limit: number };

/** The `{success, data}` envelope of a list: the rows under `name`, the total, the page and its size. */
export const list = (name: string, rows: unknown[], total: number, paging: Paging) => ({
  success: true as const,
  data: { [name]: rows, total, page: paging.page, limit: paging.limit },
});

/** The `{success, data}` envelope. */
export const ok = <T>(data: T) => ({ success: true as const, data });

/** The API key's account (routes behind authentication always have one). */
export function accountOf(request: FastifyRequest): string {
  if (request.apiKey === undefined) throw new ApiError("authentication_error", "an API key is required");
  return request.apiKey.account;
}
