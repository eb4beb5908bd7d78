import { readFile, readdir } from "node:fs/promises";
import path from "node:path";

import { expect } from "chai";

import * as root from "@compute-capacity/sdk";
import * as abis from "@compute-capacity/sdk/abis";
import * as actions from "@compute-capacity/sdk/actions";
import * as api from "@compute-capacity/sdk/api";
import * as constants from "@compute-capacity/sdk/constants";
import * as webhooks from "@compute-capacity/sdk/webhooks";

const ROOT = path.resolve(import.meta.dirname, "../../..");

interface PackageJson {
  name: string;
  version: string;
  type: string;
  sideEffects: boolean;
  exports: Record<string, string | { types: string; default: string }>;
  files: string[];
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
}

const readJson = async <T>(file: string): Promise<T> =>
  JSON.parse((await readFile(path.join(ROOT, file), "utf8")).replace(/^\s*\/\/.*$/gm, "")) as T;

describe("the SDK's package (sdk/package.json) and how the repository imports it", function () {
  it("is an ESM-only, side-effect-free 0.x package whose entries each have types and JavaScript in dist/", async function () {
    const pkg = await readJson<PackageJson>("sdk/package.json");
    expect(pkg).to.include({ name: "@compute-capacity/sdk", type: "module", sideEffects: false });
    expect(pkg.version).to.match(/^0\.\d+\.\d+$/);
    expect(pkg.files.filter((f) => !f.startsWith("!"))).to.deep.equal(["dist", "CHANGELOG.md"]);
    for (const [subpath, target] of Object.entries(pkg.exports)) {
      if (subpath === "./package.json") continue;
      expect(target, subpath).to.have.keys(["types", "default"]);
      const { types, default: js } = target as { types: string; default: string };
      expect(Object.keys(target as object)[0], `${subpath}: types first`).to.equal("types");
      expect(js).to.match(/^\.\/dist\/.+\.js$/);
      expect(types).to.equal(js.replace(/\.js$/, ".d.ts"));
    }
  });

  it("declares what it imports at run time: @noble/* and openapi-fetch pinned as installed, ethers as a peer", async function () {
    const pkg = await readJson<PackageJson>("sdk/package.json");
    for (const [name, version] of Object.entries(pkg.dependencies)) {
      const installed = await readJson<{ version: string }>(`node_modules/${name}/package.json`);
      expect(version, name).to.equal(installed.version);
    }
    // every package the SDK's source imports, by its name
    const imported = new Set<string>();
    for (const file of await readdir(path.join(ROOT, "sdk"), { recursive: true })) {
      if (!file.endsWith(".ts") || file.startsWith("dist")) continue;
      const source = await readFile(path.join(ROOT, "sdk", file), "utf8");
      for (const [, specifier] of source.matchAll(/(?:from|import)\s+"([^".][^"]*)"/g)) {
        imported.add(
          specifier!.startsWith("@") ? specifier!.split("/").slice(0, 2).join("/") : specifier!.split("/")[0]!,
        );
      }
    }
    expect([...imported].sort()).to.deep.equal(
      [...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)].sort(),
    );
    const [floor] = /\d+\.\d+\.\d+/.exec(pkg.peerDependencies.ethers!)!;
    const installed = (await readJson<{ version: string }>("node_modules/ethers/package.json")).version;
    expect(pkg.peerDependencies.ethers).to.equal(`^${floor}`);
    expect(installed.split(".")[0]).to.equal(floor!.split(".")[0]); // the repository tests the top of the range
  });

  it("maps every entry to its source in tsconfig.sdk.json, which every tsconfig extends", async function () {
    const pkg = await readJson<PackageJson>("sdk/package.json");
    const { compilerOptions } = await readJson<{ compilerOptions: { paths: Record<string, string[]> } }>(
      "tsconfig.sdk.json",
    );
    const expected: Record<string, string[]> = {};
    for (const [subpath, target] of Object.entries(pkg.exports)) {
      if (subpath === "./package.json") continue;
      const source = (target as { default: string }).default.replace(/^\.\/dist\//, "./sdk/").replace(/\.js$/, ".ts");
      expected[subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`] = [source];
    }
    expect(compilerOptions.paths).to.deep.equal(expected);
    for (const file of ["tsconfig.json", "portal/tsconfig.json", "portal/e2e/tsconfig.json"]) {
      const config = await readJson<{ extends: string }>(file);
      expect(path.resolve(ROOT, path.dirname(file), config.extends), file).to.equal(
        path.join(ROOT, "tsconfig.sdk.json"),
      );
    }
  });

  it("exports from its root every name of every other entry, and nothing of the test support", function () {
    for (const [entry, names] of Object.entries({ abis, actions, api, constants, webhooks })) {
      for (const name of Object.keys(names)) {
        expect(root, `${entry}.${name} missing from the root entry`).to.have.property(name);
        expect((root as Record<string, unknown>)[name], `${entry}.${name}`).to.equal(
          (names as Record<string, unknown>)[name],
        );
      }
    }
    for (const gone of [
      "redeem",
      "fulfilEncrypted",
      "readAccessDetails",
      "sampleVerifierKeys",
      "PROTOCOL_INTERFACES",
    ]) {
      expect(root).to.not.have.property(gone);
    }
  });
});
