import { expect } from "chai";

import {
  AccessDetailsError,
  accessPublicKeyOf,
  decryptAccessDetails,
  encryptAccessDetails,
  ENVELOPE_PREFIX,
  generateAccessKeyPair,
  validateAccessDetails,
} from "@compute-capacity/sdk";
import type { EnvelopeContext } from "@compute-capacity/sdk";
import { sampleAccessDetails } from "../../../devnet/samples.js";

const CONTEXT: EnvelopeContext = {
  chainId: 42161n,
  redemptionManager: "0x00000000000000000000000000000000000000Aa",
  redemptionId: 7n,
};

describe("access-details envelope (sdk/access-details.ts)", function () {
  describe("encryptAccessDetails / decryptAccessDetails", function () {
    it("round-trips the spec's object to the holder of the private key", function () {
      const keys = generateAccessKeyPair();
      const details = sampleAccessDetails(7n);
      const envelope = encryptAccessDetails(details, keys.publicKey, CONTEXT);
      expect(envelope.startsWith(ENVELOPE_PREFIX)).to.equal(true);
      expect(decryptAccessDetails(envelope, keys.privateKey, CONTEXT)).to.deep.equal(details);
      // the address case of the manager does not matter
      expect(
        decryptAccessDetails(envelope, keys.privateKey, {
          ...CONTEXT,
          redemptionManager: CONTEXT.redemptionManager.toLowerCase(),
        }),
      ).to.deep.equal(details);
    });

    it("hides every credential and gives a fresh envelope each time", function () {
      const keys = generateAccessKeyPair();
      const details = sampleAccessDetails(7n);
      const a = encryptAccessDetails(details, keys.publicKey, CONTEXT);
      const b = encryptAccessDetails(details, keys.publicKey, CONTEXT);
      expect(a).to.not.equal(b);
      const decoded = Buffer.from(a.slice(ENVELOPE_PREFIX.length), "base64url").toString("latin1");
      for (const secret of [details.hostname, details.username, details.ssh_key, "ssh"]) {
        expect(decoded).to.not.contain(secret);
        expect(a).to.not.contain(secret);
      }
    });

    it("refuses another key, another redemption, another chain or another manager", function () {
      const keys = generateAccessKeyPair();
      const envelope = encryptAccessDetails(sampleAccessDetails(7n), keys.publicKey, CONTEXT);
      const open = (privateKey: string, context: EnvelopeContext) => () =>
        decryptAccessDetails(envelope, privateKey, context);
      expect(open(generateAccessKeyPair().privateKey, CONTEXT)).to.throw(AccessDetailsError, /does not open/);
      expect(open(keys.privateKey, { ...CONTEXT, redemptionId: 8n })).to.throw(AccessDetailsError);
      expect(open(keys.privateKey, { ...CONTEXT, chainId: 1n })).to.throw(AccessDetailsError);
      expect(open(keys.privateKey, { ...CONTEXT, redemptionManager: "0x" + "bb".repeat(20) })).to.throw(
        AccessDetailsError,
      );
    });

    it("refuses a tampered, truncated or foreign envelope", function () {
      const keys = generateAccessKeyPair();
      const envelope = encryptAccessDetails(sampleAccessDetails(7n), keys.publicKey, CONTEXT);
      const bytes = Buffer.from(envelope.slice(ENVELOPE_PREFIX.length), "base64url");
      bytes[bytes.length - 20] ^= 0x01;
      const tampered = ENVELOPE_PREFIX + bytes.toString("base64url");
      expect(() => decryptAccessDetails(tampered, keys.privateKey, CONTEXT)).to.throw(AccessDetailsError);
      expect(() => decryptAccessDetails(envelope.slice(0, 40), keys.privateKey, CONTEXT)).to.throw(
        AccessDetailsError,
        /too short/,
      );
      expect(() => decryptAccessDetails("ssh root@10.0.0.1", keys.privateKey, CONTEXT)).to.throw(
        AccessDetailsError,
        /not an access-details envelope/,
      );
    });

    it("refuses details for another redemption and malformed keys", function () {
      const keys = generateAccessKeyPair();
      expect(() => encryptAccessDetails(sampleAccessDetails(8n), keys.publicKey, CONTEXT)).to.throw(
        AccessDetailsError,
        /does not match/,
      );
      expect(() => encryptAccessDetails(sampleAccessDetails(7n), "0x1234", CONTEXT)).to.throw(
        AccessDetailsError,
        /public key must be 32 bytes/,
      );
    });
  });

  describe("generateAccessKeyPair / accessPublicKeyOf", function () {
    it("derives the public key from the private key", function () {
      const keys = generateAccessKeyPair();
      expect(keys.privateKey).to.match(/^0x[0-9a-f]{64}$/);
      expect(accessPublicKeyOf(keys.privateKey)).to.equal(keys.publicKey);
      expect(generateAccessKeyPair().privateKey).to.not.equal(keys.privateKey);
    });
  });

  describe("validateAccessDetails", function () {
    it("accepts the sample and names the first bad field", function () {
      validateAccessDetails(sampleAccessDetails(1n));
      const bad: Array<[Record<string, unknown>, RegExp]> = [
        [{ hostname: "" }, /hostname/],
        [{ port: 0 }, /port/],
        [{ port: 70000 }, /port/],
        [{ expiration: "tomorrow" }, /expiration/],
        [{ expiration: "2026-12-31T23:59:59+01:00" }, /expiration/],
        [{ documentation_url: "not a url" }, /documentation_url/],
        [{ resources: { cpu_cores: 1, memory_gb: 1, storage_gb: 1 } }, /bandwidth_mbps/],
        [{ resources: null }, /resources/],
      ];
      for (const [patch, message] of bad) {
        expect(() => validateAccessDetails({ ...sampleAccessDetails(1n), ...patch })).to.throw(
          AccessDetailsError,
          message,
        );
      }
      expect(() => validateAccessDetails("ssh")).to.throw(AccessDetailsError, /object/);
    });
  });
});
