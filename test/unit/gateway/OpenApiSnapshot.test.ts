import { readFile } from "node:fs/promises";

import { expect } from "chai";

import { openApiDocument } from "../../../gateway/http/openapi.js";

/** The committed document: `npm run openapi:snapshot` rewrites it when the API changes on purpose. */
const SNAPSHOT = new URL("./fixtures/openapi.snapshot.json", import.meta.url);

/** The JSON pointers where `a` and `b` differ (a key on one side only, a different value or type). */
function differences(a: unknown, b: unknown, at = ""): string[] {
  if (a === b) return [];
  if (
    typeof a !== "object" ||
    typeof b !== "object" ||
    a === null ||
    b === null ||
    Array.isArray(a) !== Array.isArray(b)
  ) {
    return [`${at || "/"}: ${JSON.stringify(a)?.slice(0, 120)} -> ${JSON.stringify(b)?.slice(0, 120)}`];
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])];
  return keys.flatMap((key) => {
    const here = `${at}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    if (!(key in right)) return [`${here}: removed`];
    if (!(key in left)) return [`${here}: added`];
    return differences(left[key], right[key], here);
  });
}

describe("the gateway's OpenAPI document against its committed snapshot (test/unit/gateway/fixtures/openapi.snapshot.json)", function () {
  this.timeout(120_000);

  it("is the same document, key order included: moving code inside the gateway does not change the API", async function () {
    const committed = JSON.parse(await readFile(SNAPSHOT, "utf8")) as unknown;
    const built = JSON.parse(JSON.stringify(await openApiDocument())) as unknown;
    const changed = differences(committed, built);
    expect(
      changed.slice(0, 20),
      `${changed.length} differences (npm run openapi:snapshot if the change is meant)`,
    ).to.deep.equal([]);
    // the order of paths, operations and properties is what a reader and a generated client see
    expect(JSON.stringify(built, null, 2) + "\n").to.equal(await readFile(SNAPSHOT, "utf8"));
  });
});
