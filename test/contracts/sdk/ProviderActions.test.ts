import { expect } from "chai";
import { network } from "hardhat";
import { parseEther, parseUnits } from "ethers";

import {
  ContractRevertedError,
  InvalidParameterError,
  approveCollateralSync,
  approveRetirementSync,
  createProtocolClient,
  depositCollateralSync,
  getProviderAccount,
  hashReviewedProfile,
  prepareRegisterProvider,
  registerProviderSync,
  retireCapacitySync,
  verifyAndMintSSTBSync,
  withdrawCollateralSync,
} from "@compute-capacity/sdk";
import type { ProtocolClient, ProviderProfile } from "@compute-capacity/sdk";
import { DAY, collateralFor, deployProtocol } from "../../helpers/protocol.js";
import type { ProtocolFixture } from "../../helpers/protocol.js";

const connection = await network.create();
const { networkHelpers } = connection;
const { loadFixture } = networkHelpers;

const PROFILE: ProviderProfile = {
  name: "Fresh Compute",
  country: "NL",
  region: "Noord-Holland",
  email: "ops@fresh.example",
  website: "https://fresh.example",
  cpuType: "AMD EPYC 9654",
  totalCpuCores: 64,
  totalRamGb: 256,
  totalStorageGb: 4096,
  networkCapacityMbps: 10_000,
};

interface Fixture extends ProtocolFixture {
  /** A new account's client (no registration, 1,000 collateral units, no approvals). */
  fresh: ProtocolClient;
}

async function fixture(): Promise<Fixture> {
  const f = await deployProtocol(connection);
  await f.collateral.mint(f.stranger.address, parseUnits("1000", 6));
  const deployment = {
    chain: "local",
    chainId: Number(f.chainId),
    contracts: {
      SSTB: await f.sstb.getAddress(),
      RedemptionManager: await f.redemptionManager.getAddress(),
      RedemptionViews: await f.redemptionViews.getAddress(),
      ProviderRegistry: await f.registry.getAddress(),
      MintingAgent: await f.mintingAgent.getAddress(),
      CollateralToken: await f.collateral.getAddress(),
    },
  };
  return { ...f, fresh: await createProtocolClient({ runner: f.stranger, deployment }) };
}

/** Registered with the premium tier and approved by the approver, as governance would. */
async function registeredAndApproved(f: Fixture): Promise<void> {
  await registerProviderSync(f.fresh, { profile: PROFILE, tier: "premium" });
  await f.registry.connect(f.approver).approveProvider(f.stranger.address, hashReviewedProfile(PROFILE, 1));
}

describe("SDK provider actions (sdk/actions/): a provider's first day", function () {
  describe("registerProvider", function () {
    it("registers the caller pending review with its profile and tier; the account read says so", async function () {
      const f = await loadFixture(fixture);
      await registerProviderSync(f.fresh, { profile: PROFILE, tier: "premium" });
      const account = await getProviderAccount(f.fresh, { provider: f.stranger.address });
      expect(account).to.include({ status: "pending", tier: "premium" });
      expect(account.collateralToken).to.include({ symbol: "mUSDC", decimals: 6 });
      expect(account.collateralBalance).to.equal(parseUnits("1000", 6));
      expect(account.stakingPeriod).to.deep.equal({ min: 7n * DAY, max: 365n * DAY });
      expect(account.collateralPerSstb).to.equal(collateralFor(parseEther("1")));
      expect((await f.registry.providerInfo(f.stranger.address)).profile.name).to.equal("Fresh Compute");
    });

    it("refuses a second registration with the registry's error, and an unknown tier or empty name before sending", async function () {
      const f = await loadFixture(fixture);
      await registerProviderSync(f.fresh, { profile: PROFILE, tier: "standard" });
      const error = await registerProviderSync(f.fresh, { profile: PROFILE, tier: "standard" }).catch(
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(ContractRevertedError);
      expect((error as ContractRevertedError).errorName).to.equal("ProviderAlreadyRegistered");
      expect(() => prepareRegisterProvider(f.fresh, { profile: PROFILE, tier: "gold" as never })).to.throw(
        InvalidParameterError,
      );
      expect(() => prepareRegisterProvider(f.fresh, { profile: { ...PROFILE, name: " " }, tier: "standard" })).to.throw(
        "Invalid profile.name",
      );
    });
  });

  describe("depositCollateral and withdrawCollateral", function () {
    it("deposits after an approval and withdraws the excess; more than the excess is refused with the figure", async function () {
      const f = await loadFixture(fixture);
      await registeredAndApproved(f);
      const amount = parseUnits("200", 6);
      await approveCollateralSync(f.fresh, { amount, spender: "ProviderRegistry" });
      await depositCollateralSync(f.fresh, { amount });
      let account = await getProviderAccount(f.fresh, { provider: f.stranger.address });
      expect(account.freeCollateral).to.equal(amount);
      expect(account.excessCollateral, "nothing minted: all of it is excess").to.equal(amount);
      await withdrawCollateralSync(f.fresh, { amount: parseUnits("50", 6) });
      account = await getProviderAccount(f.fresh, { provider: f.stranger.address });
      expect(account.freeCollateral).to.equal(parseUnits("150", 6));
      expect(account.collateralBalance).to.equal(parseUnits("850", 6));
      const refused = await withdrawCollateralSync(f.fresh, { amount: parseUnits("151", 6) }).catch((e: unknown) => e);
      expect((refused as ContractRevertedError).errorName).to.equal("InsufficientCollateral");
      expect((refused as ContractRevertedError).args.available).to.equal(parseUnits("150", 6));
    });
  });

  describe("verifyAndMintSSTB, approveRetirement and retireCapacity", function () {
    it("mints the unit's value with the collateral it brings, then retires part of it after the staking period", async function () {
      const f = await loadFixture(fixture);
      await registeredAndApproved(f);
      const value = parseEther("100");
      const proof = await f.proof(await f.attestation(f.stranger.address, { cuValue: value }));
      const collateral = collateralFor(value);
      await approveCollateralSync(f.fresh, { amount: collateral, spender: "MintingAgent" });
      const minted = await verifyAndMintSSTBSync(f.fresh, {
        proof,
        collateralAmount: collateral,
        stakingPeriod: 7n * DAY,
      });
      expect(minted).to.include({ amount: value, collateralAmount: collateral, stakingPeriod: 7n * DAY });
      expect(minted.cuId).to.equal(await f.cuToken.totalComputeUnits());
      expect(await f.sstb.balanceOf(f.stranger.address)).to.equal(value);

      // during the staking period retirement is refused with its end
      await approveRetirementSync(f.fresh, { amount: parseEther("40") });
      const early = await retireCapacitySync(f.fresh, { amount: parseEther("40") }).catch((e: unknown) => e);
      expect((early as ContractRevertedError).errorName).to.equal("StakingPeriodActive");

      await networkHelpers.time.increase(7n * DAY);
      await retireCapacitySync(f.fresh, { amount: parseEther("40") });
      const account = await getProviderAccount(f.fresh, { provider: f.stranger.address });
      expect(account.availableCapacity).to.equal(parseEther("60"));
      expect(account.totalCapacity).to.equal(parseEther("60"));
      expect(await f.sstb.balanceOf(f.stranger.address)).to.equal(parseEther("60"));
      expect(account.excessCollateral, "the retired capacity's collateral is excess now").to.equal(
        collateral - collateralFor(parseEther("60")),
      );
    });

    it("refuses a staking period out of the registry's bounds, and a provider still in review", async function () {
      const f = await loadFixture(fixture);
      await registerProviderSync(f.fresh, { profile: PROFILE, tier: "premium" });
      const proof = await f.proof(await f.attestation(f.stranger.address));
      const pending = await verifyAndMintSSTBSync(f.fresh, {
        proof,
        collateralAmount: 0n,
        stakingPeriod: 7n * DAY,
      }).catch((e: unknown) => e);
      expect((pending as ContractRevertedError).errorName).to.equal("ProviderInvalidStatus");
      await f.registry.connect(f.approver).approveProvider(f.stranger.address, hashReviewedProfile(PROFILE, 1));
      const short = await verifyAndMintSSTBSync(f.fresh, { proof, collateralAmount: 0n, stakingPeriod: DAY }).catch(
        (e: unknown) => e,
      );
      expect((short as ContractRevertedError).errorName).to.equal("StakingPeriodOutOfBounds");
      expect(await f.sstb.balanceOf(f.stranger.address), "nothing minted").to.equal(0n);
    });
  });
});
