// `npm run sdk:openapi`: regenerates sdk/api/openapi.ts from the gateway's OpenAPI document (tools/sdk-openapi.ts).
import { writeFile } from "node:fs/promises";

import { OPENAPI_TYPES_FILE, renderOpenApiTypes } from "../tools/sdk-openapi.js";

await writeFile(OPENAPI_TYPES_FILE, await renderOpenApiTypes());
console.log(`Written ${OPENAPI_TYPES_FILE}`);
