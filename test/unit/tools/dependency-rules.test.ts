import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const DEPCRUISE = path.join(ROOT, "node_modules", "dependency-cruiser", "bin", "dependency-cruiser.mjs");

/** A small tree with the project's layout and the SDK's paths (tsconfig.sdk.json), one file per kind of wrong import. */
const FIXTURE: Record<string, string> = {
  "package.json": JSON.stringify({
    type: "module",
    dependencies: { "runtime-package": "1.0.0" },
    devDependencies: { "build-tool": "1.0.0" },
  }),
  "node_modules/runtime-package/package.json": JSON.stringify({
    name: "runtime-package",
    type: "module",
    main: "index.js",
  }),
  "node_modules/runtime-package/index.js": "export const run = 1;\n",
  "node_modules/build-tool/package.json": JSON.stringify({ name: "build-tool", type: "module", main: "index.js" }),
  "node_modules/build-tool/index.js": "export const build = 1;\n",
  "typechain-types/index.ts": "export const Factory = 1;\n",
  // the gateway runs built, on its dependencies and the SDK's ABIs alone; tests may use anything
  "gateway/uses-runtime-package.ts": 'import { run } from "runtime-package";\nexport const runs = run;\n',
  "gateway/uses-build-tool.ts": 'import { build } from "build-tool";\nexport const builds = build;\n',
  "gateway/uses-bindings.ts":
    'import { Factory } from "../typechain-types/index.js";\nexport const factory = Factory;\n',
  "test/uses-build-tool.ts":
    'import { build } from "build-tool";\nimport { Factory } from "../typechain-types/index.js";\nexport const t = [build, Factory];\n',

  "tsconfig.json": JSON.stringify({
    compilerOptions: {
      module: "node16",
      strict: true,
      rootDir: ".",
      paths: { "@compute-capacity/sdk": ["./sdk/index.ts"], "@compute-capacity/sdk/constants": ["./sdk/constants.ts"] },
    },
  }),
  "sdk/index.ts": 'export { value } from "./value.js";\n',
  "sdk/constants.ts": 'export { Roles } from "./roles.js";\n',
  "sdk/value.ts": "export const value = 1;\n",
  "sdk/roles.ts": "export const Roles = { A: 1 };\n",
  "sdk/reads-files.ts": 'import { readFileSync } from "node:fs";\nexport const read = readFileSync;\n',
  "devnet/helper.ts": "export const helper = 1;\n",
  "gateway/right.ts": 'import { value } from "@compute-capacity/sdk";\nexport const right = value;\n',
  "gateway/wrong.ts": 'import { helper } from "../devnet/helper.js";\nexport const wrong = helper;\n',
  "gateway/ping.ts": 'import { pong } from "./pong.js";\nexport const ping = () => pong;\n',
  "gateway/pong.ts": 'import { ping } from "./ping.js";\nexport const pong = () => ping;\n',
  "deploy/roles-only.ts": 'import { Roles } from "@compute-capacity/sdk/constants";\nexport const roles = Roles;\n',
  "deploy/operations.ts": 'import { value } from "@compute-capacity/sdk";\nexport const operations = value;\n',
  "tools/by-path.ts": 'import { value } from "../sdk/value.js";\nexport const byPath = value;\n',
  "devnet/uses-test.ts": 'import { fixture } from "../test/fixture.js";\nexport const usesTest = fixture;\n',
  "test/fixture.ts": "export const fixture = 1;\n",
  "provider/right.ts":
    'import { readFileSync } from "node:fs";\nimport { value } from "@compute-capacity/sdk";\nexport const right = [value, readFileSync];\n',
  "provider/wrong.ts": 'import { right } from "../gateway/right.js";\nexport const wrong = right;\n',
  "gateway/uses-provider.ts": 'import { right } from "../provider/right.js";\nexport const usesProvider = right;\n',
  // the devnet runs the provider agent in its process: allowed (docs/architecture.md)
  "devnet/runs-agent.ts": 'import { right } from "../provider/right.js";\nexport const runsAgent = right;\n',
  // test support: testing/ may use the product; test/ and tools/ (benchmarks) may use it, the product may not
  "testing/support.ts": 'import { helper } from "../devnet/helper.js";\nexport const support = helper;\n',
  "test/uses-support.ts": 'import { support } from "../testing/support.js";\nexport const usesSupport = support;\n',
  "tools/bench.ts": 'import { support } from "../testing/support.js";\nexport const bench = support;\n',
  "devnet/uses-support.ts": 'import { support } from "../testing/support.js";\nexport const demo = support;\n',
  "gateway/uses-support.ts": 'import { support } from "../testing/support.js";\nexport const served = support;\n',
  "testing/uses-bench.ts": 'import { bench } from "../tools/bench.js";\nexport const usesBench = bench;\n',
  // the gateway's inner layers: store < api (vocabulary) < indexer < services < http (edge) < server.ts
  "gateway/store/rows.ts": "export const rows = 1;\n",
  "gateway/api/errors.ts": 'import { rows } from "../store/rows.js";\nexport const errors = rows;\n',
  "gateway/indexer/sink.ts": 'import { rows } from "../store/rows.js";\nexport const sink = rows;\n',
  "gateway/writes/service.ts": 'import { errors } from "../api/errors.js";\nexport const service = errors;\n',
  "gateway/webhooks/outbox.ts": 'import { sink } from "../indexer/sink.js";\nexport const outbox = sink;\n',
  "gateway/http/routes.ts":
    'import { service } from "../writes/service.js";\nimport { errors } from "../api/errors.js";\nexport const routes = [service, errors];\n',
  "gateway/server.ts": 'import { routes } from "./http/routes.js";\nexport const server = routes;\n',
  "gateway/writes/uses-edge.ts": 'import { routes } from "../http/routes.js";\nexport const usesEdge = routes;\n',
  "gateway/api/uses-service.ts":
    'import { service } from "../writes/service.js";\nexport const usesService = service;\n',
  "gateway/store/uses-vocabulary.ts":
    'import { errors } from "../api/errors.js";\nexport const usesVocabulary = errors;\n',
  "gateway/writes/uses-fastify.ts":
    'import type { FastifyRequest } from "fastify";\nexport type UsesFastify = FastifyRequest;\n',
  "gateway/indexer/uses-outbox.ts":
    'import { outbox } from "../webhooks/outbox.js";\nexport const usesOutbox = outbox;\n',
};

function cruise(cwd: string, outputType: "err-long" | "json") {
  return spawnSync(
    process.execPath,
    [
      DEPCRUISE,

      "--config",
      path.join(ROOT, ".dependency-cruiser.cjs"),
      "--output-type",
      outputType,
      "sdk",
      "deploy",
      "devnet",
      "gateway",
      "provider",
      "tools",
      "test",
      "testing",
    ],
    { cwd, encoding: "utf8" },
  );
}

describe("npm run lint:deps (the layers' import directions, .dependency-cruiser.cjs)", function () {
  this.timeout(60_000);
  let dir: string;

  before(async function () {
    dir = await mkdtemp(path.join(tmpdir(), "dependency-rules-"));
    for (const [file, content] of Object.entries(FIXTURE)) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), content);
    }
  });

  after(async function () {
    await rm(dir, { recursive: true, force: true });
  });

  it("rejects each wrong import and the cycle, and nothing else", function () {
    const result = cruise(dir, "json");
    const { summary } = JSON.parse(result.stdout) as {
      summary: { violations: Array<{ rule: { name: string }; from: string; to: string; cycle?: unknown[] }> };
    };
    const found = summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
    expect(found).to.deep.equal(
      [
        "deploy-reads-sdk-constants-only: deploy/operations.ts -> sdk/index.ts",
        "gateway-edge-on-top: gateway/writes/uses-edge.ts -> gateway/http/routes.ts",
        "gateway-fastify-only-at-the-edge: gateway/writes/uses-fastify.ts -> fastify",
        "gateway-vocabulary-below-services: gateway/api/uses-service.ts -> gateway/writes/service.ts",
        "gateway-store-at-the-bottom: gateway/store/uses-vocabulary.ts -> gateway/api/errors.ts",
        "gateway-indexer-defines-its-port: gateway/indexer/uses-outbox.ts -> gateway/webhooks/outbox.ts",
        "devnet-below-tools-and-entry-points: devnet/uses-support.ts -> testing/support.ts",
        "devnet-below-tools-and-entry-points: devnet/uses-test.ts -> test/fixture.ts",
        "gateway-imports-sdk-only: gateway/uses-provider.ts -> provider/right.ts",
        "gateway-runs-on-its-dependencies: gateway/uses-build-tool.ts -> node_modules/build-tool/index.js",
        "gateway-without-the-solidity-build: gateway/uses-bindings.ts -> typechain-types/index.ts",
        "gateway-imports-sdk-only: gateway/uses-support.ts -> testing/support.ts",
        "gateway-imports-sdk-only: gateway/wrong.ts -> devnet/helper.ts",
        "no-circular: gateway/ping.ts -> gateway/pong.ts",
        "only-tests-and-tools-import-testing: devnet/uses-support.ts -> testing/support.ts",
        "only-tests-and-tools-import-testing: gateway/uses-support.ts -> testing/support.ts",
        "only-tests-import-tests: devnet/uses-test.ts -> test/fixture.ts",
        "testing-below-tests: testing/uses-bench.ts -> tools/bench.ts",
        "provider-imports-sdk-only: provider/wrong.ts -> gateway/right.ts",
        "sdk-no-node-builtins: sdk/reads-files.ts -> fs",
        "sdk-through-its-name: tools/by-path.ts -> sdk/value.ts",
      ].sort(),
    );
  });

  it("says what is wrong and where, as npm run lint prints it", function () {
    const result = cruise(dir, "err-long");
    const output = result.stdout.replace(/\u001b\[[0-9;]*m/g, "").replace(/\s+/g, " ");
    expect(output).to.contain(
      "error gateway-imports-sdk-only: gateway/wrong.ts → devnet/helper.ts " +
        "gateway/ imports the SDK, never deploy/, devnet/, tools/, scripts/ or test/.",
    );
    expect(output).to.contain(
      "error no-circular: gateway/ping.ts → gateway/pong.ts → gateway/ping.ts " +
        "An import cycle: split the shared piece into its own module.",
    );
    expect(output).to.contain(
      "error only-tests-and-tools-import-testing: gateway/uses-support.ts → testing/support.ts " +
        "testing/ is test support (live deployments, receivers, mail catcher, proxies, the redemption and governance steps over TypeChain contracts): only test/, tools/ (benchmarks), the portal's browser tests, testing/ itself and the test runner's root hooks in hardhat.config.ts (the integration tier's shared deployment) import it, never the product.",
    );
    expect(output).to.contain(
      "error gateway-edge-on-top: gateway/writes/uses-edge.ts → gateway/http/routes.ts " +
        "gateway/http/ is the HTTP edge (Fastify plugins and routes): only the gateway's composition (gateway/server.ts) imports it; the vocabulary, the store, the indexer and the services never do.",
    );
    expect(output).to.contain("x 21 dependency violations (21 errors, 0 warnings)");
    expect(result.status).to.equal(21); // npm run lint fails
  });
});
