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

/**
 * The first implementation's proxies upgraded to today's code without the reinitializer, then
 * governance setting the dispute resolution period and the agent's guardian pause before a later
 * proposal runs `initializeV2`.
 */
async function legacyUpgradedThenGoverned(): Promise<LegacyDeployment> {
  const d = await deployLegacyProtocol(connection);
  const registry = await d.registry.getAddress();
  const sstb = await d.sstb.getAddress();
  const implementations = [
    [d.registry, await new ProviderRegistry__factory(d.deployer).deploy()],
    [d.mintingAgent, await new MintingAgent__factory(d.deployer).deploy(registry, await d.cuToken.getAddress(), sstb)],
    [d.redemptionManager, await new RedemptionManager__factory(d.deployer).deploy(registry, sstb)],
  ] as const;
  const calls = [];
  for (const [proxy, implementation] of implementations) {
    calls.push({
      target: await proxy.getAddress(),
      data: d.registry.interface.encodeFunctionData("upgradeToAndCall", [await implementation.getAddress(), "0x"]),
    });
  }
  await throughTimelock(connection, d, calls, ethers.id("upgrade"));
  await throughTimelock(
    connection,
    d,
    [
      {
        target: await d.redemptionManager.getAddress(),
        data: d.redemptionManager.interface.encodeFunctionData("setDisputeResolutionPeriod", [
          GOVERNED.disputeResolutionPeriod,
        ]),
      },
      {
        target: await d.mintingAgent.getAddress(),
        data: d.mintingAgent.interface.encodeFunctionData("setGuardianPauseDuration", [GOVERNED.agentGuardianPause]),
      },
    ],
    ethers.id("govern"),
  );
  return d;
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
    const d = await networkHelpers.loadFixture(legacyUpgradedThenGoverned);
    const calls = [d.mintingAgent, d.redemptionManager].map((proxy) => ({
      target: proxy.target as string,
      data: proxy.interface.encodeFunctionData("initializeV2"),
    }));
    await throughTimelock(connection, d, calls, ethers.id("reinitialize"));
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
});
