import { expect } from "chai";
import Fastify from "fastify";
import type { FastifyInstance } from "fastify";

import { ResponseCache } from "../../../gateway/http/response-cache.js";

/** A Fastify app with the cache and two routes that count how often their handler runs. */
async function appWith(cache: ResponseCache) {
  const app: FastifyInstance = Fastify();
  const calls = { cached: 0, personal: 0 };
  let release: (() => void) | undefined;
  cache.register(app);
  const schema = { querystring: { type: "object", properties: { n: { type: "integer" } } } };
  app.get("/cached", { schema, config: { cache: true } }, async (request) => {
    calls.cached++;
    // the first request with n=99 waits until the test releases it
    if ((request.query as { n?: number }).n === 99 && calls.cached === 1) {
      await new Promise<void>((resolve) => (release = resolve));
    }
    return { calls: calls.cached, query: request.query };
  });
  app.get("/personal", { config: { cache: false } }, async () => ({ calls: ++calls.personal }));
  await app.ready();
  const get = async (url: string) => (await app.inject({ method: "GET", url })).json() as { calls: number };
  return { app, calls, get, release: () => release?.() };
}

describe("ResponseCache (answers of the read routes until the indexer commits)", function () {
  describe("get and set", function () {
    it("serves a route's answer again for the same path and query, and queries again for another query", async function () {
      const { app, calls, get } = await appWith(new ResponseCache());
      expect(await get("/cached?n=1")).to.deep.equal({ calls: 1, query: { n: 1 } });
      expect(await get("/cached?n=1")).to.deep.equal({ calls: 1, query: { n: 1 } });
      expect(await get("/cached?n=2")).to.deep.equal({ calls: 2, query: { n: 2 } });
      expect(calls.cached).to.equal(2);
      await app.close();
    });

    it("never caches a route that is not marked cacheable", async function () {
      const { app, get } = await appWith(new ResponseCache());
      await get("/personal");
      expect(await get("/personal")).to.deep.equal({ calls: 2 });
      await app.close();
    });

    it("drops an entry older than its time to live", async function () {
      const { app, get } = await appWith(new ResponseCache(50));
      await get("/cached");
      await new Promise((r) => setTimeout(r, 80));
      expect((await get("/cached")).calls).to.equal(2);
      await app.close();
    });
  });

  describe("invalidate", function () {
    it("makes the next request query again", async function () {
      const cache = new ResponseCache();
      const { app, get } = await appWith(cache);
      await get("/cached");
      cache.invalidate();
      expect((await get("/cached")).calls).to.equal(2);
      expect((await get("/cached")).calls).to.equal(2);
      await app.close();
    });

    it("does not keep an answer that was read before an invalidation and sent after it", async function () {
      const cache = new ResponseCache();
      const { app, get, release } = await appWith(cache);
      const slow = get("/cached?n=99"); // the handler waits until released
      await new Promise((r) => setTimeout(r, 20));
      cache.invalidate(); // an indexer commit while the request was reading
      release();
      expect((await slow).calls).to.equal(1);
      expect((await get("/cached?n=99")).calls).to.equal(2); // queried again
      await app.close();
    });
  });
});
