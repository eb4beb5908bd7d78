import { expect } from "chai";
import hre, { network } from "hardhat";
import { upgrades } from "@openzeppelin/hardhat-upgrades";

const connection = await network.create();
const { ethers } = connection;
const api = await upgrades(hre, connection);

/** UUPS contracts and the constructor arguments of their implementations (immutables). */
const PLACEHOLDER = "0x000000000000000000000000000000000000dEaD";
const UUPS_CONTRACTS: Record<string, unknown[]> = {
  SSTB: [],
  ProviderRegistry: [],
  MintingAgent: [PLACEHOLDER, PLACEHOLDER, PLACEHOLDER],
  RedemptionManager: [PLACEHOLDER, PLACEHOLDER],
  SpotMarket: [PLACEHOLDER, PLACEHOLDER],
  FuturesMarket: [PLACEHOLDER, PLACEHOLDER],
  OptionsMarket: [PLACEHOLDER, PLACEHOLDER],
  // router, local chain selector (non-zero), sSTB, governance token, stablecoin, escrows governance
  Bridge: [PLACEHOLDER, 1n, PLACEHOLDER, PLACEHOLDER, PLACEHOLDER, true],
};

describe("Storage layout (UUPS contracts)", function () {
  for (const [name, constructorArgs] of Object.entries(UUPS_CONTRACTS)) {
    it(`${name} passes the upgrades plugin's upgrade-safety validation`, async function () {
      const factory = await ethers.getContractFactory(name);
      // The engine encodes `constructorArgs` while validating (engine/deploy-impl.js), but the
      // plugin's option types for the validate functions omit the field.
      const opts = { kind: "uups", constructorArgs } as Parameters<typeof api.validateImplementation>[1];
      await api.validateImplementation(factory, opts);
      // and is upgrade-compatible with itself (namespaced layout parsed and compared)
      await api.validateUpgrade(factory, factory, opts);
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
