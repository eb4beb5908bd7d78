// After `tsc -p tsconfig.build.json`: generated data needs no source map (the ABIs are data, the
// OpenAPI types compile to an empty module), and with the sources inlined their maps would be most
// of the package. Drops those maps and the comments that point at them.
import { readFile, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";

const dist = path.join(import.meta.dirname, "dist");
const generated = [
  ...(await readdir(path.join(dist, "abis"))).filter((f) => f.endsWith(".js")).map((f) => path.join(dist, "abis", f)),
  path.join(dist, "api", "openapi.js"),
];
for (const file of generated) {
  await rm(`${file}.map`);
  const text = await readFile(file, "utf8");
  await writeFile(file, text.replace(/\n\/\/# sourceMappingURL=.*\n?$/, "\n"));
}
console.log(`dropped ${generated.length} source maps of generated modules`);
