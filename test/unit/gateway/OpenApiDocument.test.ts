import { readFile } from "node:fs/promises";

import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { expect } from "chai";

import { openApiDocument } from "../../../gateway/http/openapi.js";
import { GATEWAY_VERSION } from "../../../gateway/version.js";
import { DELIVERY_EVENTS, TWIN_EVENTS } from "../../../gateway/webhooks/event-names.js";
import { eventSchemaName } from "../../../gateway/webhooks/catalogue.js";
import { figuresOf, operationsOf } from "../../../tools/openapi-figures.js";

type Json = Record<string, any>;

/** The numbers that are not amounts: reputation, minutes, hardware. */
const NOT_AMOUNTS = new Set([
  "reputation_score",
  "average_response_time",
  "cpu_cores",
  "ram_gb",
  "storage_gb",
  "network_mbps",
]);

/** An Ajv that knows the document's components, so `#/components/...` refs resolve. */
function validatorFor(document: Json) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  ajv.addSchema({ $id: "https://gateway.test/openapi.json", components: document.components });
  return (schema: Json) =>
    ajv.compile(
      JSON.parse(
        JSON.stringify(schema).replace(/"#\/components\//g, '"https://gateway.test/openapi.json#/components/'),
      ),
    );
}

describe("the gateway's OpenAPI document (gateway/http/document.ts, schemas.ts, webhooks/catalogue.ts)", function () {
  this.timeout(120_000);
  let document: Json;
  let operations: ReturnType<typeof operationsOf>;
  const where = (o: { method: string; path: string }) => `${o.method.toUpperCase()} ${o.path}`;

  before(async function () {
    document = await openApiDocument();
    operations = operationsOf(document).filter((o) => o.section === "paths");
  });

  describe("resources", function () {
    it("names a schema for every resource of the spec, and the spec's six error codes in Error", function () {
      const schemas = Object.keys(document.components.schemas);
      for (const name of [
        "ComputeUnit",
        "ComputeUnitDetail",
        "Provider",
        "ProviderDetail",
        "Redemption",
        "Lease",
        "Listing",
        "ListingDetail",
        "BridgeChain",
        "BridgeFeeQuote",
        "BridgeTransaction",
        "Verification",
        "SstbBalance",
        "ClaimableBalance",
        "Error",
        "WebhookEvent",
      ]) {
        expect(schemas, name).to.include(name);
      }
      expect(document.components.schemas.Error.properties.error.properties.code.enum).to.have.members([
        "authentication_error",
        "authorization_error",
        "invalid_parameter",
        "resource_not_found",
        "rate_limit_exceeded",
        "internal_error",
      ]);
    });

    it("gives every amount an exact twin in base units (`x` number, `x_base_units` decimal string)", function () {
      const missing: string[] = [];
      const walk = (schema: Json | undefined, path: string) => {
        if (schema === undefined || typeof schema !== "object") return;
        const properties = (schema.properties ?? {}) as Record<string, Json>;
        for (const [name, property] of Object.entries(properties)) {
          if (property.type === "number" && !NOT_AMOUNTS.has(name)) {
            const twin = properties[`${name}_base_units`];
            if (twin?.type !== "string" || twin.pattern !== "^[0-9]+$") missing.push(`${path}.${name}`);
          }
          walk(property, `${path}.${name}`);
        }
        for (const key of ["items", "anyOf", "oneOf"]) {
          for (const sub of [schema[key]].flat()) walk(sub as Json | undefined, path);
        }
      };
      for (const [name, schema] of Object.entries(document.components.schemas as Record<string, Json>)) {
        walk(schema, name);
      }
      expect(missing).to.deep.equal([]);
    });
  });

  describe("operations", function () {
    it("describes every operation and every parameter, and replaces Fastify's 'Default Response' everywhere", function () {
      const f = figuresOf(document);
      expect(f.operations).to.be.greaterThan(90);
      expect(f.operationsWithDescription).to.equal(f.operations);
      expect(f.parametersWithDescription).to.equal(f.parameters);
      expect(f.responsesDescribedByDefault).to.equal(0);
    });

    it("shows an example on every response, each valid against its schema", function () {
      const validator = validatorFor(document);
      const problems: string[] = [];
      for (const o of operations) {
        for (const [status, response] of Object.entries(o.operation.responses as Record<string, Json>)) {
          for (const media of Object.values((response.content ?? {}) as Record<string, Json>)) {
            if (media.example === undefined) {
              problems.push(`${where(o)} ${status}: no example`);
              continue;
            }
            const validate = validator(media.schema);
            if (!validate(media.example)) {
              problems.push(`${where(o)} ${status}: ${JSON.stringify(validate.errors?.slice(0, 2))}`);
            }
          }
        }
      }
      expect(problems).to.deep.equal([]);
    });

    it("documents the headers each answer carries: X-Request-Id and X-RateLimit-* on all, Retry-After on 429", function () {
      const headersOf = (response: Json) => Object.keys(response.headers ?? {});
      for (const o of operations) {
        for (const [status, response] of Object.entries(o.operation.responses as Record<string, Json>)) {
          const headers = headersOf(response);
          expect(headers, `${where(o)} ${status}`).to.include.members([
            "X-Request-Id",
            "X-RateLimit-Limit",
            "X-RateLimit-Remaining",
            "X-RateLimit-Reset",
          ]);
          if (status === "429") expect(headers, `${where(o)} 429`).to.include("Retry-After");
        }
        const parameters = (o.operation.parameters ?? []) as Json[];
        expect(
          parameters.map((p) => `${p.in}:${p.name}`),
          where(o),
        ).to.include("header:X-Request-Id");
      }
    });

    it("declares Idempotency-Key on every POST that honours it (all but GraphQL's), with Idempotent-Replayed on success", function () {
      const posts = operations.filter((o) => o.method === "post");
      for (const o of posts) {
        const declares = ((o.operation.parameters ?? []) as Json[]).some(
          (p) => p.in === "header" && p.name === "Idempotency-Key",
        );
        expect(declares, where(o)).to.equal(o.path !== "/graphql");
        const success = Object.entries(o.operation.responses as Record<string, Json>).filter(([s]) =>
          s.startsWith("2"),
        );
        for (const [status, response] of success) {
          expect(Object.keys(response.headers ?? {}).includes("Idempotent-Replayed"), `${where(o)} ${status}`).to.equal(
            o.path !== "/graphql",
          );
        }
      }
    });

    it("lets the public routes go without credentials and names the three ways to authenticate", function () {
      expect(Object.keys(document.components.securitySchemes)).to.have.members(["bearer", "apiKey", "portalSession"]);
      const open = operations.filter((o) => Array.isArray(o.operation.security) && o.operation.security.length === 0);
      expect(open.map(where).sort()).to.deep.equal(
        ["POST /api/v1/session", "POST /api/v1/session/nonce", "POST /v1/session", "POST /v1/session/nonce"].sort(),
      );
    });

    it("tags every operation with a tag the document declares", function () {
      const declared = new Set((document.tags as Json[]).map((t) => t.name));
      for (const o of operationsOf(document)) {
        for (const tag of o.operation.tags as string[]) expect(declared.has(tag), `${where(o)}: ${tag}`).to.equal(true);
      }
    });
  });

  describe("the event catalogue (webhooks)", function () {
    it("has one operation per event, its body a named schema whose `event` is the event's name", function () {
      expect(Object.keys(document.webhooks).sort()).to.deep.equal([...DELIVERY_EVENTS].sort());
      const validator = validatorFor(document);
      for (const event of DELIVERY_EVENTS) {
        const media = document.webhooks[event].post.requestBody.content["application/json"];
        expect(media.schema.$ref, event).to.equal(`#/components/schemas/${eventSchemaName(event)}`);
        const schema = document.components.schemas[eventSchemaName(event)];
        // a `const` is written as a one-value enum in the document
        expect(schema.properties.event.enum ?? [schema.properties.event.const], event).to.deep.equal([event]);
        const validate = validator(media.schema);
        expect(validate(media.example), `${event}: ${JSON.stringify(validate.errors)}`).to.equal(true);
        // a body of another event does not pass for this one
        expect(validate({ ...media.example, event: event === "sstb.minted" ? "cu.verified" : "sstb.minted" })).to.equal(
          false,
        );
      }
    });

    it("names the delivery headers, both signatures among them, and points twins at each other", function () {
      for (const event of DELIVERY_EVENTS) {
        const operation = document.webhooks[event].post;
        expect((operation.parameters as Json[]).map((p) => p.name)).to.include.members([
          "webhook-id",
          "webhook-timestamp",
          "webhook-signature",
          "X-SERVICE-Signature",
        ]);
      }
      for (const [a, b] of TWIN_EVENTS) {
        expect(document.webhooks[a].post.description, a).to.contain(`\`${b}\``);
        expect(document.webhooks[b].post.description, b).to.contain(`\`${a}\``);
      }
    });
  });

  describe("versions", function () {
    it("is versioned as the gateway's release, which is the newest entry of docs/api-changelog.md", async function () {
      const pkg = JSON.parse(await readFile("package.json", "utf8")) as { version: string };
      expect(document.info.version).to.equal(GATEWAY_VERSION).and.to.equal(pkg.version);
      const changelog = await readFile("docs/api-changelog.md", "utf8");
      const newest = /^## (\d+\.\d+\.\d+)/m.exec(changelog);
      expect(newest?.[1], "the changelog's newest entry").to.equal(pkg.version);
    });

    it("marks a deprecated field with its dates, and documents Deprecation and Sunset on the routes serving it", function () {
      const field = document.components.schemas.AccountRedemption.properties.user_access_key;
      expect(field).to.include({ deprecated: true, "x-deprecated-at": "2026-11-23", "x-sunset": "2027-05-22" });
      const list = document.paths["/api/v1/redemptions"].get.responses["200"];
      expect(Object.keys(list.headers)).to.include.members(["Deprecation", "Sunset"]);
      const other = document.paths["/api/v1/providers/list"].get.responses["200"];
      expect(Object.keys(other.headers)).to.not.include("Deprecation");
    });
  });
});
