import { expect } from "chai";
import hre, { network } from "hardhat";
import { upgrades } from "@openzeppelin/hardhat-upgrades";

const connection = await network.create();
const { ethers } = connection;
const api = await upgrades(hre, connection);

const UUPS_CONTRACTS = ["SSTB", "ProviderRegistry", "MintingAgent"] as const;

describe("Storage layout (UUPS contracts)", function () {
  for (const name of UUPS_CONTRACTS) {
    it(`${name} passes the upgrades plugin's upgrade-safety validation`, async function () {
      const factory = await ethers.getContractFactory(name);
      await api.validateImplementation(factory, { kind: "uups" });
      // and is upgrade-compatible with itself (namespaced layout parsed and compared)
      await api.validateUpgrade(factory, factory, { kind: "uups" });
    });
  }

  it("the plugin rejects an upgrade that breaks the namespaced layout", async function () {
    const current = await ethers.getContractFactory("ProviderRegistry");
    const broken = await ethers.getContractFactory("ProviderRegistryBrokenLayoutV2");
    await expect(api.validateUpgrade(current, broken, { kind: "uups" })).to.be.rejectedWith(
      /New storage layout is incompatible/,
    );
  });
});
