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
import { RStatus } from "../../helpers/redemption.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;

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

/** One proposal upgrades the three proxies together (their hooks changed in step). */
async function upgrade(d: LegacyDeployment) {
  const implementations = await currentImplementations(d);
  return throughTimelock(connection, d, [
    {
      target: await d.registry.getAddress(),
      data: d.registry.interface.encodeFunctionData("upgradeToAndCall", [
        await implementations.registry.getAddress(),
        "0x",
      ]),
    },
    {
      target: await d.mintingAgent.getAddress(),
      data: d.mintingAgent.interface.encodeFunctionData("upgradeToAndCall", [
        await implementations.mintingAgent.getAddress(),
        "0x",
      ]),
    },
    {
      target: await d.redemptionManager.getAddress(),
      data: d.redemptionManager.interface.encodeFunctionData("upgradeToAndCall", [
        await implementations.redemptionManager.getAddress(),
        "0x",
      ]),
    },
  ]);
}

/** What a fresh deployment of today's code starts with. */
async function freshParameters() {
  return parametersOf(await deployProtocol(connection));
}

describe("Property: an upgrade never leaves a parameter at zero (issue 17, property 4)", function () {
  it("an upgrade never leaves a parameter at zero", async function () {
    const fresh = await networkHelpers.loadFixture(freshParameters);
    const d = await networkHelpers.loadFixture(legacyInUse);
    await upgrade(d);

    const upgraded = await parametersOf(d);
    expect(zeroParameters(upgraded)).to.deep.equal([]);
    // every parameter as a fresh deployment has it, but what governance set before the upgrade
    // and the deployment's own collaborators
    expect(upgraded).to.deep.equal({
      registry: { ...fresh.registry, collateralToken: await d.collateral.getAddress() },
      mintingAgent: { ...fresh.mintingAgent, verifier: await d.verifier.getAddress() },
      redemptionManager: { ...fresh.redemptionManager, treasury: d.treasury.address, feeBps: 30n },
    });

    // the redemptions in flight complete, and a new one works
    const manager = d.redemptionManager;
    await manager.connect(d.user).confirmRedemption(1n);
    expect(await manager.redemptionStatus(1n)).to.equal(RStatus.Confirmed);
    await manager.connect(d.user).initiateRedemption(parseEther("10"), d.provider.address);
    expect(await manager.redemptionStatus(3n)).to.equal(RStatus.Pending);
  });
});
