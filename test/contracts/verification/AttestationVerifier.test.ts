import { expect } from "chai";
import { network } from "hardhat";
import { Wallet, keccak256, toUtf8Bytes } from "ethers";

import { TypedDataEncoder } from "ethers";
import { ATTESTATION_TYPES, attestationDomain, encodeProof, Roles, signAttestation } from "@compute-capacity/sdk";
import { deployProtocol } from "../../helpers/protocol.js";
import type { ProtocolFixture } from "../../helpers/protocol.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture, time } = networkHelpers;

/** The deployer plays the minting agent so that `verify` can be called directly. */
async function fixture(): Promise<ProtocolFixture> {
  const f = await deployProtocol(connection);
  await f.verifier.grantRole(Roles.CONSUMER, f.deployer.address);
  return f;
}

describe("AttestationVerifier", function () {
  describe("verify", function () {
    it("accepts a 2-of-3 attestation and returns what it vouches for", async function () {
      const f = await loadFixture(fixture);
      const attestation = await f.attestation(f.provider.address);
      const proof = await f.proof(attestation);
      const result = await f.verifier.verify.staticCall(f.provider.address, proof);
      expect(result.cuHash).to.equal(attestation.cuHash);
      expect(result.cuValue).to.equal(attestation.cuValue);
      expect(result.specs.ramGb).to.equal(BigInt(attestation.specs.ramGb));
      await expect(f.verifier.verify(f.provider.address, proof))
        .to.emit(f.verifier, "AttestationConsumed")
        .withArgs(f.provider.address, attestation.cuHash, attestation.nonce, 2n);
    });

    it("accepts all three signatures too", async function () {
      const f = await loadFixture(fixture);
      const proof = await f.proof(await f.attestation(f.provider.address), f.verifierKeys);
      await expect(f.verifier.verify(f.provider.address, proof)).to.not.be.revert(ethers);
    });

    it("matches the TypeScript EIP-712 digest", async function () {
      const f = await loadFixture(fixture);
      const attestation = await f.attestation(f.provider.address);
      const domain = attestationDomain(f.chainId, await f.verifier.getAddress());
      expect(await f.verifier.hashAttestation(attestation)).to.equal(
        TypedDataEncoder.hash(domain, ATTESTATION_TYPES, attestation),
      );
    });

    it("rejects an expired attestation", async function () {
      const f = await loadFixture(fixture);
      const attestation = await f.attestation(f.provider.address);
      const proof = await f.proof(attestation);
      await time.setNextBlockTimestamp(attestation.expiry + 1n);
      await expect(f.verifier.verify(f.provider.address, proof))
        .to.be.revertedWithCustomError(f.verifier, "AttestationExpired")
        .withArgs(attestation.expiry, attestation.expiry + 1n);
    });

    it("accepts an attestation in the very second it expires", async function () {
      const f = await loadFixture(fixture);
      const attestation = await f.attestation(f.provider.address);
      const proof = await f.proof(attestation);
      await time.setNextBlockTimestamp(attestation.expiry);
      await expect(f.verifier.verify(f.provider.address, proof)).to.not.be.revert(ethers);
    });

    it("rejects an under-signed attestation", async function () {
      const f = await loadFixture(fixture);
      const proof = await f.proof(await f.attestation(f.provider.address), f.verifierKeys.slice(0, 1));
      await expect(f.verifier.verify(f.provider.address, proof))
        .to.be.revertedWithCustomError(f.verifier, "AttestationUnderSigned")
        .withArgs(1n, 2n);
    });

    it("rejects an attestation for another provider", async function () {
      const f = await loadFixture(fixture);
      const proof = await f.proof(await f.attestation(f.provider.address));
      await expect(f.verifier.verify(f.provider2.address, proof))
        .to.be.revertedWithCustomError(f.verifier, "AttestationWrongProvider")
        .withArgs(f.provider2.address, f.provider.address);
    });

    it("rejects a duplicate signer", async function () {
      const f = await loadFixture(fixture);
      const attestation = await f.attestation(f.provider.address);
      const domain = attestationDomain(f.chainId, await f.verifier.getAddress());
      const [sig] = await signAttestation(attestation, domain, [f.verifierKeys[0]]);
      await expect(f.verifier.verify(f.provider.address, encodeProof(attestation, [sig, sig])))
        .to.be.revertedWithCustomError(f.verifier, "AttestationDuplicateSigner")
        .withArgs(f.verifierKeys[0].address);
    });

    it("rejects signatures out of ascending signer order", async function () {
      const f = await loadFixture(fixture);
      const attestation = await f.attestation(f.provider.address);
      const domain = attestationDomain(f.chainId, await f.verifier.getAddress());
      const sorted = await signAttestation(attestation, domain, f.verifierKeys.slice(0, 2));
      await expect(
        f.verifier.verify(f.provider.address, encodeProof(attestation, [...sorted].reverse())),
      ).to.be.revertedWithCustomError(f.verifier, "AttestationSignersNotAscending");
    });

    it("rejects a signer outside the verifier set", async function () {
      const f = await loadFixture(fixture);
      const outsider = new Wallet(keccak256(toUtf8Bytes("outsider")));
      const proof = await f.proof(await f.attestation(f.provider.address), [f.verifierKeys[0], outsider]);
      await expect(f.verifier.verify(f.provider.address, proof))
        .to.be.revertedWithCustomError(f.verifier, "AttestationUnknownSigner")
        .withArgs(outsider.address);
    });

    it("rejects a tampered attestation (signatures no longer match the verifiers)", async function () {
      const f = await loadFixture(fixture);
      const attestation = await f.attestation(f.provider.address);
      const domain = attestationDomain(f.chainId, await f.verifier.getAddress());
      const sigs = await signAttestation(attestation, domain, f.verifierKeys.slice(0, 2));
      const tampered = { ...attestation, cuValue: attestation.cuValue * 10n };
      await expect(f.verifier.verify(f.provider.address, encodeProof(tampered, sigs))).to.be.revertedWithCustomError(
        f.verifier,
        "AttestationUnknownSigner",
      );
    });

    it("rejects a malformed signature", async function () {
      const f = await loadFixture(fixture);
      const attestation = await f.attestation(f.provider.address);
      await expect(f.verifier.verify(f.provider.address, encodeProof(attestation, ["0x1234", "0x5678"])))
        .to.be.revertedWithCustomError(f.verifier, "AttestationInvalidSignature")
        .withArgs(0n);
    });

    it("refuses a caller without the consumer role", async function () {
      const f = await loadFixture(fixture);
      const proof = await f.proof(await f.attestation(f.provider.address));
      await expect(f.verifier.connect(f.provider).verify(f.provider.address, proof))
        .to.be.revertedWithCustomError(f.verifier, "AccessControlUnauthorizedAccount")
        .withArgs(f.provider.address, Roles.CONSUMER);
    });

    it("reports its verification method", async function () {
      const f = await loadFixture(fixture);
      expect(await f.verifier.verificationMethod()).to.equal("attestation");
    });
  });

  describe("verifier set", function () {
    it("governance adds and removes verifiers and sets the threshold", async function () {
      const f = await loadFixture(fixture);
      const fourth = new Wallet(keccak256(toUtf8Bytes("verifier-4")));
      await expect(f.verifier.addVerifier(fourth.address))
        .to.emit(f.verifier, "VerifierAdded")
        .withArgs(fourth.address);
      await expect(f.verifier.setThreshold(3n)).to.emit(f.verifier, "ThresholdUpdated").withArgs(2n, 3n);
      await expect(f.verifier.removeVerifier(f.verifierKeys[0].address))
        .to.emit(f.verifier, "VerifierRemoved")
        .withArgs(f.verifierKeys[0].address);
      expect(await f.verifier.isVerifier(f.verifierKeys[0].address)).to.equal(false);
      expect(await f.verifier.verifiers()).to.have.length(3);
      expect(await f.verifier.threshold()).to.equal(3n);

      // a removed verifier's signature no longer counts
      const proof = await f.proof(await f.attestation(f.provider.address), f.verifierKeys);
      await expect(f.verifier.verify(f.provider.address, proof))
        .to.be.revertedWithCustomError(f.verifier, "AttestationUnknownSigner")
        .withArgs(f.verifierKeys[0].address);
    });

    it("rejects invalid set changes and keeps the old set", async function () {
      const f = await loadFixture(fixture);
      await expect(f.verifier.setThreshold(0n))
        .to.be.revertedWithCustomError(f.verifier, "VerifierInvalidThreshold")
        .withArgs(0n, 3n);
      await expect(f.verifier.setThreshold(4n))
        .to.be.revertedWithCustomError(f.verifier, "VerifierInvalidThreshold")
        .withArgs(4n, 3n);
      await expect(f.verifier.addVerifier(f.verifierKeys[0].address))
        .to.be.revertedWithCustomError(f.verifier, "VerifierAlreadyAdded")
        .withArgs(f.verifierKeys[0].address);
      await expect(f.verifier.addVerifier(ethers.ZeroAddress)).to.be.revertedWithCustomError(
        f.verifier,
        "VerifierZeroAddress",
      );
      await expect(f.verifier.removeVerifier(f.stranger.address))
        .to.be.revertedWithCustomError(f.verifier, "VerifierNotFound")
        .withArgs(f.stranger.address);
      await f.verifier.setThreshold(3n);
      await expect(f.verifier.removeVerifier(f.verifierKeys[0].address))
        .to.be.revertedWithCustomError(f.verifier, "VerifierInvalidThreshold")
        .withArgs(3n, 2n);
      expect(await f.verifier.verifiers()).to.have.length(3);
    });

    it("refuses strangers", async function () {
      const f = await loadFixture(fixture);
      const s = f.verifier.connect(f.stranger);
      for (const call of [
        () => s.addVerifier(f.stranger.address),
        () => s.removeVerifier(f.verifierKeys[0].address),
        () => s.setThreshold(1n),
      ]) {
        await expect(call())
          .to.be.revertedWithCustomError(f.verifier, "AccessControlUnauthorizedAccount")
          .withArgs(f.stranger.address, Roles.GOVERNANCE);
      }
    });

    it("cannot be deployed with an unreachable threshold", async function () {
      const f = await loadFixture(fixture);
      const factory = await ethers.getContractFactory("AttestationVerifier");
      await expect(factory.deploy(f.deployer.address, [f.verifierKeys[0].address], 2n))
        .to.be.revertedWithCustomError(f.verifier, "VerifierInvalidThreshold")
        .withArgs(2n, 1n);
    });
  });

  it("binds attestations to the chain and contract (EIP-712 domain)", async function () {
    const f = await loadFixture(fixture);
    const attestation = await f.attestation(f.provider.address);
    const wrongChain = attestationDomain(f.chainId + 1n, await f.verifier.getAddress());
    const sigs = await signAttestation(attestation, wrongChain, f.verifierKeys.slice(0, 2));
    await expect(f.verifier.verify(f.provider.address, encodeProof(attestation, sigs))).to.be.revertedWithCustomError(
      f.verifier,
      "AttestationUnknownSigner",
    );
  });
});
