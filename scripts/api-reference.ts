// `npm run docs:api`: regenerates docs/api-reference.md from the gateway's OpenAPI document (tools/api-reference.ts).
import { writeFile } from "node:fs/promises";

import { API_REFERENCE_FILE, generateApiReference } from "../tools/api-reference.js";

await writeFile(API_REFERENCE_FILE, await generateApiReference());
console.log(`Written ${API_REFERENCE_FILE}`);
