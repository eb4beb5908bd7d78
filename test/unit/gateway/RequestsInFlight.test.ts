import { createServer, request as httpRequest } from "node:http";
import type { ClientRequest, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import { expect } from "chai";

import { RequestsInFlight } from "../../../gateway/observability/in-flight.js";
import { eventually } from "../../../testing/local-servers.js";

/** Resolves once `check` holds (rejects after 5 s). */
const until = (check: () => boolean) => eventually(async () => (check() ? true : undefined), 5_000);

describe("The HTTP requests in flight (gateway/observability/in-flight.ts)", function () {
  this.timeout(20_000);
  let server: Server;
  let port: number;
  let inFlight: RequestsInFlight;
  /** The server's responses not yet sent, in the order the requests came. */
  let held: ServerResponse[];
  const clients: ClientRequest[] = [];

  beforeEach(async function () {
    held = [];
    server = createServer((_request, response) => held.push(response));
    // kept-alive connections stay open as long as the client keeps them (undici closes one a second
    // before the server's announced timeout, which would end a test's wait on its own)
    server.keepAliveTimeout = 60_000;
    inFlight = new RequestsInFlight().watch(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterEach(async function () {
    for (const client of clients.splice(0)) client.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Sends a request (its answer, or its failure, is ignored). */
  function send(method: string, path: string): ClientRequest {
    const client = httpRequest({ host: "127.0.0.1", port, method, path, agent: false });
    client.on("error", () => {});
    client.on("response", (response) => response.resume());
    client.end();
    clients.push(client);
    return client;
  }

  describe("oldest", function () {
    it("lists the requests not yet answered, oldest first, with their ages and api_key redacted", async function () {
      send("GET", "/api/v1/cu/list?limit=5&api_key=sk_live_secret");
      await until(() => held.length === 1);
      await new Promise((resolve) => setTimeout(resolve, 30));
      send("POST", "/api/v1/webhooks/sub_1/test");
      await until(() => held.length === 2);

      const [first, second] = inFlight.oldest();
      expect(inFlight.size).to.equal(2);
      expect(first).to.deep.include({ method: "GET" });
      expect(first.url).to.match(/^\/api\/v1\/cu\/list\?limit=5&api_key=(?!sk_live_secret)/);
      expect(second).to.deep.include({ method: "POST", url: "/api/v1/webhooks/sub_1/test" });
      expect(first.ms).to.be.at.least(second.ms + 20);
      expect(inFlight.oldest(1)).to.have.length(1);
    });

    it("forgets a request once it is answered, or once its client goes away", async function () {
      const answered = send("GET", "/a");
      send("GET", "/b");
      await until(() => held.length === 2);
      held[0].end("done");
      await new Promise((resolve) => answered.on("close", resolve));
      await until(() => inFlight.size === 1);
      expect(inFlight.oldest().map((r) => r.url)).to.deep.equal(["/b"]);

      clients[1].destroy();
      await until(() => inFlight.size === 0);
      expect(inFlight.oldest()).to.deep.equal([]);
    });
  });

  describe("drain", function () {
    /** Resolves with what came first: the server closed, or `ms` passed. */
    const closedWithin = (ms: number) =>
      Promise.race([
        new Promise((resolve) => server.close(() => resolve("closed"))),
        new Promise((resolve) => setTimeout(resolve, ms, "still open")),
      ]);

    it("without it, a kept-alive connection whose request was in flight holds the server's close", async function () {
      const answer = fetch(`http://127.0.0.1:${port}/slow`).then((r) => r.text());
      await until(() => held.length === 1);
      const closing = closedWithin(1_000);
      held[0].end("done");
      expect(await answer).to.equal("done");
      expect(await closing).to.equal("still open");
    });

    it("answers the requests in flight with Connection: close, so that the server's close ends with them", async function () {
      const answer = fetch(`http://127.0.0.1:${port}/slow`).then((r) => ({
        connection: r.headers.get("connection"),
        body: r.text(),
      }));
      await until(() => held.length === 1);
      inFlight.drain();
      const closing = closedWithin(5_000);
      held[0].end("done");
      const { connection, body } = await answer;
      expect(connection).to.equal("close");
      expect(await body).to.equal("done");
      expect(await closing).to.equal("closed");
    });

    it("closes a connection whose response had begun before the drain once it is finished, after the listener closed", async function () {
      const answer = fetch(`http://127.0.0.1:${port}/stream`).then(async (r) => ({
        connection: r.headers.get("connection"),
        body: await r.text(),
      }));
      await until(() => held.length === 1);
      held[0].writeHead(200, { "content-type": "text/plain" });
      held[0].write("part one, ");
      await until(() => held[0].headersSent);
      inFlight.drain();
      const closing = closedWithin(5_000);
      held[0].end("part two");
      expect(await answer).to.deep.equal({ connection: "keep-alive", body: "part one, part two" });
      expect(await closing).to.equal("closed");
    });
  });
});
