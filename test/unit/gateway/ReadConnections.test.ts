import { expect } from "chai";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { Sql } from "postgres";

import { readConnections, roundRobin } from "../../../gateway/store/read-connections.js";

/** A client that records the queries and transactions sent to it (nothing is connected). */
function recordingClient(name: string, sent: string[]) {
  const client = {
    options: { parsers: {}, serializers: {} },
    unsafe: (query: string) => {
      sent.push(`${name}: ${query}`);
      return { values: () => Promise.resolve([[name]]) };
    },
    begin: (work: (tx: string) => unknown) => {
      sent.push(`${name}: begin`);
      return Promise.resolve(work(name));
    },
    ended: undefined as { timeout?: number } | undefined,
    end: async (options?: { timeout?: number }) => {
      client.ended = options ?? {};
    },
  };
  return client;
}

/** A real postgres.js client: it opens no connection before its first query. */
const unconnected = () => postgres("postgres://reader@127.0.0.1:1/none", { max: 1 });

describe("The read routes' connections (gateway/store/read-connections.ts)", () => {
  describe("readConnections", () => {
    it("refuses fewer than one connection, or a fraction of one", () => {
      expect(() => readConnections("postgres://reader@127.0.0.1:1/none", 0)).to.throw(RangeError, "at least 1");
      expect(() => readConnections("postgres://reader@127.0.0.1:1/none", 1.5)).to.throw(RangeError, "1.5");
    });
  });

  describe("roundRobin", () => {
    it("sends each query to the next connection in turn, and the answer back from it", async () => {
      const sent: string[] = [];
      const clients = ["a", "b", "c"].map((name) => recordingClient(name, sent));
      const sql = roundRobin(clients as unknown as Sql[]);
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await sql.unsafe(`select ${i}`).values());
      expect(sent).to.deep.equal(["a: select 0", "b: select 1", "c: select 2", "a: select 3", "b: select 4"]);
      expect(answers).to.deep.equal([[["a"]], [["b"]], [["c"]], [["a"]], [["b"]]]);
    });

    it("runs a transaction on one connection, the next in turn", async () => {
      const sent: string[] = [];
      const sql = roundRobin(["a", "b"].map((name) => recordingClient(name, sent)) as unknown as Sql[]);
      await sql.unsafe("select 1");
      const on = await sql.begin(async (tx) => tx as unknown as string);
      expect(on).to.equal("b");
      expect(sent).to.deep.equal(["a: select 1", "b: begin"]);
    });

    it("ends every connection, with the timeout it is given", async () => {
      const clients = ["a", "b"].map((name) => recordingClient(name, []));
      await roundRobin(clients as unknown as Sql[]).end({ timeout: 5 });
      expect(clients.map((client) => client.ended)).to.deep.equal([{ timeout: 5 }, { timeout: 5 }]);
    });

    it("gives every connection the parsers and serializers drizzle sets on the one client it is given", async () => {
      const clients = [unconnected(), unconnected()];
      // drizzle returns PostgreSQL's date and time types as the server's text, on this client's options
      drizzle(roundRobin(clients));
      for (const client of clients) {
        expect(client.options.parsers["1184"]("2026-11-28 00:00:00+00")).to.equal("2026-11-28 00:00:00+00");
        expect(client.options.serializers["3802"]).to.be.a("function");
        expect(client.options.serializers["3802"]("{}")).to.equal("{}");
      }
      await Promise.all(clients.map((client) => client.end({ timeout: 0 })));
    });
  });
});
