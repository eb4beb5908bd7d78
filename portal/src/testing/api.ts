import { HttpResponse, delay, http } from "msw";
import type { HttpHandler } from "msw";

import type { ApiPaths } from "@compute-capacity/sdk";

/** The origin the tests' portal runs on (vitest.config.ts): the gateway serving it. */
export const GATEWAY = "http://portal.test";

type Method = "get" | "post" | "put" | "delete";
type PathsWith<M extends Method> = {
  [P in keyof ApiPaths]: ApiPaths[P][M] extends { responses: unknown } ? P : never;
}[keyof ApiPaths];

/** The `data` a route answers with status `S`, typed from the gateway's OpenAPI document. */
export type ApiAnswer<P extends keyof ApiPaths, M extends Method, S extends number = 200> = ApiPaths[P][M] extends {
  responses: Record<S, { content: { "application/json": { data: infer D } } }>;
}
  ? D
  : never;

/** `/api/v1/x/{id}` as MSW's `/api/v1/x/:id`, on the tests' gateway. */
const route = (path: string) => GATEWAY + path.replace(/\{(\w+)\}/g, ":$1");

/** A request the handlers saw: method, path, headers and JSON body (for assertions on what the page sent). */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}

/**
 * MSW handlers of the gateway's API whose answers are type-checked against the OpenAPI types
 * (`ApiPaths`): a handler for a path the API does not have, or an answer of the wrong shape, does
 * not compile. Every request they answer is kept in `seen`.
 */
export function gateway(seen: SeenRequest[] = []) {
  const record = async (request: Request): Promise<unknown> => {
    const text = request.method === "GET" || request.method === "DELETE" ? "" : await request.clone().text();
    const body = text === "" ? undefined : (JSON.parse(text) as unknown);
    const url = new URL(request.url);
    seen.push({ method: request.method, path: url.pathname, query: url.searchParams, headers: request.headers, body });
    return body;
  };
  const handler = <M extends Method>(method: M) =>
    function answer<P extends PathsWith<M>, S extends number = 200>(
      path: P,
      data:
        | ApiAnswer<P, M, S>
        | ((input: {
            body: unknown;
            request: Request;
            params: Record<string, string>;
          }) => ApiAnswer<P, M, S> | Promise<ApiAnswer<P, M, S>>),
      status: S = 200 as S,
    ): HttpHandler {
      return http[method](route(path), async ({ request, params }) => {
        const body = await record(request);
        const value =
          typeof data === "function"
            ? await (data as (input: { body: unknown; request: Request; params: Record<string, string> }) => unknown)({
                body,
                request,
                params: params as Record<string, string>,
              })
            : data;
        return HttpResponse.json({ success: true, data: value }, { status });
      });
    };
  return {
    seen,
    get: handler("get"),
    post: handler("post"),
    put: handler("put"),
    delete: handler("delete"),
    /** The API's error envelope for a route. */
    error<M extends Method>(
      method: M,
      path: PathsWith<M>,
      status: number,
      code: string,
      message: string,
      details: Record<string, unknown> = {},
    ): HttpHandler {
      return http[method](route(path), async ({ request }) => {
        await record(request);
        // a retried status (429, 5xx) asks for its retry at once, as a gateway may: the SDK's client still
        // retries it (every attempt answered the same) without waiting its backoff of about a second
        const headers: Record<string, string> = status === 429 || status >= 500 ? { "Retry-After": "0" } : {};
        return HttpResponse.json({ success: false, error: { code, message, details } }, { status, headers });
      });
    },
    /** A route that never answers (the page's loading state). */
    pending<M extends Method>(method: M, path: PathsWith<M>): HttpHandler {
      return http[method](route(path), async ({ request }) => {
        await record(request);
        await delay("infinite");
        return HttpResponse.json({});
      });
    },
    /** A route whose connection fails (the gateway unreachable). */
    unreachable<M extends Method>(method: M, path: PathsWith<M>): HttpHandler {
      return http[method](route(path), () => HttpResponse.error());
    },
  };
}
