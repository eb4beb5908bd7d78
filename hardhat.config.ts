import { createRequire } from "node:module";
import path from "node:path";

import hardhatToolboxMochaEthersPlugin from "@nomicfoundation/hardhat-toolbox-mocha-ethers";
import hardhatUpgrades from "@openzeppelin/hardhat-upgrades";
import { defineConfig } from "hardhat/config";

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

export default defineConfig({
  plugins: [hardhatToolboxMochaEthersPlugin, hardhatUpgrades],
  solidity: {
    profiles: {
      default: compiler,
      production: compiler,
    },
    npmFilesToBuild: ["@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol"],
  },
  paths: {
    tests: {
      mocha: "test/ts",
      solidity: "test/sol",
    },
  },
  test: {
    solidity: {
      fuzz: { runs: 256 },
      invariant: { runs: 64, depth: 64, failOnRevert: false },
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
  },
});
