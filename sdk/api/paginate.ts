import type { Client } from "openapi-fetch";

import type { paths } from "./openapi.js";
import { apiErrorOf } from "./errors.js";

/** The `data` of a 200 answer of `GET path`. */
type GetData<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { "application/json": { data: infer D } } } } };
}
  ? D
  : never;

/** The paths whose GET answers a page: `{ <name>: items[], total, page, limit }` for `?page=&limit=`. */
export type PagedPath = {
  [P in keyof paths]: GetData<P> extends { total: number; page: number; limit: number } ? P : never;
}[keyof paths];

/** The items of a paged path's answer. */
export type PagedItem<P extends PagedPath> = {
  [K in Exclude<keyof GetData<P>, "total" | "page" | "limit">]: GetData<P>[K] extends readonly (infer T)[] ? T : never;
}[Exclude<keyof GetData<P>, "total" | "page" | "limit">];

/** The query of a paged path, without `page` (the iterator turns the pages). */
export type PagedQuery<P extends PagedPath> = paths[P] extends { get: { parameters: { query?: infer Q } } }
  ? Omit<NonNullable<Q>, "page">
  : never;

/** Everything but the page of a paged GET: its path parameters and its query (`limit` is the page size). */
export interface PaginateInit<P extends PagedPath> {
  params?: {
    query?: PagedQuery<P>;
    path?: paths[P] extends { get: { parameters: { path?: infer T } } } ? T : never;
  };
  /** Cancels the iteration (the page being read, and the ones after). */
  signal?: AbortSignal;
}

/**
 * Every item of a paged list, page after page, as an async iterator (Stripe's auto-pagination):
 * the caller never writes a page loop. Pages are read one at a time as the loop asks for more;
 * the iteration stops after the last page (`page * limit >= total`, or an empty page). A failed
 * page throws the typed error (`ApiResponseError` and its subclasses), after the client's retries.
 *
 * @example
 * for await (const redemption of paginate(api, "/v1/redemptions", { params: { query: { role: "provider", status: "pending" } } })) {
 *   console.log(redemption.redemption_id);
 * }
 */
export async function* paginate<P extends PagedPath>(
  api: Client<paths>,
  path: P,
  init: PaginateInit<P> = {},
): AsyncGenerator<PagedItem<P>, void, undefined> {
  const get = api.GET as unknown as (
    path: string,
    init: { params: { query: Record<string, unknown>; path?: unknown }; signal?: AbortSignal },
  ) => Promise<{ data?: { data: Record<string, unknown> }; error?: unknown; response: Response }>;
  for (let page = 1; ; page++) {
    const query = { ...(init.params?.query as Record<string, unknown> | undefined), page };
    const result = await get(path, {
      params: { query, ...(init.params?.path === undefined ? {} : { path: init.params.path }) },
      ...(init.signal === undefined ? {} : { signal: init.signal }),
    });
    if (result.data === undefined || !result.response.ok) throw apiErrorOf(result.response, result.error);
    const data = result.data.data;
    const items = Object.entries(data).find(([key, value]) => Array.isArray(value) && key !== "total")?.[1] as
      PagedItem<P>[] | undefined;
    if (items === undefined) throw new TypeError(`GET ${path} did not answer a page of items`);
    for (const item of items) yield item;
    const { total, limit } = data as { total: number; limit: number };
    if (items.length === 0 || page * limit >= total) return;
  }
}
