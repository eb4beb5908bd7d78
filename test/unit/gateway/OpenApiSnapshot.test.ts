import { readFile } from "node:fs/promises";

import { expect } from "chai";

import { openApiDocument } from "../../../gateway/http/openapi.js";

/** The committed document: `npm run openapi:snapshot` rewrites it when the API changes on purpose. */
const SNAPSHOT = new URL("./fixtures/openapi.snapshot.json", import.meta.url);

/**
 * The JSON pointers where `a` and `b` differ as JSON values: a member on one side only, a different
 * value or type. Objects are compared member by member whatever their order (JSON's members are
 * unordered: regrouping routes reorders the document's paths and schemas without changing the API);
 * arrays element by element, in order (an enum's or a list of parameters' order is content).
 */
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
  if (Array.isArray(a) && Array.isArray(b)) {
    const length = Math.max(a.length, b.length);
    return Array.from({ length }, (_, i) => {
      const here = `${at}/${i}`;
      if (i >= b.length) return [`${here}: removed`];
      if (i >= a.length) return [`${here}: added`];
      return differences(a[i], b[i], here);
    }).flat();
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort();
  return keys.flatMap((key) => {
    const here = `${at}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    if (!(key in right)) return [`${here}: removed`];
    if (!(key in left)) return [`${here}: added`];
    return differences(left[key], right[key], here);
  });
}

describe("the gateway's OpenAPI document against its committed snapshot (test/unit/gateway/fixtures/openapi.snapshot.json)", function () {
  this.timeout(120_000);

  it("is the same document as a JSON value (members in any order, arrays in order): moving code inside the gateway does not change the API", async function () {
    const committed = JSON.parse(await readFile(SNAPSHOT, "utf8")) as unknown;
    const built = JSON.parse(JSON.stringify(await openApiDocument())) as unknown;
    const changed = differences(committed, built);
    expect(
      changed.slice(0, 20),
      `${changed.length} differences (npm run openapi:snapshot if the change is meant)`,
    ).to.deep.equal([]);
  });
});
