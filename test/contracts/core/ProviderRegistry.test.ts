import { expect } from "chai";
import { network } from "hardhat";
import { parseEther, parseUnits } from "ethers";

import { Roles } from "@compute-capacity/sdk";
import {
  DAY,
  Status,
  Tier,
  collateralFor,
  deployProtocol,
  mintFor,
  registerActive,
  reviewedSample,
  sampleProfile,
} from "../../helpers/protocol.js";
import type { ProtocolFixture } from "../../helpers/protocol.js";
import { protocolState } from "../../helpers/snapshot.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture, time } = networkHelpers;

async function fixture(): Promise<ProtocolFixture> {
  return deployProtocol(connection);
}

/** A fixture where the test account plays the redemption manager, to drive the hooks directly. */
async function hooksFixture() {
  const f = await deployProtocol(connection);
  await registerActive(f, f.provider);
  await mintFor(f, f.provider, parseEther("100"));
  await f.registry.grantRole(Roles.REDEMPTION_MANAGER, f.deployer.address);
  return f;
}

describe("ProviderRegistry", function () {
  describe("register", function () {
    it("registers the caller as pending with the starting reputation and its profile", async function () {
      const f = await loadFixture(fixture);
      const profile = sampleProfile("Orbit GPU");
      await expect(f.registry.connect(f.provider).register(profile, Tier.Premium)).to.emit(
        f.registry,
        "ProviderRegistered",
      );
      const info = await f.registry.providerInfo(f.provider.address);
      expect(info.account.status).to.equal(Status.Pending);
      expect(info.account.tier).to.equal(Tier.Premium);
      expect(info.account.reputation).to.equal(5000n);
      expect(info.account.registeredAt).to.equal(BigInt((await ethers.provider.getBlock("latest"))!.timestamp));
      expect(info.profile.name).to.equal("Orbit GPU");
      expect(info.profile.country).to.equal(profile.country);
      expect(info.profile.totalCpuCores).to.equal(BigInt(profile.totalCpuCores));
      expect(await f.registry.providerCount()).to.equal(1n);
      expect(await f.registry.providers(0n, 10n)).to.deep.equal([f.provider.address]);
    });

    it("reverts for an account already registered", async function () {
      const f = await loadFixture(fixture);
      await f.registry.connect(f.provider).register(sampleProfile(), Tier.Standard);
      await expect(f.registry.connect(f.provider).register(sampleProfile(), Tier.Enterprise))
        .to.be.revertedWithCustomError(f.registry, "ProviderAlreadyRegistered")
        .withArgs(f.provider.address);
      expect((await f.registry.accountOf(f.provider.address)).tier).to.equal(Tier.Standard);
    });

    it("rejects an empty or oversized profile field and stores nothing", async function () {
      const f = await loadFixture(fixture);
      const cases: Array<[string, Record<string, string>]> = [
        ["name", { name: "" }],
        ["name", { name: "x".repeat(65) }],
        ["country", { country: "x".repeat(65) }],
        ["region", { region: "x".repeat(65) }],
        ["email", { email: "x".repeat(257) }],
        ["website", { website: "x".repeat(257) }],
        ["cpuType", { cpuType: "x".repeat(257) }],
      ];
      for (const [field, override] of cases) {
        await expect(f.registry.connect(f.provider).register({ ...sampleProfile(), ...override }, Tier.Standard))
          .to.be.revertedWithCustomError(f.registry, "ProviderInvalidProfile")
          .withArgs(field);
      }
      expect(await f.registry.providerCount()).to.equal(0n);
    });

    it("rejects a tier outside the enum", async function () {
      const f = await loadFixture(fixture);
      await expect(f.registry.connect(f.provider).register(sampleProfile(), 3n)).to.be.revert(ethers);
    });
  });

  describe("updateProfile", function () {
    it("replaces the profile of a registered provider", async function () {
      const f = await loadFixture(fixture);
      await f.registry.connect(f.provider).register(sampleProfile(), Tier.Standard);
      await expect(f.registry.connect(f.provider).updateProfile(sampleProfile("Renamed"))).to.emit(
        f.registry,
        "ProviderProfileUpdated",
      );
      expect((await f.registry.providerInfo(f.provider.address)).profile.name).to.equal("Renamed");
    });

    it("refuses an unregistered account", async function () {
      const f = await loadFixture(fixture);
      await expect(f.registry.connect(f.stranger).updateProfile(sampleProfile()))
        .to.be.revertedWithCustomError(f.registry, "ProviderNotRegistered")
        .withArgs(f.stranger.address);
    });
  });

  describe("status", function () {
    it("moves pending -> active -> suspended -> active with events", async function () {
      const f = await loadFixture(fixture);
      await f.registry.connect(f.provider).register(sampleProfile(), Tier.Standard);
      await expect(f.registry.connect(f.approver).approveProvider(f.provider.address, reviewedSample()))
        .to.emit(f.registry, "ProviderStatusChanged")
        .withArgs(f.provider.address, Status.Pending, Status.Active, f.approver.address);
      await expect(f.registry.connect(f.arbitrator).suspendProvider(f.provider.address))
        .to.emit(f.registry, "ProviderStatusChanged")
        .withArgs(f.provider.address, Status.Active, Status.Suspended, f.arbitrator.address);
      await expect(f.registry.connect(f.deployer).reinstateProvider(f.provider.address, reviewedSample()))
        .to.emit(f.registry, "ProviderStatusChanged")
        .withArgs(f.provider.address, Status.Suspended, Status.Active, f.deployer.address);
    });

    it("lets governance suspend, and a pending provider be suspended", async function () {
      const f = await loadFixture(fixture);
      await f.registry.connect(f.provider).register(sampleProfile(), Tier.Standard);
      await f.registry.connect(f.deployer).suspendProvider(f.provider.address);
      expect((await f.registry.accountOf(f.provider.address)).status).to.equal(Status.Suspended);
    });

    it("rejects transitions from the wrong status", async function () {
      const f = await loadFixture(fixture);
      await registerActive(f, f.provider);
      await expect(f.registry.connect(f.approver).approveProvider(f.provider.address, reviewedSample()))
        .to.be.revertedWithCustomError(f.registry, "ProviderInvalidStatus")
        .withArgs(f.provider.address, Status.Active);
      await expect(f.registry.reinstateProvider(f.provider.address, reviewedSample()))
        .to.be.revertedWithCustomError(f.registry, "ProviderInvalidStatus")
        .withArgs(f.provider.address, Status.Active);
      await f.registry.connect(f.arbitrator).suspendProvider(f.provider.address);
      await expect(f.registry.connect(f.arbitrator).suspendProvider(f.provider.address))
        .to.be.revertedWithCustomError(f.registry, "ProviderInvalidStatus")
        .withArgs(f.provider.address, Status.Suspended);
      await expect(f.registry.connect(f.approver).approveProvider(f.stranger.address, reviewedSample()))
        .to.be.revertedWithCustomError(f.registry, "ProviderNotRegistered")
        .withArgs(f.stranger.address);
    });

    it("refuses strangers on approve, suspend and reinstate", async function () {
      const f = await loadFixture(fixture);
      await f.registry.connect(f.provider).register(sampleProfile(), Tier.Standard);
      await expect(f.registry.connect(f.stranger).approveProvider(f.provider.address, reviewedSample()))
        .to.be.revertedWithCustomError(f.registry, "AccessControlUnauthorizedAccount")
        .withArgs(f.stranger.address, Roles.APPROVER);
      await expect(f.registry.connect(f.stranger).suspendProvider(f.provider.address))
        .to.be.revertedWithCustomError(f.registry, "AccessControlUnauthorizedAccount")
        .withArgs(f.stranger.address, Roles.ARBITRATOR);
      // the approver cannot reinstate; only governance can
      await f.registry.connect(f.arbitrator).suspendProvider(f.provider.address);
      await expect(f.registry.connect(f.approver).reinstateProvider(f.provider.address, reviewedSample()))
        .to.be.revertedWithCustomError(f.registry, "AccessControlUnauthorizedAccount")
        .withArgs(f.approver.address, Roles.GOVERNANCE);
      expect((await f.registry.accountOf(f.provider.address)).status).to.equal(Status.Suspended);
    });
  });

  describe("depositCollateral", function () {
    it("moves collateral into the vault as free collateral", async function () {
      const f = await loadFixture(fixture);
      await f.registry.connect(f.provider).register(sampleProfile(), Tier.Standard);
      const amount = parseUnits("500", 6);
      const tx = f.registry.connect(f.provider).depositCollateral(amount);
      await expect(tx).to.emit(f.registry, "CollateralDeposited").withArgs(f.provider.address, amount);
      await expect(tx).to.changeTokenBalances(
        ethers,
        f.collateral,
        [f.provider, await f.registry.getAddress()],
        [-amount, amount],
      );
      expect((await f.registry.accountOf(f.provider.address)).freeCollateral).to.equal(amount);
    });

    it("refuses zero, an unregistered account, and a missing allowance, changing nothing", async function () {
      const f = await loadFixture(fixture);
      await expect(f.registry.connect(f.stranger).depositCollateral(1n))
        .to.be.revertedWithCustomError(f.registry, "ProviderNotRegistered")
        .withArgs(f.stranger.address);
      await f.registry.connect(f.provider).register(sampleProfile(), Tier.Standard);
      await expect(f.registry.connect(f.provider).depositCollateral(0n)).to.be.revertedWithCustomError(
        f.registry,
        "ZeroAmount",
      );
      await f.collateral.connect(f.provider).approve(await f.registry.getAddress(), 0n);
      const before = await protocolState(f, [f.provider.address]);
      await expect(f.registry.connect(f.provider).depositCollateral(1n)).to.be.revertedWithCustomError(
        f.collateral,
        "ERC20InsufficientAllowance",
      );
      expect(await protocolState(f, [f.provider.address])).to.deep.equal(before);
    });
  });

  describe("withdrawCollateral", function () {
    async function stakedFixture() {
      const f = await deployProtocol(connection);
      await registerActive(f, f.provider);
      await mintFor(f, f.provider, parseEther("100"), 30n * DAY);
      await f.registry.connect(f.provider).depositCollateral(parseUnits("50", 6));
      return f;
    }

    it("pays out the excess over the requirement after the staking period", async function () {
      const f = await loadFixture(stakedFixture);
      await time.increase(30n * DAY);
      const excess = await f.registry.excessCollateral(f.provider.address);
      expect(excess).to.equal(parseUnits("50", 6));
      const tx = f.registry.connect(f.provider).withdrawCollateral(excess);
      await expect(tx).to.emit(f.registry, "CollateralWithdrawn").withArgs(f.provider.address, excess);
      await expect(tx).to.changeTokenBalance(ethers, f.collateral, f.provider, excess);
      expect((await f.registry.accountOf(f.provider.address)).freeCollateral).to.equal(
        collateralFor(parseEther("100")),
      );
    });

    it("reverts during the staking period and changes nothing", async function () {
      const f = await loadFixture(stakedFixture);
      const { stakedUntil } = await f.registry.accountOf(f.provider.address);
      const before = await protocolState(f, [f.provider.address]);
      await expect(f.registry.connect(f.provider).withdrawCollateral(1n))
        .to.be.revertedWithCustomError(f.registry, "StakingPeriodActive")
        .withArgs(stakedUntil);
      expect(await protocolState(f, [f.provider.address])).to.deep.equal(before);
    });

    it("never pays out collateral that backs available capacity", async function () {
      const f = await loadFixture(stakedFixture);
      await time.increase(30n * DAY);
      const excess = await f.registry.excessCollateral(f.provider.address);
      await expect(f.registry.connect(f.provider).withdrawCollateral(excess + 1n))
        .to.be.revertedWithCustomError(f.registry, "InsufficientCollateral")
        .withArgs(excess + 1n, excess);
    });

    it("refuses zero and unregistered accounts", async function () {
      const f = await loadFixture(stakedFixture);
      await expect(f.registry.connect(f.provider).withdrawCollateral(0n)).to.be.revertedWithCustomError(
        f.registry,
        "ZeroAmount",
      );
      await expect(f.registry.connect(f.stranger).withdrawCollateral(1n))
        .to.be.revertedWithCustomError(f.registry, "ProviderNotRegistered")
        .withArgs(f.stranger.address);
    });
  });

  describe("reserveCapacity", function () {
    it("lowers available capacity and locks 120% of its value", async function () {
      const f = await loadFixture(hooksFixture);
      const amount = parseEther("10");
      const lock = collateralFor(amount);
      await expect(f.registry.reserveCapacity(f.provider.address, amount))
        .to.emit(f.registry, "CollateralLocked")
        .withArgs(f.provider.address, amount, lock);
      const account = await f.registry.accountOf(f.provider.address);
      expect(account.availableCU).to.equal(parseEther("90"));
      expect(account.lockedCollateral).to.equal(lock);
      expect(account.freeCollateral).to.equal(collateralFor(parseEther("100")) - lock);
      expect(account.totalCU).to.equal(parseEther("100"));
    });

    it("returns the lock and the collateral ratio it was taken at", async function () {
      const f = await loadFixture(hooksFixture);
      const amount = parseEther("10");
      const [lock, ratioBps] = await f.registry.reserveCapacity.staticCall(f.provider.address, amount);
      expect(lock).to.equal(collateralFor(amount));
      expect(ratioBps).to.equal(12_000n);
      await f.registry.setCollateralRatio(15_000n);
      expect((await f.registry.reserveCapacity.staticCall(f.provider.address, amount))[1]).to.equal(15_000n);
    });

    it("reverts beyond available capacity, for an unregistered account (which has none), and for zero; a suspended provider qualifies", async function () {
      const f = await loadFixture(hooksFixture);
      await expect(f.registry.reserveCapacity(f.provider.address, parseEther("101")))
        .to.be.revertedWithCustomError(f.registry, "InsufficientCapacity")
        .withArgs(parseEther("101"), parseEther("100"));
      await expect(f.registry.reserveCapacity(f.provider.address, 0n)).to.be.revertedWithCustomError(
        f.registry,
        "ZeroAmount",
      );
      await expect(f.registry.reserveCapacity(f.stranger.address, 1n))
        .to.be.revertedWithCustomError(f.registry, "InsufficientCapacity")
        .withArgs(1n, 0n);
      await f.registry.connect(f.arbitrator).suspendProvider(f.provider.address);
      await expect(f.registry.reserveCapacity(f.provider.address, parseEther("1")))
        .to.emit(f.registry, "CollateralLocked")
        .withArgs(f.provider.address, parseEther("1"), collateralFor(parseEther("1")));
    });

    it("reverts when governance repriced collateral above what the provider holds", async function () {
      const f = await loadFixture(hooksFixture);
      await f.registry.setCollateralRatio(30_000n);
      const amount = parseEther("100");
      const free = collateralFor(amount);
      await expect(f.registry.reserveCapacity(f.provider.address, amount))
        .to.be.revertedWithCustomError(f.registry, "InsufficientCollateral")
        .withArgs((free * 30_000n) / 12_000n, free);
    });
  });

  describe("releaseLock and payOutLock", function () {
    it("release returns the lock to free collateral and raises reputation", async function () {
      const f = await loadFixture(hooksFixture);
      await f.registry.reserveCapacity(f.provider.address, parseEther("10"));
      const lock = collateralFor(parseEther("10"));
      const tx = f.registry.releaseLock(f.provider.address, lock, 600n, 1n);
      await expect(tx).to.emit(f.registry, "CollateralReleased").withArgs(f.provider.address, lock, 600n, 1n);
      await expect(tx).to.emit(f.registry, "ReputationChanged").withArgs(f.provider.address, 5000n, 5100n);
      const account = await f.registry.accountOf(f.provider.address);
      expect(account.lockedCollateral).to.equal(0n);
      expect(account.freeCollateral).to.equal(collateralFor(parseEther("100")));
    });

    it("release and payout keep the provider's statistics", async function () {
      const f = await loadFixture(hooksFixture);
      expect(await f.registry.providerStats(f.provider.address)).to.deep.equal([0n, 0n, 0n]);
      await f.registry.reserveCapacity(f.provider.address, parseEther("3"));
      const lock = collateralFor(parseEther("1"));
      await f.registry.releaseLock(f.provider.address, lock, 30n * 60n, 1n);
      await f.registry.releaseLock(f.provider.address, lock, 90n * 60n + 59n, 1n);
      await f.registry.payOutLock(f.provider.address, lock, f.user.address, ethers.ZeroAddress, 0n, 1n);
      const account = await f.registry.accountOf(f.provider.address);
      expect(account.totalRedemptions).to.equal(3n);
      expect(account.successfulRedemptions).to.equal(2n);
      expect(account.totalResponseTime).to.equal(120n * 60n + 59n);
      // the average is over successful redemptions, in whole minutes: (30 + 90.98) / 2 -> 60
      expect(await f.registry.providerStats(f.provider.address)).to.deep.equal([3n, 2n, 60n]);
    });

    it("payout sends the lock to the recipient and lowers reputation", async function () {
      const f = await loadFixture(hooksFixture);
      await f.registry.reserveCapacity(f.provider.address, parseEther("10"));
      const lock = collateralFor(parseEther("10"));
      const tx = f.registry.payOutLock(f.provider.address, lock, f.user.address, ethers.ZeroAddress, 0n, 1n);
      await expect(tx)
        .to.emit(f.registry, "CollateralPaidOut")
        .withArgs(f.provider.address, f.user.address, lock, 0n, 1n);
      await expect(tx).to.emit(f.registry, "ReputationChanged").withArgs(f.provider.address, 5000n, 4500n);
      await expect(tx).to.changeTokenBalances(
        ethers,
        f.collateral,
        [f.user, await f.registry.getAddress()],
        [lock, -lock],
      );
      expect((await f.registry.accountOf(f.provider.address)).lockedCollateral).to.equal(0n);
    });

    it("reputation is clamped to 0..10000", async function () {
      const f = await loadFixture(hooksFixture);
      await f.registry.setReputationDeltas(5000n, 5000n);
      await f.registry.reserveCapacity(f.provider.address, parseEther("5"));
      const lock = collateralFor(parseEther("1"));
      await f.registry.releaseLock(f.provider.address, lock, 0n, 1n);
      await f.registry.releaseLock(f.provider.address, lock, 0n, 1n);
      expect((await f.registry.accountOf(f.provider.address)).reputation).to.equal(10000n);
      for (let i = 0; i < 3; i++) {
        await f.registry.payOutLock(f.provider.address, lock, f.user.address, ethers.ZeroAddress, 0n, 1n);
      }
      expect((await f.registry.accountOf(f.provider.address)).reputation).to.equal(0n);
    });

    it("rejects a lock larger than what is locked, and a zero recipient", async function () {
      const f = await loadFixture(hooksFixture);
      await f.registry.reserveCapacity(f.provider.address, parseEther("10"));
      const lock = collateralFor(parseEther("10"));
      await expect(f.registry.releaseLock(f.provider.address, lock + 1n, 0n, 1n))
        .to.be.revertedWithCustomError(f.registry, "LockExceedsLocked")
        .withArgs(lock + 1n, lock);
      await expect(f.registry.payOutLock(f.provider.address, lock + 1n, f.user.address, ethers.ZeroAddress, 0n, 1n))
        .to.be.revertedWithCustomError(f.registry, "LockExceedsLocked")
        .withArgs(lock + 1n, lock);
      await expect(
        f.registry.payOutLock(f.provider.address, lock, ethers.ZeroAddress, ethers.ZeroAddress, 0n, 1n),
      ).to.be.revertedWithCustomError(f.registry, "ZeroAddress");
    });
  });

  describe("hooks access control", function () {
    it("refuses strangers on every hook", async function () {
      const f = await loadFixture(hooksFixture);
      const s = f.registry.connect(f.stranger);
      const p = f.provider.address;
      for (const [call, role] of [
        [() => s.recordMint(p, 1n, 0n, 30n * DAY), Roles.MINTING_AGENT],
        [() => s.recordRetire(p, 1n), Roles.MINTING_AGENT],
        [() => s.reserveCapacity(p, 1n), Roles.REDEMPTION_MANAGER],
        [() => s.releaseLock(p, 0n, 0n, 0n), Roles.REDEMPTION_MANAGER],
        [() => s.payOutLock(p, 0n, f.stranger.address, ethers.ZeroAddress, 0n, 0n), Roles.REDEMPTION_MANAGER],
      ] as const) {
        await expect(call())
          .to.be.revertedWithCustomError(f.registry, "AccessControlUnauthorizedAccount")
          .withArgs(f.stranger.address, role);
      }
    });
  });

  describe("governance parameters", function () {
    it("sets each parameter within its bounds with an event", async function () {
      const f = await loadFixture(fixture);
      await expect(f.registry.setCollateralRatio(15_000n))
        .to.emit(f.registry, "ParameterUpdated")
        .withArgs(ethers.encodeBytes32String("collateralRatioBps"), 12_000n, 15_000n);
      await f.registry.setCollateralPerCU(2_000_000n);
      await f.registry.setStakingPeriodBounds(DAY, 30n * DAY);
      await f.registry.setReputationDeltas(50n, 1000n);
      expect(await f.registry.collateralRatioBps()).to.equal(15_000n);
      expect(await f.registry.collateralPerCU()).to.equal(2_000_000n);
      expect(await f.registry.stakingPeriodBounds()).to.deep.equal([DAY, 30n * DAY]);
      expect(await f.registry.reputationDeltas()).to.deep.equal([50n, 1000n]);
      expect(await f.registry.requiredCollateral(parseEther("1"))).to.equal(3_000_000n);
    });

    it("rejects out-of-bounds values and keeps the old ones", async function () {
      const f = await loadFixture(fixture);
      const bad: Array<Promise<unknown>> = [
        f.registry.setCollateralRatio(9_999n),
        f.registry.setCollateralRatio(30_001n),
        f.registry.setCollateralPerCU(0n),
        f.registry.setCollateralPerCU(10n ** 30n + 1n),
        f.registry.setStakingPeriodBounds(3599n, DAY),
        f.registry.setStakingPeriodBounds(2n * DAY, DAY),
        f.registry.setStakingPeriodBounds(DAY, 5n * 365n * DAY + 1n),
        f.registry.setReputationDeltas(0n, 1n),
        f.registry.setReputationDeltas(1n, 5001n),
      ];
      for (const call of bad) await expect(call).to.be.revertedWithCustomError(f.registry, "ParameterOutOfBounds");
      expect(await f.registry.collateralRatioBps()).to.equal(12_000n);
      expect(await f.registry.collateralPerCU()).to.equal(parseUnits("1", 6));
      expect(await f.registry.stakingPeriodBounds()).to.deep.equal([7n * DAY, 365n * DAY]);
      expect(await f.registry.reputationDeltas()).to.deep.equal([100n, 500n]);
    });

    it("refuses strangers", async function () {
      const f = await loadFixture(fixture);
      const s = f.registry.connect(f.stranger);
      for (const call of [
        () => s.setCollateralRatio(12_000n),
        () => s.setCollateralPerCU(1n),
        () => s.setStakingPeriodBounds(DAY, 2n * DAY),
        () => s.setReputationDeltas(1n, 1n),
      ]) {
        await expect(call())
          .to.be.revertedWithCustomError(f.registry, "AccessControlUnauthorizedAccount")
          .withArgs(f.stranger.address, Roles.GOVERNANCE);
      }
    });
  });

  describe("views", function () {
    it("statusAndTierOf gives a provider's status and tier, None for an unregistered account", async function () {
      const f = await loadFixture(fixture);
      expect(await f.registry.statusAndTierOf(f.provider.address)).to.deep.equal([Status.None, Tier.Standard]);
      await f.registry.connect(f.provider).register(sampleProfile(), Tier.Enterprise);
      expect(await f.registry.statusAndTierOf(f.provider.address)).to.deep.equal([Status.Pending, Tier.Enterprise]);
      await f.registry.connect(f.arbitrator).suspendProvider(f.provider.address);
      expect(await f.registry.statusAndTierOf(f.provider.address)).to.deep.equal([Status.Suspended, Tier.Enterprise]);
    });

    it("pages through providers in registration order", async function () {
      const f = await loadFixture(fixture);
      await f.registry.connect(f.provider).register(sampleProfile("A"), Tier.Standard);
      await f.registry.connect(f.provider2).register(sampleProfile("B"), Tier.Enterprise);
      expect(await f.registry.providers(0n, 1n)).to.deep.equal([f.provider.address]);
      expect(await f.registry.providers(1n, 5n)).to.deep.equal([f.provider2.address]);
      expect(await f.registry.providers(2n, 5n)).to.deep.equal([]);
      expect(await f.registry.providers(0n, ethers.MaxUint256)).to.deep.equal([
        f.provider.address,
        f.provider2.address,
      ]);
      expect(await f.registry.providers(ethers.MaxUint256, 1n)).to.deep.equal([]);
    });

    it("requiredCollateral rounds up", async function () {
      const f = await loadFixture(fixture);
      expect(await f.registry.requiredCollateral(1n)).to.equal(1n);
      expect(await f.registry.requiredCollateral(parseEther("1"))).to.equal(1_200_000n);
      expect(await f.registry.requiredCollateral(0n)).to.equal(0n);
    });
  });
});
