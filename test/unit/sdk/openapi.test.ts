import { readFile } from "node:fs/promises";

import { expect } from "chai";

import { OPENAPI_TYPES_FILE, renderOpenApiTypes } from "../../../tools/sdk-openapi.js";

describe("the SDK's HTTP client types (sdk/api/openapi.ts)", function () {
  this.timeout(60_000);

  it("are what npm run sdk:openapi generates from the gateway's OpenAPI document today", async function () {
    const committed = await readFile(OPENAPI_TYPES_FILE, "utf8");
    const generated = await renderOpenApiTypes();
    if (generated !== committed) {
      const a = committed.split("\n");
      const b = generated.split("\n");
      const line = a.findIndex((text, i) => text !== b[i]);
      expect.fail(
        `${OPENAPI_TYPES_FILE} is stale (first difference at line ${line + 1}: ` +
          `committed ${JSON.stringify(a[line])}, generated ${JSON.stringify(b[line])}); run npm run sdk:openapi`,
      );
    }
    // the document describes the write and webhook routes too, under both prefixes
    for (const route of ['"/api/v1/redemptions"', '"/v1/redemptions/{redemptionId}/confirm"', '"/api/v1/webhooks"']) {
      expect(committed).to.contain(`  ${route}: {`);
    }
  });
});
