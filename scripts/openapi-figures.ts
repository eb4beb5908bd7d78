// `npm run openapi:figures [document.json] [before.json]`: the figures of the gateway's OpenAPI
// document (tools/openapi-figures.ts), built in-process as the gateway serves it, or read from a saved
// file; with a second file, both side by side (before, after).
import { readFile } from "node:fs/promises";

import { openApiDocument } from "../gateway/http/openapi.js";
import { figuresOf, figuresTable } from "../tools/openapi-figures.js";

const read = async (file: string) => JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
const [file, beforeFile] = process.argv.slice(2);
const document = file === undefined || file === "-" ? await openApiDocument() : await read(file);
const before = beforeFile === undefined ? undefined : figuresOf(await read(beforeFile));
console.log(figuresTable(figuresOf(document), before));
