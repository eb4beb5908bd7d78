// `npm run lint:links` (part of `npm run lint`): fails on any relative link of the repository's
// Markdown files that points at a missing file or heading, or outside the repository (tools/markdown-links.ts).
import { brokenLinks, markdownFiles } from "../tools/markdown-links.js";

const root = process.cwd();
const files = markdownFiles(root);
const broken = brokenLinks(root, files);
for (const link of broken) console.error(`${link.file}:${link.line}: ${link.target}: ${link.reason}`);
if (broken.length > 0) {
  console.error(`${broken.length} broken link(s) in ${files.length} Markdown files`);
  process.exit(1);
}
console.log(`Links: ${files.length} Markdown files, every relative link resolves`);
