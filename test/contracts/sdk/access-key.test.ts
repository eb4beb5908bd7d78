import { expect } from "chai";
import { network } from "hardhat";
import { Wallet, verifyMessage } from "ethers";

import {
  AccessKeyDerivationError,
  accessKeyMessage,
  accessKeyPairFromSignature,
  accessPublicKeyOf,
  decryptAccessDetails,
  deriveAccessKeyPair,
  encryptAccessDetails,
  InvalidParameterError,
} from "@compute-capacity/sdk";
import type { MessageSigner } from "@compute-capacity/sdk";
import { sampleAccessDetails } from "../../../devnet/samples.js";

const connection = await network.create();
const { ethers } = connection;

/** Hardhat's well-known account #0 (the in-process chain's first signer). */
const ACCOUNT_0_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const MANAGER = "0x4A679253410272dd5232B3Ff7cF5dbB88f295319";
const SITE = { domain: "portal.compute.example", uri: "https://portal.compute.example", chainId: 42161n };

describe("access key from a wallet signature (sdk/access-key.ts)", function () {
  describe("accessKeyMessage", function () {
    it("is an EIP-4361 message naming the site, the account, the chain and the manager, the same every time", async function () {
      const [user] = await ethers.getSigners();
      const message = accessKeyMessage({ ...SITE, redemptionManager: MANAGER, address: user.address.toLowerCase() });
      const lines = message.split("\n");
      expect(lines[0]).to.equal("portal.compute.example wants you to sign in with your Ethereum account:");
      expect(lines[1]).to.equal(user.address); // checksummed, as EIP-4361 requires
      expect(lines[3]).to.contain(`RedemptionManager ${MANAGER} (chain 42161)`);
      expect(lines.slice(5)).to.deep.equal([
        "URI: https://portal.compute.example",
        "Version: 1",
        "Chain ID: 42161",
        lines[8],
        "Issued At: 2025-01-01T00:00:00.000Z",
      ]);
      expect(lines[8]).to.match(/^Nonce: [0-9a-f]{16}$/);
      expect(accessKeyMessage({ ...SITE, redemptionManager: MANAGER, address: user.address })).to.equal(message);
      expect(
        accessKeyMessage({ ...SITE, chainId: 1n, redemptionManager: MANAGER, address: user.address }),
      ).to.not.equal(message);
    });

    it("refuses a domain or URI that is not one", function () {
      const base = { ...SITE, redemptionManager: MANAGER, address: MANAGER };
      expect(() => accessKeyMessage({ ...base, domain: "evil.example/path" })).to.throw(
        InvalidParameterError,
        /domain/,
      );
      expect(() => accessKeyMessage({ ...base, uri: "javascript:alert(1)" })).to.throw(InvalidParameterError, /uri/);
    });
  });

  describe("deriveAccessKeyPair", function () {
    it("gives the same wallet the same key, in a hardhat signer and in a Wallet of the same account", async function () {
      const [user] = await ethers.getSigners();
      const parameters = { ...SITE, redemptionManager: MANAGER };
      const first = await deriveAccessKeyPair(user, parameters);
      const again = await deriveAccessKeyPair(user, parameters);
      const wallet = new Wallet(ACCOUNT_0_KEY);
      expect(wallet.address).to.equal(user.address);
      expect(again).to.deep.equal(first);
      expect(await deriveAccessKeyPair(wallet, parameters)).to.deep.equal(first);
      expect(accessPublicKeyOf(first.privateKey)).to.equal(first.publicKey);
      // the key is the HKDF of the account's signature of the message: anyone with that signature has it
      const message = accessKeyMessage({ ...parameters, address: user.address });
      const signature = await user.signMessage(message);
      expect(verifyMessage(message, signature)).to.equal(user.address);
      expect(accessKeyPairFromSignature(signature, { ...parameters, address: user.address })).to.deep.equal(first);
    });

    it("gives another account, chain, manager or site another key", async function () {
      const [user, other] = await ethers.getSigners();
      const parameters = { ...SITE, redemptionManager: MANAGER };
      const key = (await deriveAccessKeyPair(user, parameters)).publicKey;
      const keys = [
        (await deriveAccessKeyPair(other, parameters)).publicKey,
        (await deriveAccessKeyPair(user, { ...parameters, chainId: 1n })).publicKey,
        (await deriveAccessKeyPair(user, { ...parameters, redemptionManager: other.address })).publicKey,
        (await deriveAccessKeyPair(user, { ...parameters, domain: "other.example", uri: "https://other.example" }))
          .publicKey,
      ];
      expect(new Set([key, ...keys]).size).to.equal(5);
    });

    it("opens an envelope a provider encrypted to the derived public key", async function () {
      const [user] = await ethers.getSigners();
      const keys = await deriveAccessKeyPair(user, { ...SITE, redemptionManager: MANAGER });
      const context = { chainId: SITE.chainId, redemptionManager: MANAGER, redemptionId: 4n };
      const envelope = encryptAccessDetails(sampleAccessDetails(4n), keys.publicKey, context);
      const again = await deriveAccessKeyPair(user, { ...SITE, redemptionManager: MANAGER });
      expect(decryptAccessDetails(envelope, again.privateKey, context)).to.deep.equal(sampleAccessDetails(4n));
    });

    it("refuses a wallet whose two signatures differ, and a wallet of another account", async function () {
      const [user, other] = await ethers.getSigners();
      let calls = 0;
      // a wallet that is not deterministic (as some smart-contract and MPC wallets): each signature differs
      const wobbly: MessageSigner = {
        getAddress: async () => user.address,
        signMessage: async (message) => (calls++ % 2 === 0 ? user.signMessage(message) : other.signMessage(message)),
      };
      const refused = await deriveAccessKeyPair(wobbly, { ...SITE, redemptionManager: MANAGER }).catch((e) => e);
      expect(refused).to.be.instanceOf(AccessKeyDerivationError);
      expect((refused as AccessKeyDerivationError).shortMessage).to.equal(
        "This wallet signs the same message differently each time.",
      );
      expect(calls).to.equal(2);
      await expect(
        deriveAccessKeyPair(user, { ...SITE, redemptionManager: MANAGER, address: other.address }),
      ).to.be.rejectedWith(AccessKeyDerivationError, `The wallet signs as ${user.address}, not as ${other.address}.`);
    });
  });
});
