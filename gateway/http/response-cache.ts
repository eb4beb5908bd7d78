import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route's answer depends only on its path and query (not on the API key): it may be cached. */
    cache?: boolean;
  }
  interface FastifyRequest {
    cacheKey?: string;
    cacheGeneration?: number;
  }
}

/**
 * Serialized answers of the read routes, by route, path parameters and query. Everything the read
 * routes serve is a projection of indexed events, so an answer stays right until the indexer
 * commits new events: {@link invalidate} (called on every such commit) drops them all. `ttlMs`
 * bounds the age of an entry besides, for what a commit elsewhere cannot invalidate here (another
 * gateway instance indexing into the same PostgreSQL, live bridge fee quotes, statuses that follow
 * the clock such as an expired listing).
 *
 * Authentication, scopes, rate limits and validation still run on every request: a cached answer
 * only skips the database query and the serialization.
 */
export class ResponseCache {
  private readonly entries = new Map<string, { payload: string; at: number }>();
  /** Bumped by every invalidation: an answer read from the database before one is not kept after it. */
  private generation = 0;
  hits = 0;
  misses = 0;

  constructor(
    readonly ttlMs = 1_000,
    private readonly maxEntries = 10_000,
  ) {}

  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }

  get(key: string): string | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || Date.now() - entry.at >= this.ttlMs) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    return entry.payload;
  }

  set(key: string, payload: string, generation = this.generation): void {
    if (generation !== this.generation) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { payload, at: Date.now() });
  }

  /** Serves cached answers of the GET routes whose config says `cache: true`, and keeps fresh ones. */
  register(app: FastifyInstance): void {
    app.addHook("preHandler", async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.method !== "GET" || request.routeOptions.config?.cache !== true) return;
      request.cacheKey = `${request.routeOptions.url}|${JSON.stringify(request.params)}|${JSON.stringify(request.query)}`;
      request.cacheGeneration = this.generation;
      const payload = this.get(request.cacheKey);
      if (payload === undefined) return;
      request.cacheKey = undefined; // served from the cache: not stored again
      return reply.code(200).type("application/json; charset=utf-8").send(payload);
    });
    app.addHook("onSend", async (request, reply, payload) => {
      if (request.cacheKey !== undefined && reply.statusCode === 200 && typeof payload === "string") {
        this.set(request.cacheKey, payload, request.cacheGeneration);
      }
      return payload;
    });
  }
}
