import { expect } from "chai";
import hre, { network } from "hardhat";
import { upgrades } from "@openzeppelin/hardhat-upgrades";
import { parseEther } from "ethers";

import {
  FuturesMarketV2__factory,
  MintingAgentV2__factory,
  OptionsMarketV2__factory,
  ProviderRegistryV2__factory,
  RedemptionManagerV2__factory,
  SSTBV2__factory,
  SpotMarketV2__factory,
} from "../../../typechain-types/index.js";
import { mintFor, registerActive } from "../../helpers/protocol.js";
import { deployRedemptionScenario, managerState } from "../../helpers/redemption.js";
import { protocolState } from "../../helpers/snapshot.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const api = await upgrades(hre, connection);

/** A deployment with state in every proxy: capacity, balances, a fulfilled and a pending redemption. */
async function withState() {
  const f = await deployRedemptionScenario(connection);
  await registerActive(f, f.provider2);
  await mintFor(f, f.provider2, parseEther("40"));
  await f.redemptionManager.connect(f.user).initiateRedemption(parseEther("3"), f.provider.address);
  await f.redemptionManager.connect(f.provider).fulfillRedemption(1n, "envelope");
  await f.redemptionManager.connect(f.user).initiateRedemption(parseEther("2"), f.provider.address);
  await f.redemptionManager.setRedemptionFee(30n);
  await f.mintingAgent.connect(f.guardian).pause();
  return f;
}

describe("UUPS upgrades keep state", function () {
  it("upgrades SSTB, ProviderRegistry, MintingAgent and RedemptionManager to V2 with all state intact", async function () {
    const f = await networkHelpers.loadFixture(withState);
    const accounts = [f.user.address, f.provider.address, f.provider2.address, f.treasury.address];
    const snapshot = async () => ({
      protocol: await protocolState(f, accounts),
      manager: await managerState(f, [1n, 2n]),
      fee: await f.redemptionViews.feeBps(),
      verifier: await f.mintingAgent.verifier(),
      paused: await f.mintingAgent.paused(),
      ratio: await f.registry.collateralRatioBps(),
      profile: (await f.registry.providerInfo(f.provider2.address)).profile.name,
      allowance: await f.sstb.allowance(f.user.address, f.managerAddress),
      name: await f.sstb.name(),
    });
    const before = await snapshot();

    const registry = await f.registry.getAddress();
    const sstb = await f.sstb.getAddress();
    const cuToken = await f.cuToken.getAddress();
    const v2s = [
      [f.sstb, await new SSTBV2__factory(f.deployer).deploy()],
      [f.registry, await new ProviderRegistryV2__factory(f.deployer).deploy()],
      [f.mintingAgent, await new MintingAgentV2__factory(f.deployer).deploy(registry, cuToken, sstb)],
      [f.redemptionManager, await new RedemptionManagerV2__factory(f.deployer).deploy(registry, sstb)],
    ] as const;
    for (const [proxy, implementation] of v2s) {
      await expect(proxy.upgradeToAndCall(await implementation.getAddress(), "0x")).to.emit(proxy, "Upgraded");
      const upgraded = SSTBV2__factory.connect(await proxy.getAddress(), ethers.provider);
      expect(await upgraded.version()).to.equal(2n);
    }
    expect(await snapshot()).to.deep.equal(before);

    // and everything still works on the new code
    await f.redemptionManager.connect(f.user).confirmRedemption(1n);
    await f.mintingAgent.unpause();
    await mintFor(f, f.provider2, parseEther("1"));
    expect(await f.redemptionViews.redemptionStatus(1n)).to.equal(3n);
  });

  it("the upgrades plugin accepts each V2 as a layout-compatible upgrade", async function () {
    const placeholder = "0x000000000000000000000000000000000000dEaD";
    for (const [current, next, constructorArgs] of [
      ["SSTB", "SSTBV2", []],
      ["ProviderRegistry", "ProviderRegistryV2", []],
      ["MintingAgent", "MintingAgentV2", [placeholder, placeholder, placeholder]],
      ["RedemptionManager", "RedemptionManagerV2", [placeholder, placeholder]],
      ["SpotMarket", "SpotMarketV2", [placeholder, placeholder]],
      ["FuturesMarket", "FuturesMarketV2", [placeholder, placeholder]],
      ["OptionsMarket", "OptionsMarketV2", [placeholder, placeholder]],
    ] as const) {
      const opts = { kind: "uups", constructorArgs } as Parameters<typeof api.validateUpgrade>[2];
      await api.validateUpgrade(await ethers.getContractFactory(current), await ethers.getContractFactory(next), opts);
    }
  });

  it("upgrades the three markets to V2 with their positions, escrow and parameters intact", async function () {
    const f = await networkHelpers.loadFixture(withState);
    const now = BigInt((await ethers.provider.getBlock("latest"))!.timestamp);
    const [spot, futures, options] = [f.spotMarket, f.futuresMarket, f.optionsMarket];
    const addresses = await Promise.all([spot, futures, options].map((m) => m.getAddress()));
    await f.sstb.connect(f.provider).approve(addresses[0], ethers.MaxUint256);
    await f.sstb.connect(f.provider).approve(addresses[1], ethers.MaxUint256);
    await f.sstb.connect(f.provider).approve(addresses[2], ethers.MaxUint256);
    await spot.connect(f.provider).createListing(parseEther("5"), 2_000_000n, now + 86_400n);
    await futures.connect(f.provider).offerToSell(parseEther("3"), 1_000_000n, now + 86_400n);
    await options.connect(f.provider).writeCall(parseEther("2"), 1_500_000n, 100_000n, now + 86_400n);
    await spot.setMarketFee(55n);
    await futures.connect(f.guardian).pause();
    const snapshot = async () => ({
      listings: [
        [...(await spot.listingOf(1n))].map(String),
        [...(await futures.listingOf(2n))].map(String),
        [...(await options.listingOf(3n))].map(String),
      ],
      counts: await Promise.all([spot, futures, options].map((m) => m.listingCount())),
      fees: await Promise.all([spot, futures, options].map((m) => m.feeBps())),
      paused: await futures.pausedUntil(),
      escrow: await Promise.all(addresses.map((a) => f.sstb.balanceOf(a))),
    });
    const before = await snapshot();
    const tokens = [await f.sstb.getAddress(), await f.collateral.getAddress()] as const;
    const v2s = [
      [spot, await new SpotMarketV2__factory(f.deployer).deploy(...tokens)],
      [futures, await new FuturesMarketV2__factory(f.deployer).deploy(...tokens)],
      [options, await new OptionsMarketV2__factory(f.deployer).deploy(...tokens)],
    ] as const;
    for (const [proxy, implementation] of v2s) {
      await expect(proxy.upgradeToAndCall(await implementation.getAddress(), "0x")).to.emit(proxy, "Upgraded");
      expect(await SpotMarketV2__factory.connect(await proxy.getAddress(), ethers.provider).version()).to.equal(2n);
    }
    expect(await snapshot()).to.deep.equal(before);
    // the new code keeps trading: the next spot id follows on
    await spot.connect(f.provider).createListing(parseEther("1"), 2_000_000n, now + 86_400n);
    expect(await spot.listingCount()).to.equal(2n);
    await spot.connect(f.provider).cancel(1n);
  });
});
