import { expect } from "chai";
import { network } from "hardhat";
import { parseEther } from "ethers";

import { Roles } from "@compute-capacity/sdk";
import { DAY, collateralFor, deployProtocol, mintFor, registerActive, sampleProfile } from "../../helpers/protocol.js";
import type { ProtocolFixture } from "../../helpers/protocol.js";
import { pauseAs } from "../../helpers/pause.js";
import { protocolState } from "../../helpers/snapshot.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture, time } = networkHelpers;

async function activeProviderFixture(): Promise<ProtocolFixture> {
  const f = await deployProtocol(connection);
  await registerActive(f, f.provider);
  return f;
}

describe("MintingAgent", function () {
  describe("verifyAndMintSSTB", function () {
    it("mints cuValue sSTB to the provider and takes the collateral into the vault", async function () {
      const f = await loadFixture(activeProviderFixture);
      const value = parseEther("100");
      const collateral = collateralFor(value);
      const proof = await f.proof(await f.attestation(f.provider.address, { cuValue: value }));

      const tx = f.mintingAgent.connect(f.provider).verifyAndMintSSTB(proof, collateral, 30n * DAY);
      await expect(tx).to.changeTokenBalance(ethers, f.sstb, f.provider, value);
      await expect(tx).to.changeTokenBalances(
        ethers,
        f.collateral,
        [f.provider, await f.registry.getAddress()],
        [-collateral, collateral],
      );
      const account = await f.registry.accountOf(f.provider.address);
      expect(account.availableCU).to.equal(value);
      expect(account.totalCU).to.equal(value);
      expect(account.freeCollateral).to.equal(collateral);
      expect(await f.sstb.totalSupply()).to.equal(value);
    });

    it("creates the CU token and burns it in the same call, keeping the record", async function () {
      const f = await loadFixture(activeProviderFixture);
      const attestation = await f.attestation(f.provider.address);
      const proof = await f.proof(attestation);
      const tx = f.mintingAgent
        .connect(f.provider)
        .verifyAndMintSSTB(proof, collateralFor(attestation.cuValue), 30n * DAY);

      await expect(tx)
        .to.emit(f.cuToken, "TransferSingle")
        .withArgs(await f.mintingAgent.getAddress(), ethers.ZeroAddress, f.provider.address, 1n, attestation.cuValue);
      await expect(tx)
        .to.emit(f.cuToken, "TransferSingle")
        .withArgs(await f.mintingAgent.getAddress(), f.provider.address, ethers.ZeroAddress, 1n, attestation.cuValue);
      expect(await f.cuToken.balanceOf(f.provider.address, 1n)).to.equal(0n);

      const unit = await f.cuToken.computeUnit(1n);
      const block = await ethers.provider.getBlock("latest");
      expect(unit.cuHash).to.equal(attestation.cuHash);
      expect(unit.cuValue).to.equal(attestation.cuValue);
      expect(unit.provider).to.equal(f.provider.address);
      expect(unit.verifiedAt).to.equal(BigInt(block!.timestamp));
      expect(unit.specs.cpuCores).to.equal(BigInt(attestation.specs.cpuCores));
      expect(unit.specs.networkScore).to.equal(BigInt(attestation.specs.networkScore));
    });

    it("emits everything the indexer needs (cu.verified, sstb.minted)", async function () {
      const f = await loadFixture(activeProviderFixture);
      const attestation = await f.attestation(f.provider.address);
      const proof = await f.proof(attestation);
      const collateral = collateralFor(attestation.cuValue);
      const tx = f.mintingAgent.connect(f.provider).verifyAndMintSSTB(proof, collateral, 30n * DAY);

      await expect(tx).to.emit(f.cuToken, "ComputeUnitVerified");
      await expect(tx)
        .to.emit(f.mintingAgent, "SSTBMinted")
        .withArgs(f.provider.address, 1n, attestation.cuValue, collateral, 30n * DAY);
      await expect(tx)
        .to.emit(f.registry, "CapacityAdded")
        .withArgs(f.provider.address, attestation.cuValue, attestation.cuValue, (v: bigint) => v > 0n);
      await expect(tx)
        .to.emit(f.verifier, "AttestationConsumed")
        .withArgs(f.provider.address, attestation.cuHash, attestation.nonce, 2n);
    });

    it("accepts collateral deposited earlier instead of new collateral", async function () {
      const f = await loadFixture(activeProviderFixture);
      const value = parseEther("50");
      await f.registry.connect(f.provider).depositCollateral(collateralFor(value));
      const proof = await f.proof(await f.attestation(f.provider.address, { cuValue: value }));
      await expect(f.mintingAgent.connect(f.provider).verifyAndMintSSTB(proof, 0n, 30n * DAY)).to.changeTokenBalance(
        ethers,
        f.sstb,
        f.provider,
        value,
      );
    });

    it("requires collateral for all available capacity, not just the new unit", async function () {
      const f = await loadFixture(activeProviderFixture);
      await mintFor(f, f.provider, parseEther("100"));
      const proof = await f.proof(await f.attestation(f.provider.address, { cuValue: parseEther("100") }));
      const needed = collateralFor(parseEther("200"));
      const have = collateralFor(parseEther("100")) + collateralFor(parseEther("100")) - 1n;
      await expect(
        f.mintingAgent.connect(f.provider).verifyAndMintSSTB(proof, collateralFor(parseEther("100")) - 1n, 30n * DAY),
      )
        .to.be.revertedWithCustomError(f.registry, "InsufficientCollateral")
        .withArgs(needed, have);
    });

    it("reverts below 120% collateral and changes nothing", async function () {
      const f = await loadFixture(activeProviderFixture);
      const attestation = await f.attestation(f.provider.address);
      const proof = await f.proof(attestation);
      const needed = collateralFor(attestation.cuValue);
      const before = await protocolState(f, [f.provider.address]);
      await expect(f.mintingAgent.connect(f.provider).verifyAndMintSSTB(proof, needed - 1n, 30n * DAY))
        .to.be.revertedWithCustomError(f.registry, "InsufficientCollateral")
        .withArgs(needed, needed - 1n);
      expect(await protocolState(f, [f.provider.address])).to.deep.equal(before);
      expect(await f.cuToken.unitOfHash(attestation.cuHash)).to.equal(0n);
    });

    it("reverts for a pending, suspended or unregistered provider", async function () {
      const f = await loadFixture(activeProviderFixture);
      const collateral = collateralFor(parseEther("100"));
      // unregistered
      let proof = await f.proof(await f.attestation(f.provider2.address));
      await expect(f.mintingAgent.connect(f.provider2).verifyAndMintSSTB(proof, collateral, 30n * DAY))
        .to.be.revertedWithCustomError(f.registry, "ProviderInvalidStatus")
        .withArgs(f.provider2.address, 0n);
      // pending
      await f.registry.connect(f.provider2).register(sampleProfile(), 0n);
      proof = await f.proof(await f.attestation(f.provider2.address));
      await expect(f.mintingAgent.connect(f.provider2).verifyAndMintSSTB(proof, collateral, 30n * DAY))
        .to.be.revertedWithCustomError(f.registry, "ProviderInvalidStatus")
        .withArgs(f.provider2.address, 1n);
      // suspended
      await f.registry.connect(f.arbitrator).suspendProvider(f.provider.address);
      proof = await f.proof(await f.attestation(f.provider.address));
      await expect(f.mintingAgent.connect(f.provider).verifyAndMintSSTB(proof, collateral, 30n * DAY))
        .to.be.revertedWithCustomError(f.registry, "ProviderInvalidStatus")
        .withArgs(f.provider.address, 3n);
    });

    it("reverts for a staking period outside the bounds", async function () {
      const f = await loadFixture(activeProviderFixture);
      const collateral = collateralFor(parseEther("100"));
      for (const period of [7n * DAY - 1n, 365n * DAY + 1n]) {
        const proof = await f.proof(await f.attestation(f.provider.address));
        await expect(f.mintingAgent.connect(f.provider).verifyAndMintSSTB(proof, collateral, period))
          .to.be.revertedWithCustomError(f.registry, "StakingPeriodOutOfBounds")
          .withArgs(period, 7n * DAY, 365n * DAY);
      }
    });

    it("reverts when the collateral is not approved, and changes nothing", async function () {
      const f = await loadFixture(activeProviderFixture);
      await f.collateral.connect(f.provider).approve(await f.mintingAgent.getAddress(), 0n);
      const attestation = await f.attestation(f.provider.address);
      const proof = await f.proof(attestation);
      const before = await protocolState(f, [f.provider.address]);
      await expect(
        f.mintingAgent.connect(f.provider).verifyAndMintSSTB(proof, collateralFor(attestation.cuValue), 30n * DAY),
      ).to.be.revertedWithCustomError(f.collateral, "ERC20InsufficientAllowance");
      expect(await protocolState(f, [f.provider.address])).to.deep.equal(before);
    });

    it("reverts when someone else submits the provider's proof", async function () {
      const f = await loadFixture(activeProviderFixture);
      const proof = await f.proof(await f.attestation(f.provider.address));
      await expect(f.mintingAgent.connect(f.stranger).verifyAndMintSSTB(proof, 0n, 30n * DAY))
        .to.be.revertedWithCustomError(f.verifier, "AttestationWrongProvider")
        .withArgs(f.stranger.address, f.provider.address);
    });

    it("reverts on a replayed proof, and on a fresh proof of a unit already minted", async function () {
      const f = await loadFixture(activeProviderFixture);
      const attestation = await f.attestation(f.provider.address);
      const proof = await f.proof(attestation);
      await f.mintingAgent
        .connect(f.provider)
        .verifyAndMintSSTB(proof, collateralFor(attestation.cuValue * 2n), 30n * DAY);
      await expect(f.mintingAgent.connect(f.provider).verifyAndMintSSTB(proof, 0n, 30n * DAY))
        .to.be.revertedWithCustomError(f.cuToken, "CUTokenDuplicateUnit")
        .withArgs(attestation.cuHash, 1n);
      const again = await f.proof({ ...attestation, nonce: attestation.nonce + 1n });
      await expect(f.mintingAgent.connect(f.provider).verifyAndMintSSTB(again, 0n, 30n * DAY))
        .to.be.revertedWithCustomError(f.cuToken, "CUTokenDuplicateUnit")
        .withArgs(attestation.cuHash, 1n);
    });

    it("extends, never shortens, the staking period", async function () {
      const f = await loadFixture(activeProviderFixture);
      await mintFor(f, f.provider, parseEther("10"), 60n * DAY);
      const first = (await f.registry.accountOf(f.provider.address)).stakedUntil;
      await mintFor(f, f.provider, parseEther("10"), 7n * DAY);
      expect((await f.registry.accountOf(f.provider.address)).stakedUntil).to.equal(first);
    });
  });

  describe("retireCapacity", function () {
    async function mintedFixture() {
      const f = await activeProviderFixture();
      await mintFor(f, f.provider, parseEther("100"), 30n * DAY);
      await f.sstb.connect(f.provider).approve(await f.mintingAgent.getAddress(), ethers.MaxUint256);
      return f;
    }

    it("burns sSTB, lowers capacity and frees the collateral as excess", async function () {
      const f = await loadFixture(mintedFixture);
      await time.increase(30n * DAY);
      const tx = f.mintingAgent.connect(f.provider).retireCapacity(parseEther("40"));
      await expect(tx).to.changeTokenBalance(ethers, f.sstb, f.provider, -parseEther("40"));
      await expect(tx).to.emit(f.mintingAgent, "CapacityRetired").withArgs(f.provider.address, parseEther("40"));
      const account = await f.registry.accountOf(f.provider.address);
      expect(account.availableCU).to.equal(parseEther("60"));
      expect(account.totalCU).to.equal(parseEther("60"));
      expect(await f.registry.excessCollateral(f.provider.address)).to.equal(
        collateralFor(parseEther("100")) - collateralFor(parseEther("60")),
      );
      expect(await f.sstb.totalSupply()).to.equal(parseEther("60"));
    });

    it("reverts during the staking period and changes nothing", async function () {
      const f = await loadFixture(mintedFixture);
      const before = await protocolState(f, [f.provider.address]);
      const { stakedUntil } = await f.registry.accountOf(f.provider.address);
      await expect(f.mintingAgent.connect(f.provider).retireCapacity(parseEther("1")))
        .to.be.revertedWithCustomError(f.registry, "StakingPeriodActive")
        .withArgs(stakedUntil);
      expect(await protocolState(f, [f.provider.address])).to.deep.equal(before);
    });

    it("reverts beyond the available capacity", async function () {
      const f = await loadFixture(mintedFixture);
      await time.increase(30n * DAY);
      await expect(f.mintingAgent.connect(f.provider).retireCapacity(parseEther("101")))
        .to.be.revertedWithCustomError(f.registry, "InsufficientCapacity")
        .withArgs(parseEther("101"), parseEther("100"));
    });

    it("reverts for zero and without an sSTB allowance", async function () {
      const f = await loadFixture(mintedFixture);
      await time.increase(30n * DAY);
      await expect(f.mintingAgent.connect(f.provider).retireCapacity(0n)).to.be.revertedWithCustomError(
        f.mintingAgent,
        "MintingAgentZeroAmount",
      );
      await f.sstb.connect(f.provider).approve(await f.mintingAgent.getAddress(), 0n);
      await expect(f.mintingAgent.connect(f.provider).retireCapacity(1n)).to.be.revertedWithCustomError(
        f.sstb,
        "ERC20InsufficientAllowance",
      );
    });

    it("refuses an account that is not a provider", async function () {
      const f = await loadFixture(mintedFixture);
      await expect(f.mintingAgent.connect(f.stranger).retireCapacity(1n))
        .to.be.revertedWithCustomError(f.registry, "ProviderNotRegistered")
        .withArgs(f.stranger.address);
    });
  });

  describe("pause", function () {
    it("the guardian stops minting; retirement and withdrawal keep working; governance unpauses", async function () {
      const f = await loadFixture(activeProviderFixture);
      await mintFor(f, f.provider, parseEther("100"), 7n * DAY);
      await f.registry.connect(f.provider).depositCollateral(1_000_000n);
      const agent = f.mintingAgent;
      await pauseAs(agent, f.guardian, "guardian");

      const proof = await f.proof(await f.attestation(f.provider.address));
      const before = await protocolState(f, [f.provider.address]);
      await expect(
        agent.connect(f.provider).verifyAndMintSSTB(proof, collateralFor(parseEther("100")), 30n * DAY),
      ).to.be.revertedWithCustomError(agent, "EnforcedPause");
      expect(await protocolState(f, [f.provider.address])).to.deep.equal(before);

      await time.increase(7n * DAY);
      await f.sstb.connect(f.provider).approve(await agent.getAddress(), parseEther("10"));
      await agent.connect(f.provider).retireCapacity(parseEther("10"));
      await f.registry.connect(f.provider).withdrawCollateral(await f.registry.excessCollateral(f.provider.address));

      await expect(agent.connect(f.guardian).unpause())
        .to.be.revertedWithCustomError(agent, "AccessControlUnauthorizedAccount")
        .withArgs(f.guardian.address, Roles.GOVERNANCE);
      await expect(agent.connect(f.stranger).pause())
        .to.be.revertedWithCustomError(agent, "AccessControlUnauthorizedAccount")
        .withArgs(f.stranger.address, Roles.GUARDIAN);
      await expect(agent.unpause()).to.emit(agent, "Unpaused").withArgs(f.deployer.address);
      const fresh = await f.proof(await f.attestation(f.provider.address));
      await agent.connect(f.provider).verifyAndMintSSTB(fresh, collateralFor(parseEther("100")), 30n * DAY);
      expect(await agent.paused()).to.equal(false);
    });
  });

  describe("setVerifier", function () {
    it("lets governance replace the verifier", async function () {
      const f = await loadFixture(activeProviderFixture);
      const previous = await f.verifier.getAddress();
      await expect(f.mintingAgent.setVerifier(f.stranger.address))
        .to.emit(f.mintingAgent, "VerifierUpdated")
        .withArgs(previous, f.stranger.address);
      expect(await f.mintingAgent.verifier()).to.equal(f.stranger.address);
    });

    it("refuses a stranger and the zero address", async function () {
      const f = await loadFixture(activeProviderFixture);
      await expect(f.mintingAgent.connect(f.stranger).setVerifier(f.stranger.address))
        .to.be.revertedWithCustomError(f.mintingAgent, "AccessControlUnauthorizedAccount")
        .withArgs(f.stranger.address, ethers.id("GOVERNANCE_ROLE"));
      await expect(f.mintingAgent.setVerifier(ethers.ZeroAddress)).to.be.revertedWithCustomError(
        f.mintingAgent,
        "ZeroAddress",
      );
    });
  });

  describe("initialize", function () {
    it("cannot be called again on the proxy or on the implementation", async function () {
      const f = await loadFixture(activeProviderFixture);
      const args = [f.stranger.address, f.stranger.address] as const;
      await expect(f.mintingAgent.initialize(...args)).to.be.revertedWithCustomError(
        f.mintingAgent,
        "InvalidInitialization",
      );
      const implementation = await ethers.getContractAt(
        "MintingAgent",
        await networkHelpers
          .getStorageAt(
            await f.mintingAgent.getAddress(),
            "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc",
          )
          .then((slot) => ethers.getAddress("0x" + slot.slice(26))),
      );
      await expect(implementation.initialize(...args)).to.be.revertedWithCustomError(
        f.mintingAgent,
        "InvalidInitialization",
      );
    });
  });
});
