import { expect } from "chai";
import { network } from "hardhat";
import type { BaseContract, ContractFactory, Signer } from "ethers";

import {
  AttestationVerifier__factory,
  Bridge__factory,
  ERC1967Proxy__factory,
  FuturesMarket__factory,
  GovernanceToken__factory,
  MintingAgent__factory,
  OptionsMarket__factory,
  ProviderRegistry__factory,
  RedemptionManager__factory,
  SSTB__factory,
  SatelliteExecutor__factory,
  SpotMarket__factory,
} from "../../../typechain-types/index.js";
import { COLLATERAL_PER_CU, GOVERNANCE_SUPPLY, deployProtocol } from "../../helpers/protocol.js";
import type { ProtocolFixture } from "../../helpers/protocol.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture } = networkHelpers;
const ZERO = ethers.ZeroAddress;

/** A deployment whose contracts serve as the non-zero collaborators of fresh deployments. */
async function fixture(): Promise<ProtocolFixture & { addresses: Record<string, string> }> {
  const f = await deployProtocol(connection);
  const addresses = {
    registry: await f.registry.getAddress(),
    cuToken: await f.cuToken.getAddress(),
    sstb: await f.sstb.getAddress(),
    verifier: await f.verifier.getAddress(),
    collateral: await f.collateral.getAddress(),
    governanceToken: await f.governanceToken.getAddress(),
    bridge: await f.bridge.getAddress(),
    router: await f.router!.getAddress(),
    timelock: await f.timelock.getAddress(),
  };
  return { ...f, addresses };
}

/** `args` with the argument at `index` replaced by the zero address. */
function zeroed<T extends readonly unknown[]>(args: T, index: number): T {
  return args.map((a, i) => (i === index ? ZERO : a)) as unknown as T;
}

/**
 * Deploys an ERC1967Proxy whose constructor runs `initialize(args)` on `implementation`, as the
 * deployment does (deploy/modules/uups.ts).
 */
async function deployProxy(deployer: Signer, implementation: BaseContract, args: unknown[]): Promise<BaseContract> {
  const data = implementation.interface.encodeFunctionData("initialize", args);
  return new ERC1967Proxy__factory(deployer).deploy(await implementation.getAddress(), data);
}

/** Each case: the argument's name, and the call with that argument zeroed. */
type Case = [name: string, deploy: () => Promise<unknown>];

async function expectRefusals(cases: Case[], errorSource: BaseContract | ContractFactory, error: string) {
  for (const [name, deploy] of cases) {
    await expect(deploy(), `zero ${name}`).to.be.revertedWithCustomError(errorSource, error);
  }
}

describe("zero-address refusals of constructors and initializers", function () {
  describe("MintingAgent constructor", function () {
    it("refuses a zero registry, CU token or sSTB", async function () {
      const f = await loadFixture(fixture);
      const factory = new MintingAgent__factory(f.deployer);
      const args = [f.addresses.registry, f.addresses.cuToken, f.addresses.sstb] as const;
      await expect(factory.deploy(...args)).to.not.be.revert(ethers);
      await expectRefusals(
        ["registry", "cuToken", "sstb"].map((name, i): Case => [name, () => factory.deploy(...zeroed(args, i))]),
        factory,
        "ZeroAddress",
      );
    });
  });

  describe("MintingAgent.initialize", function () {
    it("refuses a zero admin or verifier", async function () {
      const f = await loadFixture(fixture);
      const implementation = await new MintingAgent__factory(f.deployer).deploy(
        f.addresses.registry,
        f.addresses.cuToken,
        f.addresses.sstb,
      );
      const args = [f.deployer.address, f.addresses.verifier];
      await expect(deployProxy(f.deployer, implementation, args)).to.not.be.revert(ethers);
      await expectRefusals(
        ["admin", "verifier"].map((name, i): Case => [
          name,
          () => deployProxy(f.deployer, implementation, zeroed(args, i)),
        ]),
        implementation,
        "ZeroAddress",
      );
    });
  });

  describe("RedemptionManager constructor", function () {
    it("refuses a zero registry or sSTB", async function () {
      const f = await loadFixture(fixture);
      const factory = new RedemptionManager__factory(f.deployer);
      const args = [f.addresses.registry, f.addresses.sstb] as const;
      await expect(factory.deploy(...args)).to.not.be.revert(ethers);
      await expectRefusals(
        ["registry", "sstb"].map((name, i): Case => [name, () => factory.deploy(...zeroed(args, i))]),
        factory,
        "ZeroAddress",
      );
    });
  });

  describe("RedemptionManager.initialize", function () {
    it("refuses a zero admin or treasury", async function () {
      const f = await loadFixture(fixture);
      const implementation = await new RedemptionManager__factory(f.deployer).deploy(
        f.addresses.registry,
        f.addresses.sstb,
      );
      const args = [f.deployer.address, f.treasury.address];
      await expect(deployProxy(f.deployer, implementation, args)).to.not.be.revert(ethers);
      await expectRefusals(
        ["admin", "treasury"].map((name, i): Case => [
          name,
          () => deployProxy(f.deployer, implementation, zeroed(args, i)),
        ]),
        implementation,
        "ZeroAddress",
      );
    });
  });

  describe("ProviderRegistry.initialize", function () {
    it("refuses a zero admin or collateral token", async function () {
      const f = await loadFixture(fixture);
      const implementation = await new ProviderRegistry__factory(f.deployer).deploy();
      const args = [f.deployer.address, f.addresses.collateral, COLLATERAL_PER_CU];
      await expect(deployProxy(f.deployer, implementation, args)).to.not.be.revert(ethers);
      await expectRefusals(
        ["admin", "token"].map((name, i): Case => [
          name,
          () => deployProxy(f.deployer, implementation, zeroed(args, i)),
        ]),
        implementation,
        "ZeroAddress",
      );
    });
  });

  describe("SSTB.initialize", function () {
    it("refuses a zero admin", async function () {
      const f = await loadFixture(fixture);
      const implementation = await new SSTB__factory(f.deployer).deploy();
      await expect(deployProxy(f.deployer, implementation, [f.deployer.address])).to.not.be.revert(ethers);
      await expectRefusals(
        [["admin", () => deployProxy(f.deployer, implementation, [ZERO])]],
        implementation,
        "ZeroAddress",
      );
    });
  });

  describe("GovernanceToken constructor", function () {
    it("refuses a zero treasury", async function () {
      const f = await loadFixture(fixture);
      const factory = new GovernanceToken__factory(f.deployer);
      await expect(factory.deploy(f.treasury.address, GOVERNANCE_SUPPLY)).to.not.be.revert(ethers);
      await expect(factory.deploy(ZERO, GOVERNANCE_SUPPLY)).to.be.revertedWithCustomError(
        factory,
        "GovernanceTokenZeroTreasury",
      );
    });
  });

  describe("AttestationVerifier constructor", function () {
    it("refuses a zero verifier key, wherever it is in the list", async function () {
      const f = await loadFixture(fixture);
      const factory = new AttestationVerifier__factory(f.deployer);
      const keys = f.verifierKeys.map((k) => k.address);
      await expect(factory.deploy(f.deployer.address, keys, 2n)).to.not.be.revert(ethers);
      await expectRefusals(
        keys.map((_, i): Case => [`verifier ${i}`, () => factory.deploy(f.deployer.address, zeroed(keys, i), 2n)]),
        factory,
        "VerifierZeroAddress",
      );
    });
  });
  for (const [name, Factory] of [
    ["SpotMarket", SpotMarket__factory],
    ["FuturesMarket", FuturesMarket__factory],
    ["OptionsMarket", OptionsMarket__factory],
  ] as const) {
    describe(`${name} constructor`, function () {
      it("refuses a zero sSTB or payment token", async function () {
        const f = await loadFixture(fixture);
        const factory = new Factory(f.deployer);
        const args = [f.addresses.sstb, f.addresses.collateral] as const;
        await expect(factory.deploy(...args)).to.not.be.revert(ethers);
        await expectRefusals(
          ["sstb", "paymentToken"].map((arg, i): Case => [arg, () => factory.deploy(...zeroed(args, i))]),
          factory,
          "ZeroAddress",
        );
      });
    });

    describe(`${name}.initialize`, function () {
      it("refuses a zero admin or treasury", async function () {
        const f = await loadFixture(fixture);
        const implementation = await new Factory(f.deployer).deploy(f.addresses.sstb, f.addresses.collateral);
        const args = [f.deployer.address, f.treasury.address];
        await expect(deployProxy(f.deployer, implementation, args)).to.not.be.revert(ethers);
        await expectRefusals(
          ["admin", "treasury"].map((arg, i): Case => [
            arg,
            () => deployProxy(f.deployer, implementation, zeroed(args, i)),
          ]),
          implementation,
          "ZeroAddress",
        );
      });
    });
  }

  describe("Bridge constructor", function () {
    it("refuses a zero router, sSTB, governance token or stablecoin", async function () {
      const f = await loadFixture(fixture);
      const factory = new Bridge__factory(f.deployer);
      const { router, sstb, governanceToken, collateral } = f.addresses;
      const args = [router, 1n, sstb, governanceToken, collateral, true] as const;
      await expect(factory.deploy(...args)).to.not.be.revert(ethers);
      await expectRefusals(
        (
          [
            ["router", 0],
            ["sstb", 2],
            ["governanceToken", 3],
            ["stablecoin", 4],
          ] as const
        ).map(([arg, i]): Case => [arg, () => factory.deploy(...zeroed(args, i))]),
        factory,
        "ZeroAddress",
      );
    });
  });

  describe("Bridge.initialize", function () {
    it("refuses a zero admin or treasury", async function () {
      const f = await loadFixture(fixture);
      const { router, sstb, governanceToken, collateral } = f.addresses;
      const implementation = await new Bridge__factory(f.deployer).deploy(
        router,
        1n,
        sstb,
        governanceToken,
        collateral,
        true,
      );
      const args = [f.deployer.address, f.treasury.address, 1_000_000n, 1_000_000n];
      await expect(deployProxy(f.deployer, implementation, args)).to.not.be.revert(ethers);
      await expectRefusals(
        ["admin", "treasury"].map((arg, i): Case => [
          arg,
          () => deployProxy(f.deployer, implementation, zeroed(args, i)),
        ]),
        implementation,
        "ZeroAddress",
      );
    });
  });

  describe("SatelliteExecutor constructor", function () {
    it("refuses a zero bridge or primary timelock", async function () {
      const f = await loadFixture(fixture);
      const factory = new SatelliteExecutor__factory(f.deployer);
      const args = [f.addresses.bridge, 1n, f.addresses.timelock] as const;
      await expect(factory.deploy(...args)).to.not.be.revert(ethers);
      await expectRefusals(
        (
          [
            ["bridge", 0],
            ["primaryTimelock", 2],
          ] as const
        ).map(([arg, i]): Case => [arg, () => factory.deploy(...zeroed(args, i))]),
        factory,
        "ExecutorZeroArgument",
      );
    });
  });
});
