// `npm run sdk:abis`: regenerates the SDK's ABI modules (sdk/abis/) from the compiled artifacts (tools/sdk-abis.ts).
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";

import { ABIS_DIR, renderAbiModules } from "../tools/sdk-abis.js";

const files = await renderAbiModules();
await mkdir(ABIS_DIR, { recursive: true });
// a contract dropped from the list leaves no module behind
for (const name of await readdir(ABIS_DIR)) {
  if (!files.has(`${ABIS_DIR}/${name}`)) await rm(`${ABIS_DIR}/${name}`);
}
for (const [file, text] of files) await writeFile(file, text);
console.log(`Written ${files.size} modules in ${ABIS_DIR}/`);
