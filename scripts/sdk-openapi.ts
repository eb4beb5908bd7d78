// `npm run sdk:openapi`: regenerates sdk/api/openapi.ts and sdk/api/schemas.ts from the gateway's
// OpenAPI document (tools/sdk-openapi.ts).
import { writeFile } from "node:fs/promises";

import { openApiDocument } from "../gateway/http/openapi.js";
import { OPENAPI_TYPES_FILE, SCHEMA_TYPES_FILE, renderOpenApiTypes, renderSchemaTypes } from "../tools/sdk-openapi.js";

const document = await openApiDocument();
await writeFile(OPENAPI_TYPES_FILE, await renderOpenApiTypes(process.cwd(), document));
await writeFile(SCHEMA_TYPES_FILE, await renderSchemaTypes(process.cwd(), document));
console.log(`Written ${OPENAPI_TYPES_FILE} and ${SCHEMA_TYPES_FILE}`);
