import { readFile, readdir } from "node:fs/promises";
import path from "node:path";

import { expect } from "chai";
import { Interface } from "ethers";
import { artifacts } from "hardhat";

import { contractAbis } from "@compute-capacity/sdk";
import { ABIS_DIR, SDK_CONTRACTS, abiNameOf, renderAbiModules } from "../../../tools/sdk-abis.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");

/**
 * The SDK's ABI modules against the compiled contracts: these read the build's artifacts, so they run in
 * the contract tier, after its build (the unit tier needs no build: test/unit/sdk/abis.test.ts holds the
 * modules' own behaviour).
 */
describe("the SDK's ABI modules against the compiled contracts (sdk/abis/, npm run sdk:abis)", function () {
  this.timeout(60_000);

  it("are what npm run sdk:abis generates from the compiled contracts today, and nothing else", async function () {
    const generated = await renderAbiModules(ROOT);
    const committed = (await readdir(path.join(ROOT, ABIS_DIR))).map((name) => `${ABIS_DIR}/${name}`).sort();
    expect(committed, `run npm run sdk:abis: ${ABIS_DIR}/ has other files than it writes`).to.deep.equal(
      [...generated.keys()].sort(),
    );
    for (const [file, text] of generated) {
      const current = await readFile(path.join(ROOT, file), "utf8");
      if (current !== text) expect.fail(`${file} is stale: run npm run sdk:abis`);
    }
  });

  it("hold each contract's functions, events and errors as compiled, with no bytecode", async function () {
    for (const contract of SDK_CONTRACTS) {
      const abi = contractAbis[contract];
      const fromArtifact = new Interface((await artifacts.readArtifact(contract)).abi as never);
      expect(new Interface(abi as never).format(), contract).to.deep.equal(fromArtifact.format());
      expect(abiNameOf(contract)).to.match(/^[a-z][A-Za-z]*$/);
    }
    for (const name of await readdir(path.join(ROOT, ABIS_DIR))) {
      expect(await readFile(path.join(ROOT, ABIS_DIR, name), "utf8")).to.not.match(/bytecode|0x60806040/);
    }
  });
});
