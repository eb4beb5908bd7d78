import { createServer } from "node:http";
import type { Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

import { expect } from "chai";

import { readProvider } from "../../../gateway/chain/rpc.js";
import type { ReadProvider } from "../../../gateway/chain/rpc.js";
import { eventually } from "../../../testing/local-servers.js";

/**
 * A JSON-RPC node on localhost that answers `eth_blockNumber` at once and holds every call of a
 * method in `held` without an answer (a stalled node, for those calls).
 */
class StallingNode {
  readonly held = new Set<string>();
  readonly waiting: ServerResponse[] = [];
  /** Requests received, and connections open now. */
  requests = 0;
  connections = 0;
  private server: Server | undefined;
  url = "";

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      this.requests++;
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        const parsed = JSON.parse(body) as { id: number; method: string } | Array<{ id: number; method: string }>;
        const calls = Array.isArray(parsed) ? parsed : [parsed];
        if (calls.some((call) => this.held.has(call.method))) {
          this.waiting.push(response);
          return;
        }
        const answers = calls.map((call) => ({ jsonrpc: "2.0", id: call.id, result: "0x2a" }));
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
      });
    });
    this.server.on("connection", (socket) => {
      this.connections++;
      socket.on("close", () => this.connections--);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/** Resolves once `check` holds (rejects after 5 s). */
const until = (check: () => boolean) => eventually(async () => (check() ? true : undefined), 5_000);

describe("The gateway's chain reads (gateway/chain/rpc.ts)", function () {
  this.timeout(20_000);
  let node: StallingNode;
  let provider: ReadProvider | undefined;
  let errors: number;

  beforeEach(async function () {
    node = await new StallingNode().start();
    errors = 0;
  });

  afterEach(async function () {
    provider?.destroy();
    provider = undefined;
    await node.stop();
  });

  const open = (timeoutMs: number) => {
    provider = readProvider(node.url, 31337, { timeoutMs, onError: () => errors++ });
    return provider;
  };

  describe("inFlight", function () {
    it("lists a call the node has not answered by its method and age, and forgets it once answered", async function () {
      const rpc = open(60_000);
      node.held.add("eth_getBlockByNumber");
      const call = rpc.send("eth_getBlockByNumber", ["latest", false]);
      await until(() => node.waiting.length === 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const [pending, ...rest] = rpc.inFlight();
      expect(rest).to.deep.equal([]);
      expect(pending.method).to.equal("eth_getBlockByNumber");
      expect(pending.ms).to.be.at.least(50);

      node.waiting[0].setHeader("content-type", "application/json");
      node.waiting[0].end(JSON.stringify({ jsonrpc: "2.0", id: 1, result: null }));
      // (ethers numbers its first payload 1)
      expect(await call).to.equal(null);
      expect(rpc.inFlight()).to.deep.equal([]);
      expect(errors).to.equal(0);
    });
  });

  describe("timeoutMs", function () {
    it("fails a call the node leaves unanswered past the bound, counts it, closes its connection, and answers the next call", async function () {
      const rpc = open(300);
      node.held.add("eth_getBlockByNumber");
      const failed = await rpc.send("eth_getBlockByNumber", ["latest", false]).then(
        () => undefined,
        (error: unknown) => error as { code?: string },
      );
      expect(failed?.code).to.equal("TIMEOUT");
      expect(errors).to.equal(1);
      expect(rpc.inFlight()).to.deep.equal([]);
      // the held connection is closed by the client, not left open until the node answers
      await until(() => node.connections === 0);
      expect(await rpc.send("eth_blockNumber", [])).to.equal("0x2a");
    });
  });

  describe("abort", function () {
    it("fails the calls in flight at once, long before their bound, and every later call without sending it", async function () {
      const rpc = open(60_000);
      node.held.add("eth_getBlockByNumber");
      const call = rpc.send("eth_getBlockByNumber", ["latest", false]).then(
        () => "answered",
        () => "failed",
      );
      await until(() => node.waiting.length === 1);
      rpc.abort();
      const outcome = await Promise.race([call, new Promise((resolve) => setTimeout(resolve, 5_000, "still waiting"))]);
      expect(outcome).to.equal("failed");
      expect(rpc.inFlight()).to.deep.equal([]);
      // not sent again on a new connection (an aborted call is not a closed kept-alive connection)
      expect(node.requests).to.equal(1);
      const later = await rpc.send("eth_blockNumber", []).then(
        () => "answered",
        (error: Error) => error.message,
      );
      expect(later).to.match(/aborted/);
      expect(node.requests).to.equal(1);
    });
  });

  describe("destroy", function () {
    it("fails every later call without sending it", async function () {
      const rpc = open(60_000);
      expect(await rpc.send("eth_blockNumber", [])).to.equal("0x2a");
      rpc.destroy();
      provider = undefined;
      const failed = await rpc.send("eth_blockNumber", []).then(
        () => undefined,
        (error: unknown) => error as Error,
      );
      expect(failed).to.be.instanceOf(Error);
      expect(node.requests).to.equal(1);
    });
  });
});
