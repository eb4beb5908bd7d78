import { expect } from "chai";
import hre, { network } from "hardhat";
import { upgrades } from "@openzeppelin/hardhat-upgrades";
import { parseEther } from "ethers";

import { Roles, routeTo } from "@compute-capacity/sdk";
import {
  BridgePre23__factory,
  Bridge__factory,
  ERC1967Proxy__factory,
  MintingAgentPre23__factory,
  MintingAgent__factory,
  RedemptionManagerPre23__factory,
  RedemptionManager__factory,
  RedemptionViews__factory,
} from "../../../typechain-types/index.js";
import type { Bridge, BridgePre23 } from "../../../typechain-types/index.js";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import { ARB, ETH, LIMITS, Status, Token, deployBridgePair, sentMessageId, withRelayer } from "../../helpers/bridge.js";
import { parametersOf, zeroParameters } from "../../helpers/legacy.js";
import { DAY } from "../../helpers/leases.js";
import { RStatus, deployRedemptionScenario } from "../../helpers/redemption.js";

/**
 * Issue 23: the proxies of the implementation before it (commit e40cbba, frozen as `*Pre23` under
 * contracts/mocks/upgrades/legacy/) upgrade in place to today's: the upgrades plugin accepts each
 * storage layout, and state written by the old code (governed parameters, redemptions and renewals
 * in flight, queued bridge deliveries, routes and limits) reads and settles as before. The manager
 * and the minting agent take `initializeV2` with the upgrade, which leaves what governance set and
 * brings them to version 2; the bridge's old governance state is left where it was, unused.
 */

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const api = await upgrades(hre, connection);

const PLACEHOLDER = "0x000000000000000000000000000000000000dEaD";

async function proxyOf(deployer: HardhatEthersSigner, implementation: string, data: string) {
  const proxy = await new ERC1967Proxy__factory(deployer).deploy(implementation, data);
  return proxy.getAddress();
}

/**
 * A primary deployment whose minting agent and redemption manager are proxies of the code before
 * issue 23, wired as the deployment wires them, with governance (the deployer here) having set
 * the dispute resolution period to 30 days and the agent's guardian pause to 2 days, a lease
 * fulfilled and renewed on its first day (the renewal's window counted from its acceptance, as that
 * code did), and a redemption pending.
 */
async function managerBefore23() {
  const f = await deployRedemptionScenario(connection);
  const registry = await f.registry.getAddress();
  const sstb = await f.sstb.getAddress();
  const managerImplementation = await new RedemptionManagerPre23__factory(f.deployer).deploy(registry, sstb);
  const manager = RedemptionManagerPre23__factory.connect(
    await proxyOf(
      f.deployer,
      await managerImplementation.getAddress(),
      managerImplementation.interface.encodeFunctionData("initialize", [f.deployer.address, f.treasury.address]),
    ),
    f.deployer,
  );
  const agentImplementation = await new MintingAgentPre23__factory(f.deployer).deploy(
    registry,
    await f.cuToken.getAddress(),
    sstb,
  );
  const agent = MintingAgentPre23__factory.connect(
    await proxyOf(
      f.deployer,
      await agentImplementation.getAddress(),
      agentImplementation.interface.encodeFunctionData("initialize", [
        f.deployer.address,
        await f.verifier.getAddress(),
      ]),
    ),
    f.deployer,
  );
  const managerAddress = await manager.getAddress();
  await f.sstb.grantRole(Roles.BURNER, managerAddress);
  await f.registry.grantRole(Roles.REDEMPTION_MANAGER, managerAddress);
  await f.sstb.connect(f.user).approve(managerAddress, ethers.MaxUint256);
  await f.sstb.connect(f.provider).transfer(f.user.address, parseEther("30"));
  await manager.setDisputeResolutionPeriod(30n * DAY);
  await agent.setGuardianPauseDuration(2n * DAY);

  await manager.connect(f.user).initiateRedemption(parseEther("10"), f.provider.address); // 1
  const start = BigInt((await ethers.provider.getBlock("latest"))!.timestamp);
  const end = start + 30n * DAY;
  await manager.connect(f.provider).fulfillRedemptionWithLease(1n, "envelope", end);
  await manager.connect(f.provider).offerRenewal(1n, parseEther("10"), 30n * DAY, end);
  await manager.connect(f.user).acceptRenewal(1n, parseEther("10"), 30n * DAY); // 2: the renewal
  await manager.connect(f.user).initiateRedemption(parseEther("5"), f.provider.address); // 3: pending
  return { f, manager, agent, end };
}

/** Upgrades both proxies with `initializeV2`, as the upgrade proposal does. */
async function upgradeManagerAndAgent(s: Awaited<ReturnType<typeof managerBefore23>>) {
  const { f, manager, agent } = s;
  const registry = await f.registry.getAddress();
  const sstb = await f.sstb.getAddress();
  const reinitialize = f.redemptionManager.interface.encodeFunctionData("initializeV2");
  const newManager = await new RedemptionManager__factory(f.deployer).deploy(registry, sstb);
  const newAgent = await new MintingAgent__factory(f.deployer).deploy(registry, await f.cuToken.getAddress(), sstb);
  await manager.upgradeToAndCall(await newManager.getAddress(), reinitialize);
  await agent.upgradeToAndCall(await newAgent.getAddress(), reinitialize);
  const managerAddress = await manager.getAddress();
  return {
    manager: RedemptionManager__factory.connect(managerAddress, f.deployer),
    agent: MintingAgent__factory.connect(await agent.getAddress(), f.deployer),
    views: await new RedemptionViews__factory(f.deployer).deploy(managerAddress),
  };
}

/**
 * The ethereum side of a bridge pair as the code before issue 23 left it: a proxy of that bridge
 * routed to arbitrum's (whose route now points at it), with an old arbitrum bridge as a former peer,
 * a governance executor set, and a transfer from arbitrum queued above its inbound limit.
 */
async function bridgeBefore23() {
  const f = withRelayer(await deployBridgePair(connection));
  const s = f.satellite;
  const implementation = await new BridgePre23__factory(f.deployer).deploy(
    await s.router.getAddress(),
    ETH,
    await s.sstb.getAddress(),
    await s.governanceToken.getAddress(),
    await s.stablecoin.getAddress(),
    false,
  );
  const bridge: BridgePre23 = BridgePre23__factory.connect(
    await proxyOf(
      f.deployer,
      await implementation.getAddress(),
      implementation.interface.encodeFunctionData("initialize", [
        f.deployer.address,
        f.treasury.address,
        1_000_000n,
        1_000_000n,
      ]),
    ),
    f.deployer,
  );
  const address = await bridge.getAddress();
  await s.sstb.grantRole(Roles.MINTER, address);
  await s.sstb.grantRole(Roles.BURNER, address);
  const primary = await f.primary.bridge.getAddress();
  await bridge.setRoutes([routeTo(ARB, f.stranger.address, LIMITS)]); // the old arbitrum bridge
  await bridge.setRoutes([routeTo(ARB, primary, LIMITS)]);
  await bridge.setGovernanceExecutor(await s.executor.getAddress());
  await bridge.setFee(25n);
  await bridge.setRateLimit(ARB, Token.SSTB, false, {
    enabled: true,
    capacity: parseEther("40"),
    rate: parseEther("1"),
  });
  await f.primary.bridge.setRoutes([routeTo(ETH, address, LIMITS)]);
  const sendSstb = async (amount: bigint) => {
    const tx = await f.primary.bridge
      .connect(f.alice)
      .send(ETH, f.bob.address, await f.primary.sstb.getAddress(), amount, 0, { value: parseEther("0.001") });
    return sentMessageId(f, (await tx.wait())!);
  };
  const queued = await sendSstb(parseEther("100"));
  await f.relayer.poll();
  expect(await bridge.messageStatus(queued)).to.equal(Status.Queued);
  return { f, bridge, queued, sendSstb };
}

/** What the bridge's storage says, read the same way before and after (views both versions have). */
async function bridgeViews(bridge: BridgePre23 | Bridge, queued: string, formerPeer: string) {
  return {
    fee: await bridge.feeBps(),
    discounts: String(await bridge.discounts()),
    prices: String(await bridge.prices()),
    treasury: await bridge.treasury(),
    route: String(await bridge.routeOf(ARB)),
    former: await bridge.isFormerPeer(ARB, formerPeer),
    buckets:
      String(await bridge.bucketOf(ARB, Token.SSTB, false)) + String(await bridge.bucketOf(ARB, Token.SSTB, true)),
    totals: String(await bridge.bridgedTotals(Token.SSTB)),
    queue: String(await bridge.queueOf(ARB, Token.SSTB)),
    message: String(await bridge.messageOf(queued)),
    delivery: String((await bridge.queuedDeliveryOf(queued)).slice(0, 3)),
  };
}

describe("Upgrade from the implementation before issue 23", function () {
  it("the upgrades plugin accepts the storage layouts of the redemption manager, the minting agent and the bridge", async function () {
    const validate = async (from: string, to: string, constructorArgs: unknown[]) =>
      api.validateUpgrade(await ethers.getContractFactory(from), await ethers.getContractFactory(to), {
        kind: "uups",
        constructorArgs,
      } as Parameters<typeof api.validateUpgrade>[2]);
    await validate("RedemptionManagerPre23", "RedemptionManager", [PLACEHOLDER, PLACEHOLDER]);
    await validate("MintingAgentPre23", "MintingAgent", [PLACEHOLDER, PLACEHOLDER, PLACEHOLDER]);
    await validate("BridgePre23", "Bridge", [PLACEHOLDER, 1n, PLACEHOLDER, PLACEHOLDER, PLACEHOLDER, false]);
  });

  describe("the redemption manager and the minting agent", function () {
    it("upgrade with initializeV2: version 2, every parameter as governance left it, records as written", async function () {
      const s = await networkHelpers.loadFixture(managerBefore23);
      const { f } = s;
      expect(await s.manager.initializedVersion()).to.equal(1n);
      const getter = async (id: bigint) => [...(await s.manager.redemptions(id))].map(String);
      const before = {
        records: [await getter(1n), await getter(2n), await getter(3n)],
        lease: await s.manager.leaseOf(1n),
      };
      const old = [
        await s.manager.redemptionOf(1n),
        await s.manager.redemptionOf(2n),
        await s.manager.redemptionOf(3n),
      ];
      const { manager, agent, views } = await upgradeManagerAndAgent(s);

      for (const proxy of [manager, agent]) {
        expect(await proxy.initializedVersion()).to.equal(await proxy.latestInitializerVersion());
        expect(await proxy.initializedVersion()).to.equal(2n);
      }
      const parameters = await parametersOf({
        registry: f.registry,
        mintingAgent: agent,
        redemptionManager: manager,
        redemptionViews: views,
      });
      expect(zeroParameters(parameters)).to.deep.equal([]);
      expect(parameters.redemptionManager.disputeResolutionPeriod).to.equal(30n * DAY);
      expect(parameters.mintingAgent.guardianPauseDuration).to.equal(2n * DAY);
      expect(parameters.redemptionManager.feeBps).to.equal(10n);

      expect([await getter(1n), await getter(2n), await getter(3n)]).to.deep.equal(before.records);
      for (const [i, id] of [1n, 2n, 3n].entries()) {
        expect(String(await views.redemptionOf(id))).to.equal(String(old[i]));
      }
      expect(String(await views.leaseOf(1n))).to.equal(String(before.lease));
      // the renewal accepted before the upgrade recorded no paid period: its window counts from
      // its acceptance, as the code that accepted it promised
      expect(await views.renewalPeriodStart(2n)).to.equal(0n);
      expect((await views.deadlinesOf(2n))[1]).to.equal(old[1].fulfilledAt + 72n * 3_600n);
    });

    it("settles what the old code opened, and a renewal accepted after the upgrade stays disputable until its period", async function () {
      const s = await networkHelpers.loadFixture(managerBefore23);
      const { f, end } = s;
      const { manager, views } = await upgradeManagerAndAgent(s);
      await manager.connect(f.provider).fulfillRedemption(3n, "envelope");
      await manager.connect(f.user).confirmRedemption(3n);
      expect(await views.redemptionStatus(3n)).to.equal(RStatus.Confirmed);
      const renewedEnd = end + 30n * DAY;
      await manager.connect(f.provider).offerRenewal(1n, parseEther("10"), 30n * DAY, renewedEnd - DAY);
      await manager.connect(f.user).acceptRenewal(1n, parseEther("10"), 30n * DAY); // 4
      expect(await views.renewalPeriodStart(4n)).to.equal(renewedEnd);
      expect((await views.deadlinesOf(4n))[1]).to.equal(renewedEnd + 72n * 3_600n);
      await expect(manager.connect(f.stranger).finalizeRedemption(4n)).to.be.revertedWithCustomError(
        manager,
        "DisputeWindowOpen",
      );
    });
  });

  describe("the bridge", function () {
    it("upgrades in place: routes, limits, totals and the queued delivery read as before, and the delivery completes", async function () {
      const { f, bridge, queued } = await networkHelpers.loadFixture(bridgeBefore23);
      const before = await bridgeViews(bridge, queued, f.stranger.address);
      const implementation = await new Bridge__factory(f.deployer).deploy(
        await f.satellite.router.getAddress(),
        ETH,
        await f.satellite.sstb.getAddress(),
        await f.satellite.governanceToken.getAddress(),
        await f.satellite.stablecoin.getAddress(),
        false,
      );
      await bridge.upgradeToAndCall(await implementation.getAddress(), "0x");
      const upgraded = Bridge__factory.connect(await bridge.getAddress(), f.deployer);
      expect(await upgraded.initializedVersion()).to.equal(await upgraded.latestInitializerVersion());
      expect(await bridgeViews(upgraded, queued, f.stranger.address)).to.deep.equal(before);
      // queued before issue 23: no peer recorded
      expect((await upgraded.queuedDeliveryOf(queued))[3]).to.equal(ethers.ZeroAddress);
      for (let i = 0; i < 4 && (await upgraded.messageStatus(queued)) === Status.Queued; i++) {
        await networkHelpers.time.increase(60);
        await upgraded.executeQueued(queued);
      }
      expect(await upgraded.messageStatus(queued)).to.equal(Status.Completed);
      expect(await f.satellite.sstb.balanceOf(f.bob.address)).to.equal(parseEther("100"));
    });

    it("refuses a delivery it queued before issue 23 once governance forgets a peer of its chain (the sender was not recorded)", async function () {
      const { f, bridge, queued } = await networkHelpers.loadFixture(bridgeBefore23);
      const implementation = await new Bridge__factory(f.deployer).deploy(
        await f.satellite.router.getAddress(),
        ETH,
        await f.satellite.sstb.getAddress(),
        await f.satellite.governanceToken.getAddress(),
        await f.satellite.stablecoin.getAddress(),
        false,
      );
      await bridge.upgradeToAndCall(await implementation.getAddress(), "0x");
      const upgraded = Bridge__factory.connect(await bridge.getAddress(), f.deployer);
      await upgraded.forgetPeer(ARB, f.stranger.address);
      await expect(upgraded.executeQueued(queued))
        .to.emit(upgraded, "MessageRefused")
        .withArgs(queued, ARB, ethers.ZeroAddress, parseEther("100"));
      expect(await upgraded.messageStatus(queued)).to.equal(Status.Failed);
    });
  });
});
