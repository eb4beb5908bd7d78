import { expect } from "chai";
import hre, { network } from "hardhat";
import { upgrades } from "@openzeppelin/hardhat-upgrades";
import { parseEther } from "ethers";

import {
  MintingAgent__factory,
  ProviderRegistry__factory,
  RedemptionManager__factory,
} from "../../../typechain-types/index.js";
import { deployProtocol } from "../../helpers/protocol.js";
import { deployLegacyProtocol, parametersOf, throughTimelock, zeroParameters } from "../../helpers/legacy.js";
import type { LegacyDeployment } from "../../helpers/legacy.js";
import { RStatus } from "../../helpers/redemption.js";
import { Roles } from "@compute-capacity/sdk";

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const api = await upgrades(hre, connection);

const DAY = 86_400n;
/** `pausedUntil` of a governance pause. */
const PAUSED_INDEFINITELY = 2n ** 40n - 1n;
/** ERC-7201 location of the redemption manager's storage (its first slot). */
const MANAGER_STORAGE = "0x4d4df5d96ab278df845ea28e0141acb1493eef02109d56f6781ba8518e940900";

/**
 * The first implementation in use: the governance-set fee raised to 30 bps, and two redemptions in
 * flight when the upgrade comes (1 fulfilled, 2 pending).
 */
async function legacyInUse(): Promise<LegacyDeployment> {
  const d = await deployLegacyProtocol(connection);
  await throughTimelock(connection, d, [
    {
      target: await d.v1.redemptionManager.getAddress(),
      data: d.v1.redemptionManager.interface.encodeFunctionData("setRedemptionFee", [30n]),
    },
  ]);
  await d.v1.redemptionManager.connect(d.user).initiateRedemption(parseEther("10"), d.provider.address);
  await d.v1.redemptionManager.connect(d.provider).fulfillRedemption(1n, "envelope");
  await d.v1.redemptionManager.connect(d.user).initiateRedemption(parseEther("5"), d.provider.address);
  return d;
}

/** As `legacyInUse`, with the guardian's pause pulled on the minting agent and the manager. */
async function legacyPaused(): Promise<LegacyDeployment> {
  const d = await legacyInUse();
  await d.v1.mintingAgent.connect(d.guardian).pause();
  await d.v1.redemptionManager.connect(d.guardian).pause();
  return d;
}

/** Today's implementations of the three proxies, bound to the deployment's collaborators. */
async function currentImplementations(d: LegacyDeployment) {
  const registry = await d.registry.getAddress();
  const sstb = await d.sstb.getAddress();
  return {
    registry: await new ProviderRegistry__factory(d.deployer).deploy(),
    mintingAgent: await new MintingAgent__factory(d.deployer).deploy(registry, await d.cuToken.getAddress(), sstb),
    redemptionManager: await new RedemptionManager__factory(d.deployer).deploy(registry, sstb),
  };
}

/**
 * One proposal upgrades the three proxies together (their hooks changed in step); with
 * `reinitialize` (the way to upgrade) the minting agent's and the manager's upgrades call
 * `initializeV2`.
 */
async function upgrade(d: LegacyDeployment, { reinitialize = true } = {}) {
  const implementations = await currentImplementations(d);
  const initializeV2 = reinitialize ? d.redemptionManager.interface.encodeFunctionData("initializeV2") : "0x";
  const call = async (proxy: string, implementation: { getAddress(): Promise<string> }, data: string) => ({
    target: proxy,
    data: d.registry.interface.encodeFunctionData("upgradeToAndCall", [await implementation.getAddress(), data]),
  });
  return throughTimelock(connection, d, [
    await call(await d.registry.getAddress(), implementations.registry, "0x"),
    await call(await d.mintingAgent.getAddress(), implementations.mintingAgent, initializeV2),
    await call(await d.redemptionManager.getAddress(), implementations.redemptionManager, initializeV2),
  ]);
}

async function legacyUpgraded() {
  const d = await legacyInUse();
  const tx = await upgrade(d);
  return { ...d, tx };
}

async function legacyUpgradedWithoutReinitializer() {
  const d = await legacyInUse();
  await upgrade(d, { reinitialize: false });
  return d;
}

/** What a fresh deployment of today's code starts with. */
async function freshParameters() {
  return parametersOf(await deployProtocol(connection));
}

describe("Property: an upgrade never leaves a parameter at zero (issue 17, property 4)", function () {
  it("an upgrade never leaves a parameter at zero", async function () {
    const fresh = await networkHelpers.loadFixture(freshParameters);
    const d = await networkHelpers.loadFixture(legacyUpgraded);

    const upgraded = await parametersOf(d);
    expect(zeroParameters(upgraded)).to.deep.equal([]);
    // every parameter as a fresh deployment has it, but what governance set before the upgrade
    // and the deployment's own collaborators
    expect(upgraded).to.deep.equal({
      registry: { ...fresh.registry, collateralToken: await d.collateral.getAddress() },
      mintingAgent: { ...fresh.mintingAgent, verifier: await d.verifier.getAddress() },
      redemptionManager: { ...fresh.redemptionManager, treasury: d.treasury.address, feeBps: 30n },
    });
    for (const proxy of [d.mintingAgent, d.redemptionManager]) {
      expect(await proxy.paused()).to.equal(false);
      expect(await proxy.guardianArmed()).to.equal(true);
    }
  });

  it("the reinitializers emit the parameters' update events, as the setters do", async function () {
    const d = await networkHelpers.loadFixture(legacyUpgraded);
    const m = d.redemptionManager;
    await expect(d.tx)
      .to.emit(m, "ParameterUpdated")
      .withArgs(ethers.encodeBytes32String("disputeResolutionPeriod"), 0n, 14n * DAY);
    await expect(d.tx)
      .to.emit(m, "ParameterUpdated")
      .withArgs(ethers.encodeBytes32String("reputationUnit"), 0n, parseEther("10"));
    await expect(d.tx)
      .to.emit(m, "ParameterUpdated")
      .withArgs(ethers.encodeBytes32String("minRedemptionAmount"), 0n, parseEther("1"));
    await expect(d.tx)
      .to.emit(m, "ParameterUpdated")
      .withArgs(ethers.encodeBytes32String("maxLeaseTerm"), 0n, 365n * DAY);
    const receipt = (await d.tx.wait())!;
    for (const proxy of [d.mintingAgent, d.redemptionManager]) {
      const address = await proxy.getAddress();
      const events = receipt.logs
        .filter((log) => log.address === address)
        .map((log) => proxy.interface.parseLog(log))
        .filter((e) => e?.name === "GuardianPauseDurationUpdated" || e?.name === "Initialized");
      expect(events.map((e) => [e!.name, ...e!.args])).to.deep.equal([
        ["GuardianPauseDurationUpdated", 0n, 14n * DAY],
        ["Initialized", 2n],
      ]);
    }
  });

  it("redemptions in flight complete after the upgrade, and new ones work", async function () {
    const d = await networkHelpers.loadFixture(legacyUpgraded);
    const manager = d.redemptionManager.connect(d.user);
    const [first, second] = [await d.redemptionViews.redemptionOf(1n), await d.redemptionViews.redemptionOf(2n)];
    const before = await d.registry.accountOf(d.provider.address);
    expect(before.lockedCollateral).to.equal(first.lock + second.lock);

    // 1 (fulfilled before the upgrade): the holder confirms, the lock goes back to the provider;
    // opened without a weight, it moves no reputation and no statistics
    await expect(manager.confirmRedemption(1n)).to.emit(manager, "RedemptionConfirmed").withArgs(1n, d.user.address);
    let account = await d.registry.accountOf(d.provider.address);
    expect(account.lockedCollateral).to.equal(second.lock);
    expect(account.freeCollateral).to.equal(before.freeCollateral + first.lock);
    expect(account.reputation).to.equal(before.reputation);

    // 2 (pending): its deadline passed during the proposal's delay; it lapses, and the holder
    // receives the whole lock, as the first implementation promised (no early-exit penalty,
    // although the provider's stake runs)
    const now = BigInt((await ethers.provider.getBlock("latest"))!.timestamp);
    expect(now).to.be.greaterThan(second.deadline);
    expect(account.stakedUntil).to.be.greaterThan(now + 1n);
    await expect(manager.expireRedemption(2n)).to.changeTokenBalances(
      ethers,
      d.collateral,
      [d.user, d.treasury],
      [second.lock, 0n],
    );
    expect(await d.redemptionViews.redemptionStatus(2n)).to.equal(RStatus.Expired);
    account = await d.registry.accountOf(d.provider.address);
    expect(account.lockedCollateral).to.equal(0n);

    // a new redemption under today's rules: one reputation unit at stake, the ratio recorded
    await manager.initiateRedemption(parseEther("10"), d.provider.address);
    const third = await d.redemptionViews.redemptionOf(3n);
    expect([third.weight, third.lockRatioBps]).to.deep.equal([1n, 12_000n]);
    await d.redemptionManager.connect(d.provider).fulfillRedemption(3n, "envelope");
    await manager.confirmRedemption(3n);
    expect(await d.redemptionViews.redemptionStatus(3n)).to.equal(RStatus.Confirmed);
    const after = await d.registry.accountOf(d.provider.address);
    expect(after.reputation).to.equal(account.reputation + 100n);
    expect(await d.registry.providerStats(d.provider.address)).to.deep.equal([1n, 1n, 0n]);
    // and minting works on the new agent
    await d.mint(parseEther("1"));
  });

  it("the first implementation's records take leases after the upgrade (issue 19): a stated end, a renewal, terminations", async function () {
    const d = await networkHelpers.loadFixture(legacyUpgraded);
    const m = d.redemptionManager;
    // 2 (pending at the upgrade) is fulfilled with a stated end: its lease slot names the provider
    // by an index the manager assigns now
    const end = BigInt((await ethers.provider.getBlock("latest"))!.timestamp) + 30n * DAY;
    await expect(m.connect(d.provider).fulfillRedemptionWithLease(2n, "envelope", end))
      .to.emit(m, "LeaseStarted")
      .withArgs(2n, d.user.address, d.provider.address, end);
    await m.connect(d.provider).offerRenewal(2n, parseEther("5"), 10n * DAY, end);
    await expect(m.connect(d.user).acceptRenewal(2n, parseEther("5"), 10n * DAY))
      .to.emit(m, "LeaseRenewed")
      .withArgs(2n, 3n, end + 10n * DAY, parseEther("0.015"), 6_000_000n); // fee at 30 bps; 120% of 5 sSTB at 1 USDC
    expect(await d.redemptionViews.leaseIdOf(3n)).to.equal(2n);
    await expect(m.connect(d.user).terminateLease(2n))
      .to.emit(m, "LeaseTerminated")
      .withArgs(2n, d.user.address, d.provider.address);
    // 1 (fulfilled before the upgrade, no stated end) is a lease its user may terminate; it still
    // settles: confirmed, its lock goes back
    expect(await d.redemptionViews.leaseStatus(1n)).to.equal(1n); // Active
    await m.connect(d.user).terminateLease(1n);
    expect(await d.redemptionViews.leaseStatus(1n)).to.equal(3n); // Terminated
    await expect(m.connect(d.user).confirmRedemption(1n)).to.emit(m, "RedemptionConfirmed");
    expect(await d.redemptionViews.redemptionStatus(2n)).to.equal(RStatus.Fulfilled);
  });

  it("keeps a pause of the first implementation as a governance pause", async function () {
    const d = await networkHelpers.loadFixture(legacyPaused);
    const tx = await upgrade(d);
    for (const proxy of [d.mintingAgent, d.redemptionManager]) {
      await expect(tx)
        .to.emit(proxy, "Paused")
        .withArgs(await d.timelock.getAddress(), PAUSED_INDEFINITELY);
      expect(await proxy.pausedUntil()).to.equal(PAUSED_INDEFINITELY);
    }
    // the manager's old flag byte is cleared; the rest of its slot (treasury, fee, deadlines) kept
    const slot = BigInt(await ethers.provider.getStorage(await d.redemptionManager.getAddress(), MANAGER_STORAGE));
    expect(slot >> 248n).to.equal(0n);
    expect(zeroParameters(await parametersOf(d))).to.deep.equal([]);
    expect(await d.redemptionViews.feeBps()).to.equal(30n);

    // it does not lapse, and it stops what creates obligations until governance unpauses
    await networkHelpers.time.increase(60n * DAY);
    await expect(
      d.redemptionManager.connect(d.user).initiateRedemption(parseEther("1"), d.provider.address),
    ).to.be.revertedWithCustomError(d.redemptionManager, "EnforcedPause");
    await expect(d.mint(parseEther("1"))).to.be.revertedWithCustomError(d.mintingAgent, "EnforcedPause");
    await throughTimelock(
      connection,
      d,
      [d.mintingAgent, d.redemptionManager].map((proxy) => ({
        target: proxy.target as string,
        data: proxy.interface.encodeFunctionData("unpause"),
      })),
      ethers.id("unpause"),
    );
    await d.redemptionManager.connect(d.user).initiateRedemption(parseEther("1"), d.provider.address);
    await d.mint(parseEther("1"));
  });

  it("an upgrade without the reinitializer would lift that pause (the plugin's finding)", async function () {
    const d = await networkHelpers.loadFixture(legacyPaused);
    expect(await d.v1.mintingAgent.paused()).to.equal(true);
    expect(await d.v1.redemptionManager.paused()).to.equal(true);
    await upgrade(d, { reinitialize: false });
    expect(await d.mintingAgent.paused()).to.equal(false);
    expect(await d.redemptionManager.paused()).to.equal(false);
  });

  it("an upgrade without the reinitializer leaves the parameters at zero and stops every initiation", async function () {
    const d = await networkHelpers.loadFixture(legacyUpgradedWithoutReinitializer);
    expect(zeroParameters(await parametersOf(d))).to.deep.equal([
      "mintingAgent.guardianPauseDuration",
      "redemptionManager.disputeResolutionPeriod",
      "redemptionManager.minRedemptionAmount",
      "redemptionManager.reputationUnit",
      "redemptionManager.guardianPauseDuration",
      "redemptionManager.maxLeaseTerm",
    ]);
    // a zero reputation unit divides by zero
    await expect(
      d.redemptionManager.connect(d.user).initiateRedemption(parseEther("1"), d.provider.address),
    ).to.be.revertedWithPanic(0x12);
  });

  describe("initializeV2", function () {
    it("refuses a stranger, changing nothing", async function () {
      const d = await networkHelpers.loadFixture(legacyUpgradedWithoutReinitializer);
      const before = await parametersOf(d);
      for (const proxy of [d.mintingAgent, d.redemptionManager]) {
        await expect(proxy.connect(d.stranger).initializeV2())
          .to.be.revertedWithCustomError(proxy, "AccessControlUnauthorizedAccount")
          .withArgs(d.stranger.address, Roles.UPGRADER);
      }
      expect(await parametersOf(d)).to.deep.equal(before);
    });

    it("runs once, by the upgrader (a later proposal when the upgrade left it out)", async function () {
      const d = await networkHelpers.loadFixture(legacyUpgradedWithoutReinitializer);
      const calls = [d.mintingAgent, d.redemptionManager].map((proxy) => ({
        target: proxy.target as string,
        data: proxy.interface.encodeFunctionData("initializeV2"),
      }));
      await throughTimelock(connection, d, calls, ethers.id("reinitialize"));
      expect(zeroParameters(await parametersOf(d))).to.deep.equal([]);
      await expect(throughTimelock(connection, d, calls, ethers.id("again"))).to.be.revertedWithCustomError(
        d.mintingAgent,
        "InvalidInitialization",
      );
      for (const proxy of [d.mintingAgent, d.redemptionManager]) {
        await expect(proxy.connect(d.deployer).initializeV2()).to.be.revertedWithCustomError(
          proxy,
          "InvalidInitialization",
        );
      }
    });

    it("never runs on a fresh deployment: initialize left it at version 2 (issue 23)", async function () {
      const f = await deployProtocol(connection);
      const before = await parametersOf(f);
      for (const proxy of [f.mintingAgent, f.redemptionManager]) {
        expect(await proxy.initializedVersion()).to.equal(2n);
        for (const caller of [f.deployer, f.stranger]) {
          await expect(proxy.connect(caller).initializeV2()).to.be.revertedWithCustomError(
            proxy,
            "InvalidInitialization",
          );
        }
      }
      expect(await parametersOf(f)).to.deep.equal(before);
      expect(await f.redemptionManager.paused()).to.equal(false);
    });
  });

  it("the upgrades plugin reports the first implementation's pause flag as the only layout change", async function () {
    const placeholder = "0x000000000000000000000000000000000000dEaD";
    const validate = async (from: string, to: string, constructorArgs: string[]) =>
      api.validateUpgrade(await ethers.getContractFactory(from), await ethers.getContractFactory(to), {
        kind: "uups",
        constructorArgs,
      } as Parameters<typeof api.validateUpgrade>[2]);
    await validate("ProviderRegistryV1", "ProviderRegistry", []);
    const incompatible = async (promise: Promise<unknown>, only: RegExp) => {
      const error = await promise.then(
        () => new Error("accepted"),
        (e: Error) => e,
      );
      expect(error.message).to.match(/New storage layout is incompatible/);
      const findings = error.message
        .split("\n")
        .filter((line) => /: (Deleted|Replaced|Inserted|Upgraded|Renamed)/.test(line));
      expect(findings).to.have.length(1);
      expect(findings[0]).to.match(only);
    };
    await incompatible(
      validate("MintingAgentV1", "MintingAgent", [placeholder, placeholder, placeholder]),
      /Replaced `paused` with `pausedUntil` of incompatible type/,
    );
    await incompatible(
      validate("RedemptionManagerV1", "RedemptionManager", [placeholder, placeholder]),
      /Deleted `paused`/,
    );
  });
});
