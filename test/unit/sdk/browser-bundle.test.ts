import { builtinModules } from "node:module";
import path from "node:path";
import vm from "node:vm";

import { expect } from "chai";
import { build } from "esbuild";
import type { BuildOptions, Message, Plugin } from "esbuild";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** Fails the build on any import of a Node built-in, naming the importer (esbuild alone only fails on `node:`). */
const noNodeBuiltins: Plugin = {
  name: "no-node-builtins",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /.*/ }, (args) =>
      NODE_BUILTINS.has(args.path)
        ? { errors: [{ text: `Node built-in "${args.path}" imported by ${path.relative(ROOT, args.importer)}` }] }
        : undefined,
    );
  },
};

/** The portal's bundle of the SDK: browser platform, ESM dependencies, the package's own import map. */
function browserBuild(options: BuildOptions) {
  return build({
    bundle: true,
    platform: "browser",
    format: "iife",
    globalName: "sdk",
    write: false,
    logLevel: "silent",
    absWorkingDir: ROOT,
    plugins: [noNodeBuiltins],
    ...options,
  });
}

/** The error texts of a build that must fail. */
async function buildErrors(options: BuildOptions): Promise<string[]> {
  try {
    await browserBuild(options);
  } catch (error) {
    return ((error as { errors?: Message[] }).errors ?? []).map((e) => e.text);
  }
  throw new Error("the build succeeded");
}

describe("the SDK in a browser bundle (esbuild, platform browser)", function () {
  this.timeout(120_000);

  it("bundles sdk/index.ts with no Node built-in and runs it where only web globals exist", async function () {
    const result = await browserBuild({ entryPoints: ["sdk/index.ts"] });
    expect(result.errors).to.deep.equal([]);
    const code = result.outputFiles![0].text;
    // a browser-like global scope: no require, process, Buffer or module
    const context: Record<string, unknown> = vm.createContext({
      crypto: globalThis.crypto,
      TextEncoder,
      TextDecoder,
      atob,
      btoa,
      URL,
      console,
      setTimeout,
      clearTimeout,
    });
    context.self = context; // as in a page or worker
    context.window = context;
    vm.runInContext(code, context);
    const sdk = context.sdk as Record<string, unknown>;
    expect(Object.keys(sdk)).to.include.members(["createProtocolClient", "deriveAccessKeyPair", "createApiClient"]);
    const run = (source: string) => vm.runInContext(source, context) as unknown;
    // envelope round trip and a webhook signature, inside the browser-like scope
    expect(
      run(`(() => {
        const keys = sdk.generateAccessKeyPair();
        const context = { chainId: 42161n, redemptionManager: "0x" + "aa".repeat(20), redemptionId: 1n };
        const details = { redemption_id: "1", access_type: "ssh", hostname: "h.example", port: 22, username: "u",
          ssh_key: "ssh-ed25519 AAAA", expiration: "2030-01-01T00:00:00Z", documentation_url: "https://d.example",
          resources: { cpu_cores: 1, memory_gb: 1, storage_gb: 1, bandwidth_mbps: 1 } };
        const envelope = sdk.encryptAccessDetails(details, keys.publicKey, context);
        return sdk.decryptAccessDetails(envelope, keys.privateKey, context).hostname;
      })()`),
    ).to.equal("h.example");
    expect(run(`sdk.verifySignature("{}", sdk.signBody("{}", "s"), "s")`)).to.equal(true);
    expect(code).to.not.match(/require\("(node:)?(crypto|fs|http|path|child_process)"\)/);
  });

  it("fails on a Node built-in, with or without the node: prefix", async function () {
    const errors = await buildErrors({
      stdin: {
        contents: 'import { createHmac } from "node:crypto";\nimport fs from "fs";\nexport { createHmac, fs };\n',
        resolveDir: path.join(ROOT, "sdk"),
        sourcefile: "bad.ts",
        loader: "ts",
      },
    });
    expect(errors).to.deep.equal([
      'Node built-in "node:crypto" imported by sdk/bad.ts',
      'Node built-in "fs" imported by sdk/bad.ts',
    ]);
  });
});
