import { expect } from "chai";
import Fastify from "fastify";
import type { FastifyInstance } from "fastify";

import {
  DEPRECATED_AT,
  MIN_DEPRECATION_DAYS,
  SUNSET,
  announceDeprecations,
  deprecationHeaders,
  deprecationOf,
} from "../../../gateway/http/deprecation.js";

const FIELD = { type: ["string", "null"], deprecated: true, [DEPRECATED_AT]: "2026-11-23", [SUNSET]: "2027-05-22" };

/** A bare Fastify app with the gateway's deprecation hook, a deprecated route and one serving a deprecated field. */
async function app(): Promise<FastifyInstance> {
  const a = Fastify({ ajv: { customOptions: { keywords: [DEPRECATED_AT, SUNSET] } } });
  announceDeprecations(a);
  a.get(
    "/old",
    { schema: { deprecated: true, [DEPRECATED_AT]: "2026-01-01", [SUNSET]: "2026-07-01" } as never },
    async () => ({ ok: true }),
  );
  a.get(
    "/with-field",
    {
      schema: {
        response: {
          200: {
            type: "object",
            properties: { items: { type: "array", items: { type: "object", properties: { user_access_key: FIELD } } } },
          },
        },
      },
    },
    async () => ({ items: [{ user_access_key: null }] }),
  );
  a.get(
    "/current",
    { schema: { response: { 200: { type: "object", properties: { x: { type: "string" } } } } } },
    async () => ({
      x: "y",
    }),
  );
  a.get(
    "/failing",
    { schema: { deprecated: true, [DEPRECATED_AT]: "2026-01-01", [SUNSET]: "2026-07-01" } as never },
    async () => {
      throw Object.assign(new Error("nope"), { statusCode: 404 });
    },
  );
  await a.ready();
  return a;
}

describe("Deprecation and Sunset (gateway/http/deprecation.ts)", function () {
  describe("deprecationOf", function () {
    it("finds a deprecated route, a deprecated field of a success response, and nothing elsewhere", function () {
      const route = deprecationOf({ deprecated: true, [DEPRECATED_AT]: "2026-01-01", [SUNSET]: "2026-07-01" });
      expect(route?.what).to.deep.equal(["route"]);
      expect(route?.deprecatedAt.toISOString()).to.equal("2026-01-01T00:00:00.000Z");
      const field = deprecationOf({
        response: { 200: { type: "object", properties: { a: { type: "object", properties: { b: FIELD } } } } },
      });
      expect(field?.what).to.deep.equal(["200.a.b"]);
      // a deprecated field only in an error response does not make the route's answers deprecated
      expect(deprecationOf({ response: { 400: { type: "object", properties: { b: FIELD } } } })).to.equal(undefined);
      expect(deprecationOf({ response: { 200: { type: "object", properties: { b: { type: "string" } } } } })).to.equal(
        undefined,
      );
    });

    it(`refuses a mark without its dates or with less than ${MIN_DEPRECATION_DAYS} days' notice (the gateway would not start)`, function () {
      expect(() => deprecationOf({ deprecated: true })).to.throw(/without x-deprecated-at/);
      expect(() => deprecationOf({ deprecated: true, [DEPRECATED_AT]: "2026-01-01" })).to.throw(/without x-sunset/);
      expect(() => deprecationOf({ deprecated: true, [DEPRECATED_AT]: "2026-01-01", [SUNSET]: "2026-06-29" })).to.throw(
        /at least 180 days/,
      );
      expect(deprecationOf({ deprecated: true, [DEPRECATED_AT]: "2026-01-01", [SUNSET]: "2026-06-30" })).to.not.equal(
        undefined,
      );
    });

    it("writes the headers as RFC 9745 and RFC 8594 want them", function () {
      const headers = deprecationHeaders(
        deprecationOf({ response: { 200: { type: "object", properties: { f: FIELD } } } })!,
      );
      expect(headers).to.deep.equal({
        deprecation: `@${Date.UTC(2026, 10, 23) / 1000}`,
        sunset: "Sat, 22 May 2027 00:00:00 GMT",
      });
    });
  });

  describe("announceDeprecations", function () {
    it("adds Deprecation and Sunset to every answer of a deprecated route or of one serving a deprecated field", async function () {
      const a = await app();
      try {
        const old = await a.inject({ url: "/old" });
        expect(old.headers.deprecation).to.equal(`@${Date.UTC(2026, 0, 1) / 1000}`);
        expect(old.headers.sunset).to.equal("Wed, 01 Jul 2026 00:00:00 GMT");
        const failing = await a.inject({ url: "/failing" });
        expect(failing.statusCode).to.equal(404);
        expect(failing.headers.deprecation).to.equal(`@${Date.UTC(2026, 0, 1) / 1000}`);
        const field = await a.inject({ url: "/with-field" });
        expect(field.json()).to.deep.equal({ items: [{ user_access_key: null }] });
        expect(field.headers.deprecation).to.equal(`@${Date.UTC(2026, 10, 23) / 1000}`);
        expect(field.headers.sunset).to.equal("Sat, 22 May 2027 00:00:00 GMT");
        const current = await a.inject({ url: "/current" });
        expect(current.headers).to.not.have.property("deprecation");
        expect(current.headers).to.not.have.property("sunset");
      } finally {
        await a.close();
      }
    });
  });
});
