import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import { expect } from "chai";

import {
  ApiConnectionError,
  ApiInternalError,
  ApiInvalidParameterError,
  ApiNotFoundError,
  ApiRateLimitError,
  ApiResponseError,
  backoffMs,
  createApiClient,
  paginate,
  retryAfterMs,
  unwrap,
} from "@compute-capacity/sdk";
import type { ApiErrorCode } from "@compute-capacity/sdk";

/** One request as the test server saw it. */
interface Seen {
  method: string;
  url: string;
  idempotencyKey: string | undefined;
  body: string;
  at: number;
}

/**
 * A real HTTP server on a free port whose answers the test scripts, request by request: no fetch
 * mock, the client's retries, timeouts and headers go over the wire.
 */
class ScriptedServer {
  readonly seen: Seen[] = [];
  private server!: Server;
  url = "";

  constructor(private readonly answer: (request: Seen, index: number, response: ServerResponse) => void) {}

  async start(): Promise<this> {
    this.server = createServer((request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const key = request.headers["idempotency-key"];
        const seen: Seen = {
          method: request.method!,
          url: request.url!,
          idempotencyKey: typeof key === "string" ? key : undefined,
          body: Buffer.concat(chunks).toString(),
          at: Date.now(),
        };
        this.seen.push(seen);
        this.answer(seen, this.seen.length - 1, response);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const REQUEST_ID = "req-7f3a";

function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { "content-type": "application/json", "x-request-id": REQUEST_ID, ...headers });
  response.end(JSON.stringify(body));
}

const ok = (data: unknown) => ({ success: true, data });
const failure = (code: ApiErrorCode, message: string, details: Record<string, unknown> = {}) => ({
  success: false,
  error: { code, message, details },
});

/** The deployment answer the typed GET of /v1/deployment expects. */
const DEPLOYMENT = { primary_chain: "arbitrum", environment: "devnet", chains: [] };

/** What the client rejects with, or fails the test if it resolves. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("the SDK's HTTP client (createApiClient, unwrap, paginate)", function () {
  this.timeout(30_000);
  const servers: ScriptedServer[] = [];
  const serve = async (answer: ConstructorParameters<typeof ScriptedServer>[0]) => {
    const server = await new ScriptedServer(answer).start();
    servers.push(server);
    return server;
  };

  afterEach(async function () {
    await Promise.all(servers.splice(0).map((s) => s.stop()));
  });

  describe("retries", function () {
    it("waits for a 429's Retry-After, then returns the answer that followed", async function () {
      const server = await serve((_, i, response) =>
        i === 0
          ? json(response, 429, failure("rate_limit_exceeded", "slow down"), { "retry-after": "1" })
          : json(response, 200, ok(DEPLOYMENT)),
      );
      const api = createApiClient({ baseUrl: server.url, apiKey: "key", initialRetryDelayMs: 10 });
      const deployment = unwrap(await api.GET("/v1/deployment"));
      expect(deployment.primary_chain).to.equal("arbitrum");
      expect(server.seen).to.have.length(2);
      const waited = server.seen[1]!.at - server.seen[0]!.at;
      expect(waited).to.be.at.least(990).and.below(2_500); // the server's 1 s, not the 10 ms backoff
    });

    it("reads Retry-After as an HTTP date too", function () {
      const now = Date.parse("2030-01-01T00:00:00Z");
      expect(retryAfterMs("Tue, 01 Jan 2030 00:00:03 GMT", now)).to.equal(3_000);
      expect(retryAfterMs("2", now)).to.equal(2_000);
      expect(retryAfterMs("0.5", now)).to.equal(500);
      expect(retryAfterMs("soon", now)).to.equal(undefined);
      expect(retryAfterMs(null, now)).to.equal(undefined);
    });

    it("backs off exponentially with jitter in the upper half, capped", function () {
      expect([1, 2, 3, 4, 5].map((n) => backoffMs(n, 500, 8_000, () => 0))).to.deep.equal([
        250, 500, 1_000, 2_000, 4_000,
      ]);
      expect([1, 2, 3, 4, 5].map((n) => backoffMs(n, 500, 8_000, () => 1))).to.deep.equal([
        500, 1_000, 2_000, 4_000, 8_000,
      ]);
      expect(backoffMs(9, 500, 8_000, () => 1)).to.equal(8_000);
    });

    it("retries 503s with growing waits and succeeds when the server recovers", async function () {
      const server = await serve((_, i, response) =>
        i < 2 ? json(response, 503, failure("internal_error", "busy")) : json(response, 200, ok(DEPLOYMENT)),
      );
      const api = createApiClient({ baseUrl: server.url, initialRetryDelayMs: 100, maxRetryDelayMs: 1_000 });
      unwrap(await api.GET("/v1/deployment"));
      expect(server.seen).to.have.length(3);
      const [first, second] = [server.seen[1]!.at - server.seen[0]!.at, server.seen[2]!.at - server.seen[1]!.at];
      expect(first).to.be.at.least(45).and.below(1_000); // 50..100 ms
      expect(second).to.be.at.least(95).and.below(1_000); // 100..200 ms
    });

    it("gives up after maxRetries with the typed error of the last answer: code, message, details, status, request id", async function () {
      const server = await serve((_, __, response) =>
        json(response, 503, failure("internal_error", "the indexer is behind", { behind: 12 })),
      );
      const api = createApiClient({ baseUrl: server.url, maxRetries: 2, initialRetryDelayMs: 10 });
      const error = await rejection(api.GET("/v1/deployment").then(unwrap));
      expect(error).to.be.instanceOf(ApiInternalError).and.instanceOf(ApiResponseError);
      const e = error as ApiInternalError;
      expect([e.code, e.shortMessage, e.status, e.requestId]).to.deep.equal([
        "internal_error",
        "the indexer is behind",
        503,
        REQUEST_ID,
      ]);
      expect(e.errorDetails).to.deep.equal({ behind: 12 });
      expect(server.seen).to.have.length(3);
    });

    it("returns a 429 at once when its Retry-After is longer than the client waits", async function () {
      const server = await serve((_, __, response) =>
        json(response, 429, failure("rate_limit_exceeded", "come back in an hour"), { "retry-after": "3600" }),
      );
      const api = createApiClient({ baseUrl: server.url });
      const error = await rejection(api.GET("/v1/deployment").then(unwrap));
      expect(error).to.be.instanceOf(ApiRateLimitError);
      expect((error as ApiRateLimitError).status).to.equal(429);
      expect(server.seen).to.have.length(1);
    });

    it("never retries another 4xx: it is the answer", async function () {
      const server = await serve((_, __, response) =>
        json(response, 400, failure("invalid_parameter", "invalid limit: must be at most 100", { parameter: "limit" })),
      );
      const api = createApiClient({ baseUrl: server.url });
      const error = await rejection(
        api.GET("/v1/redemptions", { params: { query: { limit: 500 } } }).then((r) => unwrap(r)),
      );
      expect(error).to.be.instanceOf(ApiInvalidParameterError);
      expect((error as ApiInvalidParameterError).errorDetails).to.deep.equal({ parameter: "limit" });
      expect(server.seen).to.have.length(1);
    });

    it("names an answer without the envelope by its status (a proxy's 404 page)", async function () {
      const server = await serve((_, __, response) => {
        response.writeHead(404, { "content-type": "text/html" });
        response.end("<h1>Not Found</h1>");
      });
      const api = createApiClient({ baseUrl: server.url });
      const error = await rejection(api.GET("/v1/deployment").then(unwrap));
      expect(error).to.be.instanceOf(ApiNotFoundError);
      expect((error as ApiNotFoundError).code).to.equal("resource_not_found");
      expect((error as ApiNotFoundError).requestId).to.equal(undefined);
    });
  });

  describe("idempotency keys", function () {
    it("sends a generated key with every POST and the same key with each of its retries", async function () {
      const server = await serve((request, i, response) =>
        i === 0
          ? json(response, 502, failure("internal_error", "bad gateway"))
          : json(response, 200, ok({ id: request.idempotencyKey })),
      );
      const api = createApiClient({ baseUrl: server.url, apiKey: "key", initialRetryDelayMs: 10 });
      unwrap(await api.POST("/v1/webhooks", { body: { url: "https://example.com/hook", events: ["sstb.minted"] } }));
      unwrap(await api.POST("/v1/webhooks", { body: { url: "https://example.com/hook", events: ["sstb.minted"] } }));
      const [first, retry, second] = server.seen;
      expect(first!.idempotencyKey).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(retry!.idempotencyKey).to.equal(first!.idempotencyKey);
      expect(retry!.body).to.equal(first!.body); // the body is sent again in full
      expect(second!.idempotencyKey).to.not.equal(first!.idempotencyKey);
    });

    it("keeps the caller's key, and sends none with a GET", async function () {
      const server = await serve((_, __, response) => json(response, 200, ok(DEPLOYMENT)));
      const api = createApiClient({ baseUrl: server.url });
      await api.POST("/v1/webhooks", {
        body: { url: "https://example.com/hook", events: ["sstb.minted"] },
        headers: { "Idempotency-Key": "order-42" },
      });
      await api.GET("/v1/deployment");
      expect(server.seen.map((s) => s.idempotencyKey)).to.deep.equal(["order-42", undefined]);
    });
  });

  describe("timeouts and connection failures", function () {
    it("abandons an attempt that outlives timeoutMs and retries it", async function () {
      const server = await serve((_, i, response) => {
        if (i === 0) setTimeout(() => json(response, 200, ok(DEPLOYMENT)), 2_000);
        else json(response, 200, ok({ ...DEPLOYMENT, primary_chain: "second attempt" }));
      });
      const api = createApiClient({ baseUrl: server.url, timeoutMs: 200, initialRetryDelayMs: 10 });
      const started = Date.now();
      expect(unwrap(await api.GET("/v1/deployment")).primary_chain).to.equal("second attempt");
      expect(Date.now() - started).to.be.below(1_500);
      expect(server.seen).to.have.length(2);
    });

    it("throws ApiConnectionError (timedOut) when every attempt times out", async function () {
      const server = await serve((_, __, response) => setTimeout(() => json(response, 200, ok(DEPLOYMENT)), 2_000));
      const api = createApiClient({ baseUrl: server.url, timeoutMs: 150, maxRetries: 1, initialRetryDelayMs: 10 });
      const error = await rejection(api.GET("/v1/deployment"));
      expect(error).to.be.instanceOf(ApiConnectionError);
      expect((error as ApiConnectionError).timedOut).to.equal(true);
      expect((error as ApiConnectionError).attempts).to.equal(2);
      expect(server.seen).to.have.length(2);
    });

    it("throws ApiConnectionError after retrying a refused connection", async function () {
      const server = await serve(() => {});
      const url = server.url;
      await server.stop();
      servers.length = 0;
      const api = createApiClient({ baseUrl: url, maxRetries: 2, initialRetryDelayMs: 10 });
      const error = await rejection(api.GET("/v1/deployment"));
      expect(error).to.be.instanceOf(ApiConnectionError);
      expect((error as ApiConnectionError).timedOut).to.equal(false);
      expect((error as ApiConnectionError).attempts).to.equal(3);
    });

    it("stops at once, without retrying, when the caller aborts", async function () {
      const server = await serve((_, __, response) => setTimeout(() => json(response, 200, ok(DEPLOYMENT)), 2_000));
      const api = createApiClient({ baseUrl: server.url, timeoutMs: 5_000 });
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error("the user left")), 100);
      const error = await rejection(api.GET("/v1/deployment", { signal: controller.signal }));
      expect((error as Error).message).to.equal("the user left");
      expect(server.seen).to.have.length(1);
    });
  });

  describe("paginate", function () {
    const ITEMS = Array.from({ length: 7 }, (_, i) => ({ redemption_id: String(i + 1) }));
    const pages = (request: Seen, response: ServerResponse) => {
      const query = new URL(request.url, "http://x").searchParams;
      const [page, limit] = [Number(query.get("page")), Number(query.get("limit") ?? 20)];
      const redemptions = ITEMS.slice((page - 1) * limit, page * limit);
      json(response, 200, ok({ redemptions, total: ITEMS.length, page, limit }));
    };

    it("yields every item of every page, reading pages as the loop asks, with the caller's query", async function () {
      const server = await serve((request, _, response) => pages(request, response));
      const api = createApiClient({ baseUrl: server.url });
      const ids: string[] = [];
      for await (const r of paginate(api, "/v1/redemptions", { params: { query: { role: "provider", limit: 3 } } })) {
        ids.push(r.redemption_id);
      }
      expect(ids).to.deep.equal(["1", "2", "3", "4", "5", "6", "7"]);
      expect(server.seen.map((s) => new URL(s.url, "http://x").search)).to.deep.equal([
        "?role=provider&limit=3&page=1",
        "?role=provider&limit=3&page=2",
        "?role=provider&limit=3&page=3",
      ]);
    });

    it("reads no page more than the loop needs", async function () {
      const server = await serve((request, _, response) => pages(request, response));
      const api = createApiClient({ baseUrl: server.url });
      for await (const r of paginate(api, "/v1/redemptions", { params: { query: { limit: 3 } } })) {
        if (r.redemption_id === "2") break;
      }
      expect(server.seen).to.have.length(1);
    });

    it("ends after an empty list, and throws the typed error of a failed page", async function () {
      const empty = await serve((_, __, response) =>
        json(response, 200, ok({ redemptions: [], total: 0, page: 1, limit: 20 })),
      );
      const none: unknown[] = [];
      for await (const r of paginate(createApiClient({ baseUrl: empty.url }), "/v1/redemptions")) none.push(r);
      expect(none).to.deep.equal([]);
      const failing = await serve((_, __, response) => json(response, 401, failure("authentication_error", "no key")));
      const error = await rejection(
        (async () => {
          for await (const r of paginate(createApiClient({ baseUrl: failing.url }), "/v1/redemptions")) void r;
        })(),
      );
      expect(error).to.be.instanceOf(ApiResponseError);
      expect((error as ApiResponseError).code).to.equal("authentication_error");
    });
  });
});
