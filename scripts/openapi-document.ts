// `npm run lint:openapi` (first half): writes the gateway's OpenAPI document, built in-process as
// the running gateway serves it at /api/v1/openapi.json (gateway/http/openapi.ts), to the file
// named by the first argument; Redocly then lints that file.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

import { openApiDocument } from "../gateway/http/openapi.js";

const file = process.argv[2] ?? "cache/openapi.json";
await mkdir(path.dirname(file), { recursive: true });
await writeFile(file, JSON.stringify(await openApiDocument(), null, 2) + "\n");
console.log(`Written ${file}`);
