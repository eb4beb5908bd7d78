/**
 * The layers' import directions (docs/architecture.md), checked by `npm run lint:deps`:
 * entry points (scripts/, hardhat.config.ts) -> devnet/, tools/, gateway/, portal/, provider/ -> sdk/;
 * deploy/ (beside devnet) reads only the SDK's constants modules; the devnet runs the gateway and the
 * provider agent in its process; testing/ (test support) is imported only by test/, tools/ and the
 * portal's browser tests; test/ may import anything.
 * Inside the gateway: store/ < api/ (the vocabulary) < indexer/ < the services < http/ (the edge) < server.ts.
 * Every rule is an error; test/unit/tools/dependency-rules.test.ts shows each one catching a wrong import.
 */
const LAYERS_ABOVE_SDK = "^(deploy|devnet|gateway|portal|provider|scripts|test|testing|tools)/";
const SDK_CONSTANTS = "^sdk/(constants|roles|chains|bridge|deployments|markets)[.]ts$";

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import cycle: split the shared piece into its own module.",
      from: {},
      to: { circular: true },
    },
    {
      name: "sdk-no-node-builtins",
      severity: "error",
      comment:
        "sdk/ runs in the browser: no Node built-in (node:*); Node-only code lives in devnet/, gateway/, deploy/ or tools/ (the package's own build scripts, sdk/*.mjs, are not SDK code).",
      from: { path: "^sdk/", pathNot: "^sdk/[^/]+[.]mjs$" },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "sdk-imports-no-layer",
      severity: "error",
      comment: "sdk/ is the bottom layer: it imports only itself, packages and typechain-types/.",
      from: { path: "^sdk/" },
      to: { path: LAYERS_ABOVE_SDK },
    },
    {
      name: "sdk-through-its-name",
      severity: "error",
      comment:
        'Import the SDK by its package name, "@compute-capacity/sdk" or one of its entries (tsconfig.sdk.json), not by a relative path.',
      from: { pathNot: "^sdk/" },
      to: { path: "^sdk/", dependencyTypesNot: ["aliased-tsconfig-paths"] },
    },
    {
      name: "sdk-constants-are-leaves",
      severity: "error",
      comment: "The constants modules deploy/ may read import no other SDK module.",
      from: { path: SDK_CONSTANTS },
      to: { path: "^sdk/", pathNot: SDK_CONSTANTS },
    },
    {
      name: "deploy-reads-sdk-constants-only",
      severity: "error",
      comment: "deploy/ imports only the SDK's constants: @compute-capacity/sdk/constants.",
      from: { path: "^deploy/" },
      to: { path: "^sdk/", pathNot: SDK_CONSTANTS },
    },
    {
      name: "deploy-imports-no-operations",
      severity: "error",
      comment: "deploy/ does not depend on the devnet, the gateway, the tools or the entry points.",
      from: { path: "^deploy/" },
      to: { path: "^(devnet|gateway|portal|provider|scripts|test|testing|tools)/" },
    },
    {
      name: "gateway-imports-sdk-only",
      severity: "error",
      comment: "gateway/ imports the SDK, never deploy/, devnet/, tools/, scripts/ or test/.",
      from: { path: "^gateway/" },
      to: { path: "^(deploy|devnet|portal|provider|scripts|test|testing|tools)/" },
    },
    {
      name: "gateway-edge-on-top",
      severity: "error",
      comment:
        "gateway/http/ is the HTTP edge (Fastify plugins and routes): only the gateway's composition (gateway/server.ts) imports it; the vocabulary, the store, the indexer and the services never do.",
      from: { path: "^gateway/", pathNot: "^gateway/(http/|server[.]ts$)" },
      to: { path: "^gateway/http/" },
    },
    {
      name: "gateway-fastify-only-at-the-edge",
      severity: "error",
      comment:
        "Fastify (and its plugins, mercurius) is the edge's: outside gateway/http/ only gateway/server.ts, which starts the app, imports it.",
      from: { path: "^gateway/", pathNot: "^gateway/(http/|server[.]ts$)" },
      to: { path: "^(node_modules/)?(fastify|fastify-plugin|@fastify/[^/]+|mercurius)(/|$)" },
    },
    {
      name: "gateway-vocabulary-below-services",
      severity: "error",
      comment:
        "gateway/api/ (the API's vocabulary: errors, item formats, schemas, amounts) sits below every service: it imports only itself and the store's row types.",
      from: { path: "^gateway/api/" },
      to: { path: "^gateway/", pathNot: "^gateway/(api|store)/" },
    },
    {
      name: "gateway-store-at-the-bottom",
      severity: "error",
      comment: "gateway/store/ (tables and queries) imports no other part of the gateway.",
      from: { path: "^gateway/store/" },
      to: { path: "^gateway/", pathNot: "^gateway/store/" },
    },
    {
      name: "gateway-indexer-defines-its-port",
      severity: "error",
      comment:
        "gateway/indexer/ writes the store and tells its sink through its own port (indexer/sink.ts, which the webhook outbox implements): it imports no service and not the edge.",
      from: { path: "^gateway/indexer/" },
      to: { path: "^gateway/(accounts|auth|graphql|http|session|verification|webhooks|writes)/" },
    },
    {
      name: "gateway-runs-on-its-dependencies",
      severity: "error",
      comment:
        "gateway/ runs built under plain Node (npm run build:gateway, docs/gateway.md): it imports packages of package.json's dependencies only, never a devDependency (Hardhat, tsx, ...), which a production install omits.",
      from: { path: "^gateway/", pathNot: "^gateway/drizzle[.]config[.]ts$" },
      to: { dependencyTypes: ["npm-dev"] },
    },
    {
      name: "gateway-without-the-solidity-build",
      severity: "error",
      comment:
        "gateway/ needs no Solidity build: the contracts' ABIs come from the SDK package (@compute-capacity/sdk/abis), never typechain-types/ or artifacts/.",
      from: { path: "^gateway/" },
      to: { path: "^(typechain-types|artifacts|cache)/" },
    },
    {
      name: "portal-imports-sdk-only",
      severity: "error",
      comment:
        "portal/ runs in the browser on the SDK alone (its browser tests, portal/e2e/, drive the devnet like test/ does).",
      from: { path: "^portal/", pathNot: "^portal/(e2e/|playwright[.]config[.]ts$)" },
      to: { path: "^(deploy|devnet|gateway|provider|scripts|test|testing|tools)/" },
    },
    {
      name: "provider-imports-sdk-only",
      severity: "error",
      comment:
        "provider/ (the provider agent) runs on the SDK, packages and Node built-ins alone: never deploy/, devnet/, gateway/, portal/, tools/, scripts/ or test/.",
      from: { path: "^provider/" },
      to: { path: "^(deploy|devnet|gateway|portal|scripts|test|testing|tools)/" },
    },
    {
      name: "portal-no-node-builtins",
      severity: "error",
      comment: "portal/src/ is browser code: no Node built-in.",
      from: { path: "^portal/src/" },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "portal-features-independent",
      severity: "error",
      comment:
        "A portal feature does not import another feature (STYLE-WEB.md B2): shared code goes in portal/src/{components,lib}, features meet in app/.",
      from: { path: "^portal/src/features/([^/]+)/" },
      to: { path: "^portal/src/features/", pathNot: "^portal/src/features/$1/" },
    },
    {
      name: "portal-shared-below-features",
      severity: "error",
      comment: "portal/src/{components,lib,config} are shared by the features and import none of them (or app/).",
      from: { path: "^portal/src/(components|lib|config)/" },
      to: { path: "^portal/src/(features|app)/" },
    },
    {
      name: "devnet-below-tools-and-entry-points",
      severity: "error",
      comment:
        "devnet/ (npm start) may import gateway/, provider/ (it runs both in its process), deploy/ and the SDK; not tools/, scripts/, test/ or the test support in testing/.",
      from: { path: "^devnet/" },
      to: { path: "^(portal|scripts|test|testing|tools)/" },
    },
    {
      name: "tools-below-entry-points",
      severity: "error",
      comment:
        "tools/ may import devnet/, deploy/, gateway/, testing/ (the benchmarks) and the SDK, not scripts/ or test/.",
      from: { path: "^tools/" },
      to: { path: "^(portal|provider|scripts|test)/" },
    },
    {
      name: "only-scripts-import-scripts",
      severity: "error",
      comment:
        "scripts/ holds entry points: nothing outside scripts/ (but hardhat.config.ts, which registers the tasks) imports them.",
      from: { pathNot: "^(scripts/|hardhat[.]config[.]ts$)" },
      to: { path: "^scripts/" },
    },
    {
      name: "only-tests-import-tests",
      severity: "error",
      comment: "Nothing outside test/ imports test/: support shared with tools and benchmarks lives in testing/.",
      from: { pathNot: "^test/" },
      to: { path: "^test/" },
    },
    {
      name: "only-tests-and-tools-import-testing",
      severity: "error",
      comment:
        "testing/ is test support (live deployments, receivers, mail catcher, proxies, the redemption and governance steps over TypeChain contracts): only test/, tools/ (benchmarks), the portal's browser tests, testing/ itself and the test runner's root hooks in hardhat.config.ts (the integration tier's shared deployment) import it, never the product.",
      from: { pathNot: "^((test|tools|testing|portal/e2e)/|hardhat[.]config[.]ts$)" },
      to: { path: "^testing/" },
    },
    {
      name: "testing-below-tests",
      severity: "error",
      comment: "testing/ may import the product layers, not tests, tools or entry points.",
      from: { path: "^testing/" },
      to: { path: "^(portal|scripts|test|tools)/" },
    },
  ],
  options: {
    doNotFollow: { path: ["node_modules", "typechain-types"] },
    // node_modules/ and typechain-types/ are not followed but stay visible as imported modules, so that
    // the gateway's two rules above see an import of a devDependency or of the bindings
    exclude: {
      path: ["^artifacts", "^cache", "^coverage", "^portal/dist", "^portal/e2e/\\.results", "^sdk/dist", "^dist/"],
    },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json", ".d.ts"],
    },
    skipAnalysisNotInRules: true,
  },
};
