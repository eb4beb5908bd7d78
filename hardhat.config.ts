import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import path from "node:path";

import hardhatToolboxMochaEthersPlugin from "@nomicfoundation/hardhat-toolbox-mocha-ethers";
import { configVariable, defineConfig, task } from "hardhat/config";
import { ArgumentType } from "hardhat/types/arguments";

import ozTransientWarning from "./tools/hardhat/oz-transient-warning.js";
import hardhatUpgrades from "./tools/hardhat/upgrades.js";

const require = createRequire(import.meta.url);

/** The compiler is the `solc` npm package's WASM build: no download is needed or possible. */
const SOLC_VERSION = "0.8.30";
const solcPackageVersion = (require("solc/package.json") as { version: string }).version;
if (solcPackageVersion !== SOLC_VERSION) {
  throw new Error(`solc npm package is ${solcPackageVersion}, config expects ${SOLC_VERSION}`);
}

const compiler = {
  version: SOLC_VERSION,
  path: require.resolve("solc/soljson.js"),
  settings: {
    evmVersion: "cancun",
    optimizer: { enabled: true, runs: 200 },
  },
};

/**
 * Real chains: RPC URL and deployer key are configuration variables (Hardhat keystore, or
 * environment variables in CI), never in the repository. Chain types: Arbitrum and Polygon have
 * none of their own in Hardhat, so `generic`.
 */
function liveNetwork(chainId: number, chainType: "l1" | "generic", rpcVariable: string) {
  return {
    type: "http" as const,
    chainType,
    chainId,
    url: configVariable(rpcVariable),
    accounts: [configVariable("DEPLOYER_PRIVATE_KEY")],
  };
}

/** The local devnet's three `hardhat node`s (`npm start`); the devnet task points them at their ports. */
function devnetNetwork(chainId: number, port: number) {
  return { type: "http" as const, chainType: "generic" as const, chainId, url: `http://127.0.0.1:${port}` };
}

const devnetTask = task(
  "devnet",
  "Start three local chains, deploy the protocol, start the gateway, run the demo scenario",
)
  .addFlag({ name: "once", description: "Exit after the demo instead of staying up until Ctrl-C" })
  .addOption({
    name: "basePort",
    description: "Port of the first node (arbitrum); ethereum and polygon take the next two",
    type: ArgumentType.INT,
    defaultValue: 8545,
  })
  .addOption({
    name: "gatewayPort",
    description: "Port of the gateway (HTTP API, GraphQL); GATEWAY_PORT also sets it",
    type: ArgumentType.INT,
    defaultValue: Number(process.env.GATEWAY_PORT ?? 8080),
  })
  .setAction(() => import("./scripts/tasks/devnet.js"))
  .build();

const deployTask = task("deploy-protocol", "Deploy the protocol to the chains of an environment (resumable)")
  .addOption({
    name: "environment",
    description: "mainnet (arbitrum, ethereum, polygon) or testnet (arbitrumSepolia, sepolia, polygonAmoy)",
    defaultValue: "testnet",
  })
  .addOption({
    name: "chains",
    description: "Comma-separated subset of the environment's chains (default: all of them)",
    defaultValue: "",
  })
  .addOption({
    name: "overrides",
    description: "JSON file filling the parameter files' zero placeholders, per chain (deploy/parameters/README.md)",
    defaultValue: "",
  })
  .addOption({
    name: "recordAs",
    description: "Record the deployment under this name instead of the environment's (journals, deployments file)",
    defaultValue: "",
  })
  .setAction(() => import("./scripts/tasks/deploy-protocol.js"))
  .build();

const checkTask = task(
  "check-deployment",
  "Check a deployment on every chain: code, proxies, roles, wiring, parameters, routes, governance",
)
  .addOption({ name: "environment", description: "mainnet or testnet", defaultValue: "testnet" })
  .addOption({
    name: "overrides",
    description: "The overrides file the deployment ran with (its placeholders filled the same way)",
    defaultValue: "",
  })
  .addOption({ name: "recordAs", description: "The name the deployment was recorded under", defaultValue: "" })
  .setAction(() => import("./scripts/tasks/check-deployment.js"))
  .build();

const rehearseTask = task(
  "rehearse",
  "Rehearse an environment's deployment on local nodes: stand-ins, the deploy command, the check, a transfer per route",
)
  .addOption({ name: "environment", description: "mainnet or testnet", defaultValue: "mainnet" })
  .setAction(() => import("./scripts/tasks/rehearse.js"))
  .build();

const verifyTask = task("verify-protocol", "Verify an environment's deployed contracts on the block explorers")
  .addOption({ name: "environment", description: "mainnet or testnet", defaultValue: "testnet" })
  .addOption({ name: "chains", description: "Comma-separated subset of chains", defaultValue: "" })
  .setAction(() => import("./scripts/tasks/verify-protocol.js"))
  .build();

export default defineConfig({
  tasks: [devnetTask, deployTask, checkTask, rehearseTask, verifyTask],
  // hardhatUpgrades: OpenZeppelin's plugin without its artifact pass for Foundry (tools/hardhat/upgrades.ts)
  plugins: [hardhatToolboxMochaEthersPlugin, hardhatUpgrades, ozTransientWarning],
  solidity: {
    profiles: {
      default: compiler,
      production: compiler,
    },
    npmFilesToBuild: ["@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol"],
  },
  paths: {
    // `npx hardhat test` (and `npm run test:contracts`) runs the Solidity tests and the TypeScript tests on the
    // in-process chain; the other tiers' folders run through scripts/test-tier.ts (docs/testing.md).
    tests: {
      mocha: "test/contracts",
      solidity: "test/sol",
    },
  },
  test: {
    // `TEST_REPORT=<file>`: mocha's JSON reporter writes the run there instead of printing it, for
    // `npm run test:report` (passing and failing tests per file, two runs compared: docs/testing.md)
    mocha: {
      ...(process.env.TEST_REPORT ? { reporter: "json", reporterOptions: { output: process.env.TEST_REPORT } } : {}),
      // `TEST_JOBS=<n>` (or `auto`: every core, at least 2 and at most 4) runs the files in n worker processes; the contract
      // tier does (`npm run test:contracts`: each file has its own in-process chain), the integration tier
      // does not (its files share one live deployment through the root hooks below)
      ...(process.env.TEST_JOBS === undefined
        ? {}
        : { parallel: true, jobs: Number(process.env.TEST_JOBS) || Math.min(4, Math.max(2, availableParallelism())) }),
      // The integration tier's one live deployment per run: started before the first test when the run
      // holds a file of test/integration/, stopped after the last (testing/root-hooks.ts, docs/testing.md).
      rootHooks: {
        async beforeAll(this: Mocha.Context) {
          const hooks = await import("./testing/root-hooks.js");
          await hooks.beforeAll.call(this);
        },
        async afterAll(this: Mocha.Context) {
          const hooks = await import("./testing/root-hooks.js");
          await hooks.afterAll.call(this);
        },
      },
    },
    solidity: {
      profiles: {
        // CI and `npm test`: fast
        default: {
          fuzz: { runs: 256 },
          invariant: { runs: 64, depth: 64, failOnRevert: false },
        },
        // `npm run test:deep` (hardhat test solidity --test-profile deep): 10,000 runs of every fuzz
        // test and invariant, in sequences of 32 calls (a suite may pin a longer one with an
        // inline `deep.invariant.depth`, as ProtocolInvariants does with 64), so that the run fits
        // in 30 minutes on a shared 2-core machine (docs/decisions/0052-deep-run-time-budget.md). Inline
        // `hardhat-config:` overrides in test/sol are prefixed with their profile's name so that
        // they do not pin another profile's runs.
        deep: {
          fuzz: { runs: 10_000 },
          invariant: { runs: 10_000, depth: 32, failOnRevert: false },
        },
      },
    },
  },
  typechain: {
    outDir: path.join(import.meta.dirname, "typechain-types"),
  },
  networks: {
    hardhat: {
      type: "edr-simulated",
      chainType: "generic",
    },
    // production
    arbitrum: liveNetwork(42161, "generic", "ARBITRUM_RPC_URL"),
    ethereum: liveNetwork(1, "l1", "ETHEREUM_RPC_URL"),
    polygon: liveNetwork(137, "generic", "POLYGON_RPC_URL"),
    // testnets
    arbitrumSepolia: liveNetwork(421614, "generic", "ARBITRUM_SEPOLIA_RPC_URL"),
    sepolia: liveNetwork(11155111, "l1", "SEPOLIA_RPC_URL"),
    polygonAmoy: liveNetwork(80002, "generic", "POLYGON_AMOY_RPC_URL"),
    // the local devnet (npm start)
    devnetArbitrum: devnetNetwork(42161, 8545),
    devnetEthereum: devnetNetwork(1, 8546),
    devnetPolygon: devnetNetwork(137, 8547),
  },
  verify: {
    // Etherscan API v2: one key for Arbiscan, Etherscan and PolygonScan
    etherscan: { apiKey: configVariable("ETHERSCAN_API_KEY") },
  },
});
