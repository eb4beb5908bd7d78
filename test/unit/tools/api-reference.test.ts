import { readFile } from "node:fs/promises";

import { expect } from "chai";

import { API_REFERENCE_FILE, generateApiReference, renderApiReference } from "../../../tools/api-reference.js";
import type { OpenApiDocument } from "../../../tools/api-reference.js";
import { anchorsOf, linksOf } from "../../../tools/markdown-links.js";

describe("the HTTP API reference (docs/api-reference.md)", function () {
  this.timeout(120_000);

  it("is what npm run docs:api generates from the gateway's OpenAPI document today", async function () {
    const committed = await readFile(API_REFERENCE_FILE, "utf8");
    const generated = await generateApiReference();
    if (generated !== committed) {
      const a = committed.split("\n");
      const b = generated.split("\n");
      const line = a.findIndex((text, i) => text !== b[i]);
      expect.fail(
        `${API_REFERENCE_FILE} is stale (first difference at line ${line + 1}: ` +
          `committed ${JSON.stringify(a[line])}, generated ${JSON.stringify(b[line])}); run npm run docs:api`,
      );
    }
    // the write and webhook routes are there, and every contents link lands on a heading of the file
    for (const heading of ["### POST /api/v1/redemptions", "### POST /api/v1/webhooks", "### GET /api/v1/me"]) {
      expect(committed).to.contain(`\n${heading}\n`);
    }
    const anchors = anchorsOf(committed);
    const fragments = linksOf(committed).filter((link) => link.target.startsWith("#"));
    const operations = committed.split("\n").filter((line) => /^### (GET|PUT|POST|DELETE|PATCH) \//.test(line));
    expect(operations.length).to.be.greaterThan(40);
    expect(fragments.length).to.equal(operations.length);
    for (const link of fragments) expect(anchors.has(link.target.slice(1)), link.target).to.equal(true);
  });

  describe("renderApiReference", function () {
    const document: OpenApiDocument = {
      info: { title: "Test API", version: "2.0.0", description: "A test document." },
      tags: [{ name: "things", description: "Things and their parts" }],
      paths: {
        "/api/v1/things/{id}": {
          get: {
            operationId: "getThing",
            summary: "A thing",
            tags: ["things"],
            parameters: [
              { name: "id", in: "path", required: true, schema: { type: "integer", minimum: 1 } },
              { name: "mode", in: "query", required: false, description: "a | b", schema: { enum: ["a", "b"] } },
            ],
            responses: {
              "200": {
                content: {
                  "application/json": {
                    schema: {
                      type: "object",
                      properties: {
                        success: { type: "boolean" },
                        data: {
                          type: "object",
                          required: ["name"],
                          properties: {
                            name: { type: "string", description: "its name", maxLength: 64 },
                            parts: {
                              type: "array",
                              items: {
                                type: "object",
                                properties: { weight: { anyOf: [{ type: "number" }, { type: "null" }] } },
                              },
                            },
                          },
                        },
                      },
                    },
                  },
                },
              },
              "404": { content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
            },
          },
        },
        "/v1/things/{id}": { get: { operationId: "getThingShort", tags: ["things"], responses: {} } },
      },
      components: {
        schemas: { Error: { type: "object", required: ["code"], properties: { code: { type: "string" } } } },
      },
    };
    const text = renderApiReference(document);

    it("lists each /api/v1 operation once, with its /v1 twin and operation ids", function () {
      expect(text).to.contain("### GET /api/v1/things/{id}");
      expect(text).to.not.contain("### GET /v1/things/{id}");
      expect(text).to.contain("operationId `getThing`; also `GET /v1/things/{id}` (`getThingShort`).");
    });

    it("renders parameters with their type, constraints and escaped descriptions", function () {
      expect(text).to.contain("| `id` | path | `integer` | yes | min 1 |");
      expect(text).to.contain('| `mode` | query | `"a" \\| "b"` | no | a \\| b |');
    });

    it("renders the answer's data fields by their dotted path, nested objects and arrays included", function () {
      expect(text).to.contain("| `name` | `string` | yes | its name; max length 64 |");
      expect(text).to.contain("| `parts` | `object[]` | no |  |");
      expect(text).to.contain("| `parts[].weight` | `number \\| null` | no |  |");
      expect(text).to.contain("Errors: 404.");
    });

    it("has a contents list whose links are the headings' anchors, and the component schemas", function () {
      expect(text).to.contain("- **things**: [`GET /api/v1/things/{id}`](#get-apiv1thingsid)");
      expect(anchorsOf(text).has("get-apiv1thingsid")).to.equal(true);
      expect(text).to.contain("### Error");
      expect(text).to.contain("| `code` | `string` | yes |  |");
    });
  });
});
