import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

import { anchorsOf, brokenLinks, githubSlug, linksOf } from "../../../tools/markdown-links.js";

describe("the Markdown link check (npm run lint:links)", function () {
  describe("githubSlug", function () {
    it("gives GitHub's anchors: lower case, punctuation dropped, spaces to hyphens, code and links unwrapped", function () {
      expect(githubSlug("Portal (issue 20)")).to.equal("portal-issue-20");
      expect(githubSlug("The devnet (`npm start`)")).to.equal("the-devnet-npm-start");
      expect(githubSlug("GET /api/v1/cu/{cu_id}")).to.equal("get-apiv1cucu_id");
      expect(githubSlug("See [the guide](x.md) now")).to.equal("see-the-guide-now");
      expect(githubSlug("Installing on a Node 20 machine")).to.equal("installing-on-a-node-20-machine");
    });
  });

  describe("anchorsOf", function () {
    it("numbers repeated headings, reads explicit ids and ignores headings in code blocks", function () {
      const anchors = anchorsOf(
        ["# Title", "## Usage", "## Usage", '<a id="custom"></a>', "```sh", "# not a heading", "```"].join("\n"),
      );
      expect([...anchors].sort()).to.deep.equal(["custom", "title", "usage", "usage-1"]);
    });
  });

  describe("linksOf", function () {
    it("finds inline links, images and reference definitions, not links inside code", function () {
      const links = linksOf(
        [
          "See [a](docs/a.md#part) and ![b](img/b.png).",
          "In code: `[c](c.md)` is not a link.",
          "```md",
          "[d](d.md)",
          "```",
          '[e]: docs/e.md "E"',
        ].join("\n"),
      );
      expect(links).to.deep.equal([
        { target: "docs/a.md#part", line: 1 },
        { target: "img/b.png", line: 1 },
        { target: "docs/e.md", line: 6 },
      ]);
    });
  });

  describe("brokenLinks", function () {
    let root: string;

    before(async function () {
      root = await mkdtemp(path.join(tmpdir(), "links-"));
      await mkdir(path.join(root, "docs", "img"), { recursive: true });
      await writeFile(path.join(root, "docs", "img", "shot.png"), "");
      await writeFile(
        path.join(root, "docs", "guide.md"),
        "# Guide\n\n## Set-up\n\nBack to [the top](../README.md#title).\n",
      );
    });

    after(async function () {
      await rm(root, { recursive: true, force: true });
    });

    async function check(text: string) {
      await writeFile(path.join(root, "README.md"), text);
      return brokenLinks(root, ["README.md", "docs/guide.md"]).map(
        (link) => `${link.line}: ${link.target}: ${link.reason}`,
      );
    }

    it("accepts files, folders, headings of other files and of the same file, images and external URLs", async function () {
      expect(
        await check(
          [
            "# Title",
            "[guide](docs/guide.md), [set-up](docs/guide.md#set-up), [docs](docs/), [top](#title)",
            "![shot](docs/img/shot.png) [site](https://example.com/missing) [mail](mailto:a@b.c)",
          ].join("\n"),
        ),
      ).to.deep.equal([]);
    });

    it("reports a missing file, a missing heading and a link outside the repository, with the line", async function () {
      expect(
        await check(
          [
            "# Title",
            "[gone](docs/gone.md)",
            "[part](docs/guide.md#no-such-part) [self](#nowhere)",
            "[spec](../shared/SPEC.md)",
          ].join("\n"),
        ),
      ).to.deep.equal([
        "2: docs/gone.md: no such file: docs/gone.md",
        "3: docs/guide.md#no-such-part: no heading #no-such-part in docs/guide.md",
        "3: #nowhere: no heading #nowhere in README.md",
        "4: ../shared/SPEC.md: points outside the repository",
      ]);
    });
  });
});
