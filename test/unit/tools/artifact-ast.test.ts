import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { expect } from "chai";

import { injectAstIntoArtifacts } from "../../../tools/hardhat/artifact-ast-hooks.js";

/** The upgrades plugin's own pass, which this one runs ahead of (not in its package's exports map). */
type UpgradesPass = (artifactPaths: string[], buildInfoDir: string) => Promise<void>;
async function upgradesPluginPass(): Promise<UpgradesPass> {
  const manifest = createRequire(import.meta.url).resolve("@openzeppelin/hardhat-upgrades/package.json");
  const hooks = path.join(path.dirname(manifest), "dist", "hooks", "solidity.js");
  return ((await import(pathToFileURL(hooks).href)) as { injectAstIntoArtifacts: UpgradesPass }).injectAstIntoArtifacts;
}

const BUILD = "solc-0_8_30-abc";
const ast = (source: string) => ({ absolutePath: source, id: source.length, nodeType: "SourceUnit", nodes: [] });
const metadata = (name: string) => JSON.stringify({ compiler: { version: "0.8.30" }, settings: { target: name } });
const artifact = (name: string, source: string, extra: Record<string, unknown> = {}) => ({
  _format: "hh3-artifact-1",
  contractName: name,
  sourceName: source,
  abi: [],
  bytecode: "0x6080",
  inputSourceName: `project/${source}`,
  buildInfoId: BUILD,
  ...extra,
});

/** A build's artifacts folder: one build-info output and the artifacts of its sources. */
async function buildFolder(root: string): Promise<string[]> {
  const sources = ["contracts/A.sol", "contracts/B.sol", "contracts/C.sol"];
  await mkdir(path.join(root, "build-info"), { recursive: true });
  await writeFile(
    path.join(root, "build-info", `${BUILD}.output.json`),
    JSON.stringify({
      _format: "hh3-sol-build-info-output-1",
      id: BUILD,
      output: {
        sources: Object.fromEntries(sources.map((s) => [`project/${s}`, { id: 0, ast: ast(s) }])),
        contracts: {
          "project/contracts/A.sol": { A: { metadata: metadata("A") }, A2: { metadata: "not json" } },
          "project/contracts/B.sol": { B: { metadata: metadata("B") } },
          "project/contracts/C.sol": { C: {} },
        },
      },
    }),
  );
  const artifacts: Array<[string, unknown]> = [
    ["A.json", artifact("A", "contracts/A.sol")],
    // metadata that is not JSON is kept as the string
    ["A2.json", artifact("A2", "contracts/A.sol")],
    // an artifact with metadata keeps it
    ["B.json", artifact("B", "contracts/B.sol", { metadata: { kept: true } })],
    // a source without metadata for its contract gets the AST alone
    ["C.json", artifact("C", "contracts/C.sol")],
  ];
  const paths: string[] = [];
  for (const [file, content] of artifacts) {
    paths.push(path.join(root, file));
    await writeFile(path.join(root, file), JSON.stringify(content, null, 2));
  }
  // a declaration file among the paths, as Hardhat lists them
  paths.push(path.join(root, "artifacts.d.ts"));
  await writeFile(path.join(root, "artifacts.d.ts"), "export {};\n");
  return paths;
}

/** Every file of a folder by name, as text. */
async function contents(root: string): Promise<Record<string, string>> {
  const files = await readdir(root, { recursive: true, withFileTypes: true });
  const out: Record<string, string> = {};
  for (const f of files.filter((x) => x.isFile())) {
    const file = path.join(f.parentPath, f.name);
    out[path.relative(root, file)] = await readFile(file, "utf8");
  }
  return out;
}

describe("the artifacts' AST pass (tools/hardhat/artifact-ast-hooks.ts)", function () {
  let dir: string;

  beforeEach(async function () {
    dir = await mkdtemp(path.join(tmpdir(), "artifact-ast-"));
  });

  afterEach(async function () {
    await rm(dir, { recursive: true, force: true });
  });

  describe("injectAstIntoArtifacts", function () {
    it("writes the same bytes as the upgrades plugin's pass, which then finds nothing to do", async function () {
      const ours = path.join(dir, "ours");
      const theirs = path.join(dir, "theirs");
      const paths = await buildFolder(ours);
      await cp(ours, theirs, { recursive: true });
      const before = await contents(ours);

      const written = await injectAstIntoArtifacts(paths, path.join(ours, "build-info"));
      const upgradesPass = await upgradesPluginPass();
      await upgradesPass(
        paths.map((p) => path.join(theirs, path.relative(ours, p))),
        path.join(theirs, "build-info"),
      );

      expect(written.map((p) => path.basename(p))).to.deep.equal(["A.json", "A2.json", "B.json", "C.json"]);
      const after = await contents(ours);
      expect(after).to.deep.equal(await contents(theirs));
      // what changed: the AST everywhere, metadata where there was none and the output has it
      const a = JSON.parse(after["A.json"]) as Record<string, unknown>;
      expect(a.ast).to.deep.equal(ast("contracts/A.sol"));
      expect(a.metadata).to.deep.equal(JSON.parse(metadata("A")));
      expect((JSON.parse(after["A2.json"]) as { metadata: unknown }).metadata).to.equal("not json");
      expect((JSON.parse(after["B.json"]) as { metadata: unknown }).metadata).to.deep.equal({ kept: true });
      expect(JSON.parse(after["C.json"])).to.not.have.property("metadata");
      expect(after["artifacts.d.ts"]).to.equal(before["artifacts.d.ts"]);

      // the upgrades plugin's pass after this one rewrites nothing
      await upgradesPass(paths, path.join(ours, "build-info"));
      expect(await contents(ours)).to.deep.equal(after);
    });

    it("skips an artifact that has its AST: a second pass needs no build-info output and writes nothing", async function () {
      const paths = await buildFolder(dir);
      await injectAstIntoArtifacts(paths, path.join(dir, "build-info"));
      const done = await contents(dir);
      await rm(path.join(dir, "build-info", `${BUILD}.output.json`));

      expect(await injectAstIntoArtifacts(paths, path.join(dir, "build-info"))).to.deep.equal([]);
      const { [`build-info/${BUILD}.output.json`]: _output, ...artifacts } = done;
      expect(await contents(dir)).to.deep.equal(artifacts);
    });

    it("leaves alone what it cannot complete: no build-info output, no AST for the source, another format, unreadable JSON", async function () {
      const paths = await buildFolder(dir);
      const missingBuild = path.join(dir, "MissingBuild.json");
      await writeFile(
        missingBuild,
        JSON.stringify(artifact("M", "contracts/A.sol", { buildInfoId: "solc-none" }), null, 2),
      );
      const noAst = path.join(dir, "NoAst.json");
      await writeFile(noAst, JSON.stringify(artifact("N", "contracts/Other.sol"), null, 2));
      const otherFormat = path.join(dir, "Hh2.json");
      await writeFile(
        otherFormat,
        JSON.stringify({ ...artifact("H", "contracts/A.sol"), _format: "hh-sol-artifact-1" }, null, 2),
      );
      const broken = path.join(dir, "Broken.json");
      await writeFile(broken, "{ not json");
      const untouched = [missingBuild, noAst, otherFormat, broken];
      const before = await Promise.all(untouched.map((f) => readFile(f, "utf8")));

      const written = await injectAstIntoArtifacts([...untouched, ...paths], path.join(dir, "build-info"));

      expect(written.map((p) => path.basename(p))).to.deep.equal(["A.json", "A2.json", "B.json", "C.json"]);
      expect(await Promise.all(untouched.map((f) => readFile(f, "utf8")))).to.deep.equal(before);
    });
  });
});
