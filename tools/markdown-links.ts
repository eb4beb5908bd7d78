// The link check of `npm run lint` (`npm run lint:links`): every relative link and image in the
// repository's Markdown files must point at a file or folder of the repository, and a link with a
// `#fragment` into a Markdown file at one of its headings (GitHub's anchors). Links with a scheme
// (https:, mailto:) are not fetched: a clone must not need the network to pass its lint.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** One link or image of a Markdown file. */
export interface MarkdownLink {
  /** What the brackets point at, as written (`docs/api.md#errors`). */
  target: string;
  /** 1-based line of the file. */
  line: number;
}

/** A link that does not resolve. */
export interface BrokenLink extends MarkdownLink {
  file: string;
  reason: string;
}

/**
 * The lines of `markdown` that are prose: fenced code blocks (``` or ~~~) are blanked, and so is
 * inline code, so that an example such as `[a](b)` inside backticks is not read as a link.
 */
function proseLines(markdown: string): string[] {
  let fence: string | null = null;
  return markdown.split("\n").map((line) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      if (marker !== null && marker[1][0] === fence[0] && marker[1].length >= fence.length) fence = null;
      return "";
    }
    if (marker !== null) {
      fence = marker[1];
      return "";
    }
    return line.replace(/(`+)[\s\S]*?\1/g, (code) => " ".repeat(code.length));
  });
}

/**
 * GitHub's anchor for a heading's text (github-slugger): the rendered text lower-cased, every
 * character but letters, digits, marks, `_`, `-` and spaces dropped, spaces turned into `-`.
 */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // links and images: their text
    .replace(/<[^>]+>/g, "") // inline HTML tags
    .replace(/[`*~]/g, "") // code and emphasis markers (underscores stay: GitHub keeps them)
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

/** Every anchor a Markdown file offers: its headings' slugs (repeats numbered as GitHub does) and explicit `id`s. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | null = null;
  for (const line of markdown.split("\n")) {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      if (marker !== null && marker[1][0] === fence[0] && marker[1].length >= fence.length) fence = null;
      continue;
    }
    if (marker !== null) {
      fence = marker[1];
      continue;
    }
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading !== null) {
      const slug = githubSlug(heading[1]);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const id of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id[1]);
  }
  return anchors;
}

/** The links and images of a Markdown file: inline `[text](target)` / `![alt](target)` and reference definitions. */
export function linksOf(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  proseLines(markdown).forEach((line, index) => {
    for (const match of line.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ target: match[1], line: index + 1 });
    }
    const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(line);
    if (definition !== null) links.push({ target: definition[1], line: index + 1 });
  });
  return links;
}

/** Whether a target is checked here: relative paths and `#fragments`, not URLs with a scheme. */
function isRelative(target: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith("//");
}

/**
 * The broken relative links of the given Markdown files (paths relative to `root`): a target
 * outside the repository, a missing file or folder, or a `#fragment` that is no heading of the
 * Markdown file it names (or of the file itself, for a bare `#fragment`).
 */
export function brokenLinks(root: string, files: readonly string[]): BrokenLink[] {
  const broken: BrokenLink[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (file: string): Set<string> => {
    let found = anchorCache.get(file);
    if (found === undefined) {
      found = anchorsOf(readFileSync(file, "utf8"));
      anchorCache.set(file, found);
    }
    return found;
  };
  const top = path.resolve(root);
  for (const file of files) {
    const absolute = path.resolve(top, file);
    for (const link of linksOf(readFileSync(absolute, "utf8"))) {
      if (!isRelative(link.target)) continue;
      const hash = link.target.indexOf("#");
      const rawPath = hash < 0 ? link.target : link.target.slice(0, hash);
      const fragment = hash < 0 ? "" : decodeURIComponent(link.target.slice(hash + 1));
      const pathPart = decodeURIComponent(rawPath.split("?")[0]);
      const target = pathPart === "" ? absolute : path.resolve(path.dirname(absolute), pathPart);
      const report = (reason: string) => broken.push({ ...link, file, reason });
      if (target !== top && !target.startsWith(top + path.sep)) {
        report("points outside the repository");
        continue;
      }
      if (!existsSync(target)) {
        report(`no such file: ${path.relative(top, target)}`);
        continue;
      }
      if (fragment === "" || !target.endsWith(".md") || statSync(target).isDirectory()) continue;
      if (!anchors(target).has(fragment)) report(`no heading #${fragment} in ${path.relative(top, target)}`);
    }
  }
  return broken;
}

/** The repository's Markdown files: tracked ones and new ones git does not ignore. */
export function markdownFiles(root: string): string[] {
  const output = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z", "--", "*.md"], {
    cwd: root,
    encoding: "utf8",
  });
  return [...new Set(output.split("\0").filter((file) => file !== "" && existsSync(path.join(root, file))))].sort();
}
