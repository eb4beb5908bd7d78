import { expect } from "chai";
import { network } from "hardhat";
import { parseEther } from "ethers";

import {
  MintingAgent__factory,
  ProviderRegistry__factory,
  RedemptionManager__factory,
} from "../../../typechain-types/index.js";
import { deployProtocol } from "../../helpers/protocol.js";
import { deployLegacyProtocol, parametersOf, throughTimelock, zeroParameters } from "../../helpers/legacy.js";
import type { LegacyDeployment } from "../../helpers/legacy.js";

/**
 * Issue 23, property 3 (review 4): `initializeV2` of the minting agent and the redemption manager
 * was written for proxies the first implementation set up, which lack the parameters added since.
 * It must never overwrite a parameter governance has set: not on a proxy the current code
 * initialized (which is already at the latest version), and not on an upgraded one where governance
 * set a parameter before the reinitializer ran.
 */

const connection = await network.create();
const { ethers, networkHelpers } = connection;

const DAY = 86_400n;
/** OpenZeppelin `Initializable`'s ERC-7201 slot: the proxy's initializer version in its low 64 bits. */
const INITIALIZABLE_SLOT = "0xf0c57e16840df040f15088dc2f81fe391c3923bec73e23a9662efc9c229c6a00";

async function initializedVersion(proxy: { getAddress(): Promise<string> }): Promise<bigint> {
  const word = BigInt(await ethers.provider.getStorage(await proxy.getAddress(), INITIALIZABLE_SLOT));
  return word & (2n ** 64n - 1n);
}

/** What governance sets, each different from its default. */
const GOVERNED = {
  disputeResolutionPeriod: 30n * DAY,
  minRedemptionAmount: parseEther("2"),
  reputationUnit: parseEther("20"),
  maxLeaseTerm: 90n * DAY,
  managerGuardianPause: 3n * DAY,
  agentGuardianPause: 2n * DAY,
};

/** A fresh deployment of today's code (the deployer keeps governance) whose parameters governance changed. */
async function freshGoverned() {
  const f = await deployProtocol(connection);
  const m = f.redemptionManager;
  await m.setDisputeResolutionPeriod(GOVERNED.disputeResolutionPeriod);
  await m.setReputationUnit(GOVERNED.reputationUnit);
  await m.setMinRedemptionAmount(GOVERNED.minRedemptionAmount);
  await m.setMaxLeaseTerm(GOVERNED.maxLeaseTerm);
  await m.setGuardianPauseDuration(GOVERNED.managerGuardianPause);
  await f.mintingAgent.setGuardianPauseDuration(GOVERNED.agentGuardianPause);
  return f;
}

/** A governed setter call on the manager or the agent, as the timelock makes it. */
type Governed = { proxy: "redemptionManager" | "mintingAgent"; fn: string; args: unknown[] };

/**
 * The first implementation's proxies upgraded to today's code without the reinitializer, then
 * governance making `calls` before a later proposal runs `initializeV2`.
 */
async function legacyUpgradedThenGoverned(calls: readonly Governed[]): Promise<LegacyDeployment> {
  const d = await deployLegacyProtocol(connection);
  const registry = await d.registry.getAddress();
  const sstb = await d.sstb.getAddress();
  const implementations = [
    [d.registry, await new ProviderRegistry__factory(d.deployer).deploy()],
    [d.mintingAgent, await new MintingAgent__factory(d.deployer).deploy(registry, await d.cuToken.getAddress(), sstb)],
    [d.redemptionManager, await new RedemptionManager__factory(d.deployer).deploy(registry, sstb)],
  ] as const;
  const upgrades = [];
  for (const [proxy, implementation] of implementations) {
    upgrades.push({
      target: await proxy.getAddress(),
      data: d.registry.interface.encodeFunctionData("upgradeToAndCall", [await implementation.getAddress(), "0x"]),
    });
  }
  await throughTimelock(connection, d, upgrades, ethers.id("upgrade"));
  const encoded = await Promise.all(
    calls.map(async (c) => ({
      target: await d[c.proxy].getAddress(),
      data: d[c.proxy].interface.encodeFunctionData(c.fn as never, c.args as never),
    })),
  );
  await throughTimelock(connection, d, encoded, ethers.id("govern"));
  return d;
}

/** Runs both reinitializers through the timelock, as a later proposal would; returns its transaction. */
async function reinitialize(d: LegacyDeployment) {
  const calls = [d.mintingAgent, d.redemptionManager].map((proxy) => ({
    target: proxy.target as string,
    data: proxy.interface.encodeFunctionData("initializeV2"),
  }));
  return throughTimelock(connection, d, calls, ethers.id("reinitialize"));
}

async function someGoverned() {
  return legacyUpgradedThenGoverned([
    { proxy: "redemptionManager", fn: "setDisputeResolutionPeriod", args: [GOVERNED.disputeResolutionPeriod] },
    { proxy: "mintingAgent", fn: "setGuardianPauseDuration", args: [GOVERNED.agentGuardianPause] },
  ]);
}

async function allGoverned() {
  return legacyUpgradedThenGoverned([
    { proxy: "redemptionManager", fn: "setDisputeResolutionPeriod", args: [GOVERNED.disputeResolutionPeriod] },
    { proxy: "redemptionManager", fn: "setReputationUnit", args: [GOVERNED.reputationUnit] },
    { proxy: "redemptionManager", fn: "setMinRedemptionAmount", args: [GOVERNED.minRedemptionAmount] },
    { proxy: "redemptionManager", fn: "setMaxLeaseTerm", args: [GOVERNED.maxLeaseTerm] },
    { proxy: "redemptionManager", fn: "setGuardianPauseDuration", args: [GOVERNED.managerGuardianPause] },
    { proxy: "mintingAgent", fn: "setGuardianPauseDuration", args: [GOVERNED.agentGuardianPause] },
  ]);
}

/** Governance set a reputation unit below the minimum redemption's default (1 sSTB). */
async function smallUnitGoverned() {
  return legacyUpgradedThenGoverned([
    { proxy: "redemptionManager", fn: "setReputationUnit", args: [parseEther("0.5")] },
  ]);
}

describe("Property: a version-2 reinitializer never overwrites a parameter governance has set (issue 23, property 3)", function () {
  it("a version-2 reinitializer never overwrites a parameter governance has set: a proxy the current code initialized", async function () {
    const f = await networkHelpers.loadFixture(freshGoverned);
    const before = await parametersOf(f);
    expect(before.redemptionManager.disputeResolutionPeriod).to.equal(GOVERNED.disputeResolutionPeriod);
    // the upgrader (still the deployer here) calls both reinitializers, as a mistaken proposal would
    for (const proxy of [f.mintingAgent, f.redemptionManager]) {
      await proxy.initializeV2().catch(() => undefined);
    }
    expect(await parametersOf(f)).to.deep.equal(before);
  });

  it("a version-2 reinitializer never overwrites a parameter governance has set: an upgraded proxy", async function () {
    const d = await networkHelpers.loadFixture(someGoverned);
    await reinitialize(d);
    const after = await parametersOf(d);
    // what governance set stays; what nobody set gets its default (nothing left at zero)
    expect(after.redemptionManager.disputeResolutionPeriod).to.equal(GOVERNED.disputeResolutionPeriod);
    expect(after.mintingAgent.guardianPauseDuration).to.equal(GOVERNED.agentGuardianPause);
    expect(zeroParameters(after)).to.deep.equal([]);
    expect(after.redemptionManager.reputationUnit).to.equal(parseEther("10"));
  });

  it("a proxy initialized by the current implementation is at the latest initializer version", async function () {
    const f = await networkHelpers.loadFixture(freshGoverned);
    // version 2: the number of the latest reinitializer, so that none of them can run on it
    expect(await initializedVersion(f.mintingAgent)).to.equal(2n);
    expect(await initializedVersion(f.redemptionManager)).to.equal(2n);
  });

  describe("initializedVersion and latestInitializerVersion", function () {
    it("every proxy of a fresh deployment is at its implementation's latest initializer version, and says so", async function () {
      const f = await networkHelpers.loadFixture(freshGoverned);
      const proxies = {
        SSTB: f.sstb,
        ProviderRegistry: f.registry,
        MintingAgent: f.mintingAgent,
        RedemptionManager: f.redemptionManager,
        SpotMarket: f.spotMarket,
        FuturesMarket: f.futuresMarket,
        OptionsMarket: f.optionsMarket,
        Bridge: f.bridge,
        GovernanceChannel: f.governanceChannel,
      };
      const versions: Record<string, bigint[]> = {};
      for (const [name, proxy] of Object.entries(proxies)) {
        versions[name] = [await proxy.initializedVersion(), await proxy.latestInitializerVersion()];
        // the view reads OpenZeppelin's Initializable slot
        expect(versions[name][0]).to.equal(await initializedVersion(proxy));
      }
      expect(versions).to.deep.equal({
        SSTB: [1n, 1n],
        ProviderRegistry: [1n, 1n],
        MintingAgent: [2n, 2n],
        RedemptionManager: [2n, 2n],
        SpotMarket: [1n, 1n],
        FuturesMarket: [1n, 1n],
        OptionsMarket: [1n, 1n],
        Bridge: [1n, 1n],
        GovernanceChannel: [1n, 1n],
      });
    });

    it("an implementation is locked at the highest version: nobody initializes it", async function () {
      const f = await networkHelpers.loadFixture(freshGoverned);
      const implementation = await new RedemptionManager__factory(f.deployer).deploy(
        await f.registry.getAddress(),
        await f.sstb.getAddress(),
      );
      expect(await implementation.initializedVersion()).to.equal(2n ** 64n - 1n);
      await expect(implementation.initialize(f.deployer.address, f.treasury.address)).to.be.revertedWithCustomError(
        implementation,
        "InvalidInitialization",
      );
    });
  });

  describe("initializeV2 on a proxy upgraded from the first implementation", function () {
    it("keeps every parameter governance set, announcing nothing but the version", async function () {
      const d = await networkHelpers.loadFixture(allGoverned);
      const before = await parametersOf(d);
      const tx = await reinitialize(d);
      expect(await parametersOf(d)).to.deep.equal(before);
      for (const proxy of [d.mintingAgent, d.redemptionManager]) {
        await expect(tx).to.not.emit(proxy, "GuardianPauseDurationUpdated");
        await expect(tx).to.emit(proxy, "Initialized").withArgs(2n);
        expect(await proxy.initializedVersion()).to.equal(2n);
      }
      await expect(tx).to.not.emit(d.redemptionManager, "ParameterUpdated");
      expect(before.redemptionManager).to.include({
        disputeResolutionPeriod: GOVERNED.disputeResolutionPeriod,
        reputationUnit: GOVERNED.reputationUnit,
        minRedemptionAmount: GOVERNED.minRedemptionAmount,
        maxLeaseTerm: GOVERNED.maxLeaseTerm,
        guardianPauseDuration: GOVERNED.managerGuardianPause,
      });
    });

    it("gives the minimum redemption a reputation unit governance set below its default, so the minimum stays within the unit", async function () {
      const d = await networkHelpers.loadFixture(smallUnitGoverned);
      const tx = await reinitialize(d);
      const after = await parametersOf(d);
      expect(after.redemptionManager.reputationUnit).to.equal(parseEther("0.5"));
      expect(after.redemptionManager.minRedemptionAmount).to.equal(parseEther("0.5"));
      expect(zeroParameters(after)).to.deep.equal([]);
      await expect(tx)
        .to.emit(d.redemptionManager, "ParameterUpdated")
        .withArgs(ethers.encodeBytes32String("minRedemptionAmount"), 0n, parseEther("0.5"));
    });
  });
});
