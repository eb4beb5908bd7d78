import { readFile } from "node:fs/promises";

import { expect } from "chai";

import { openApiDocument } from "../../../gateway/http/openapi.js";
import {
  OPENAPI_TYPES_FILE,
  SCHEMA_TYPES_FILE,
  renderOpenApiTypes,
  renderSchemaTypes,
} from "../../../tools/sdk-openapi.js";

/** Fails naming the first line where `committed` and `generated` differ. */
function expectSame(file: string, committed: string, generated: string) {
  if (generated === committed) return;
  const a = committed.split("\n");
  const b = generated.split("\n");
  const line = a.findIndex((text, i) => text !== b[i]);
  expect.fail(
    `${file} is stale (first difference at line ${line + 1}: ` +
      `committed ${JSON.stringify(a[line])}, generated ${JSON.stringify(b[line])}); run npm run sdk:openapi`,
  );
}

describe("the SDK's HTTP client types (sdk/api/openapi.ts, sdk/api/schemas.ts)", function () {
  // two 20 000-line files formatted by prettier: slow on a busy two-core machine
  this.timeout(300_000);

  it("are what npm run sdk:openapi generates from the gateway's OpenAPI document today", async function () {
    const document = await openApiDocument();
    const committed = await readFile(OPENAPI_TYPES_FILE, "utf8");
    expectSame(OPENAPI_TYPES_FILE, committed, await renderOpenApiTypes(process.cwd(), document));
    expectSame(
      SCHEMA_TYPES_FILE,
      await readFile(SCHEMA_TYPES_FILE, "utf8"),
      await renderSchemaTypes(process.cwd(), document),
    );
    // the document describes the write and webhook routes too, under both prefixes
    for (const route of ['"/api/v1/redemptions"', '"/v1/redemptions/{redemptionId}/confirm"', '"/api/v1/webhooks"']) {
      expect(committed).to.contain(`  ${route}: {`);
    }
  });

  it("export one named type per schema of the document, the resources and every webhook event among them", async function () {
    const schemas = await readFile(SCHEMA_TYPES_FILE, "utf8");
    for (const name of [
      "ComputeUnit",
      "Provider",
      "Redemption",
      "Lease",
      "Listing",
      "BridgeTransaction",
      "Verification",
      "ClaimableBalance",
      "SstbMintedEvent",
      "WebhookEvent",
    ]) {
      expect(schemas, name).to.contain(`export type ${name} = components["schemas"]["${name}"];`);
    }
    // the error envelope under a name that does not shadow the global Error
    expect(schemas).to.contain('export type ErrorEnvelope = components["schemas"]["Error"];');
  });
});
