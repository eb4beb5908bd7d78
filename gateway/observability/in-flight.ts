import type { IncomingMessage, Server, ServerResponse } from "node:http";

import { redactUrl } from "./log.js";

/** A request this gateway has received and not yet answered (or seen its connection close). */
export interface OpenRequest {
  method: string;
  /** The path and query, `api_key` redacted. */
  url: string;
  /** Since it arrived. */
  ms: number;
}

/**
 * The HTTP requests in flight, oldest first: what a shutdown whose bound runs out (or a stalled
 * gateway) is waiting for, logged by name rather than counted. It listens on the server itself, ahead
 * of Fastify's hooks, so that a request held in any hook (authentication, rate limit, idempotency)
 * is listed too; a request leaves the list when its response is finished or its connection closes.
 *
 * It also drains the connections for a shutdown. Node's `server.close()` (and so Fastify's
 * `close()`) closes the kept-alive connections idle at that moment, and then waits for every other
 * one to close: a connection whose request was in flight stays open after its response until the
 * client closes it (undici keeps one up to the `Keep-Alive: timeout=72` the gateway announces), which
 * held a shutdown to its bound. Once draining, every response says `Connection: close` (Node then
 * ends its connection, and the client knows not to send on it again), and once the listener is closed,
 * a connection whose response went out before the drain is closed as soon as it is idle.
 */
export class RequestsInFlight {
  private readonly open = new Map<IncomingMessage, { since: number; response: ServerResponse }>();
  private draining = false;

  watch(server: Pick<Server, "prependListener" | "listening" | "closeIdleConnections">): this {
    // ahead of Fastify's own listener: a request is listed before any of its hooks runs, and while
    // draining the header is set before Fastify answers (a request it refuses once closing included)
    server.prependListener("request", (request: IncomingMessage, response: ServerResponse) => {
      this.open.set(request, { since: Date.now(), response });
      if (this.draining && !response.headersSent) response.setHeader("connection", "close");
      response.once("close", () => {
        this.open.delete(request);
        // (its connection is idle now, unless it said `Connection: close` and is ending anyway)
        if (this.draining && !server.listening) setImmediate(() => server.closeIdleConnections());
      });
    });
    return this;
  }

  /** From now on every response closes its connection (a shutdown has begun). */
  drain(): void {
    if (this.draining) return;
    this.draining = true;
    for (const { response } of this.open.values()) {
      if (!response.headersSent) response.setHeader("connection", "close");
    }
  }

  get size(): number {
    return this.open.size;
  }

  /** The `limit` oldest, with their ages. */
  oldest(limit = 5, now = Date.now()): OpenRequest[] {
    const oldest: OpenRequest[] = [];
    for (const [request, { since }] of this.open) {
      if (oldest.length === limit) break;
      oldest.push({ method: request.method ?? "", url: redactUrl(request.url ?? ""), ms: now - since });
    }
    return oldest;
  }
}
