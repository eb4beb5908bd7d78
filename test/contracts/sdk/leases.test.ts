import { expect } from "chai";
import { network } from "hardhat";
import { Interface, parseEther } from "ethers";

import {
  AccessKeyDerivationError,
  AccessKeyNotRegisteredError,
  ContractRevertedError,
  InvalidParameterError,
  acceptRenewal,
  acceptRenewalSync,
  approveRedemptionSync,
  createProtocolClient,
  decryptAccessDetails,
  deriveAccessKeyPair,
  fulfilRedemptionWithLeaseSync,
  generateAccessKeyPair,
  getAccessDetails,
  getAccessKey,
  getLease,
  getLeaseId,
  getLeaseStatus,
  getRedemption,
  initiateRedemptionSync,
  leaseExpiration,
  offerRenewalSync,
  prepareAcceptRenewal,
  prepareFulfilRedemptionWithLease,
  prepareInitiateRedemption,
  prepareOfferRenewal,
  prepareRegisterAccessKey,
  prepareTerminateLease,
  prepareWithdrawRenewalOffer,
  registerAccessKeySync,
  registerDerivedAccessKey,
  terminateLease,
  terminateLeaseSync,
  withdrawRenewalOfferSync,
} from "@compute-capacity/sdk";
import type { AccessDetails, ProtocolClient } from "@compute-capacity/sdk";
import { RedemptionManager__factory } from "../../../typechain-types/index.js";
import { sampleAccessDetails } from "../../../devnet/samples.js";
import { DAY, deployProtocol, mintFor, registerActive } from "../../helpers/protocol.js";
import type { ProtocolFixture } from "../../helpers/protocol.js";
import { managerState } from "../../helpers/redemption.js";
import { protocolState } from "../../helpers/snapshot.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture } = networkHelpers;

const AMOUNT = parseEther("10");
const PRICE = parseEther("4");
const PRICE_FEE = parseEther("0.004"); // 10 bps
const EXTENSION = 30n * DAY;
const TERM = 30n * DAY;
const MANAGER = new Interface(RedemptionManager__factory.abi);
/** The portal the user signs in to (the access key is bound to it). */
const SITE = { domain: "portal.compute.example", uri: "https://portal.compute.example" };

interface Fixture extends ProtocolFixture {
  userClient: ProtocolClient;
  providerClient: ProtocolClient;
  strangerClient: ProtocolClient;
}

/** An active provider with 100 sSTB of capacity that sold 50 to the user (no approval, no key yet). */
async function fixture(): Promise<Fixture> {
  const f = await deployProtocol(connection);
  await registerActive(f, f.provider);
  await mintFor(f, f.provider, parseEther("100"));
  await f.sstb.connect(f.provider).transfer(f.user.address, parseEther("50"));
  const deployment = {
    chain: "local",
    chainId: Number(f.chainId),
    contracts: {
      SSTB: await f.sstb.getAddress(),
      RedemptionManager: await f.redemptionManager.getAddress(),
      RedemptionViews: await f.redemptionViews.getAddress(),
    },
  };
  const clientOf = (runner: ProtocolFixture["user"]) => createProtocolClient({ runner, deployment });
  return {
    ...f,
    userClient: await clientOf(f.user),
    providerClient: await clientOf(f.provider),
    strangerClient: await clientOf(f.stranger),
  };
}

async function now(): Promise<bigint> {
  return BigInt((await ethers.provider.getBlock("latest"))!.timestamp);
}

/** The user registered its wallet-derived key and redeemed AMOUNT (redemption 1, pending). */
async function pendingWithKey() {
  const f = await loadFixture(fixture);
  const { keys } = await registerDerivedAccessKey(f.userClient, SITE);
  await approveRedemptionSync(f.userClient, { amount: AMOUNT });
  await initiateRedemptionSync(f.userClient, { amount: AMOUNT, provider: f.provider.address });
  return { f, keys };
}

/** Redemption 1 fulfilled with a lease ending TERM from now, and a standing offer of PRICE for EXTENSION. */
async function offered() {
  const { f, keys } = await pendingWithKey();
  const end = (await now()) + TERM;
  const details = withoutExpiration(sampleAccessDetails(1n));
  await fulfilRedemptionWithLeaseSync(f.providerClient, { redemptionId: 1n, details, leaseEnd: end });
  const validUntil = end - DAY;
  await offerRenewalSync(f.providerClient, { leaseId: 1n, price: PRICE, extension: EXTENSION, validUntil });
  return { f, keys, end, validUntil };
}

/** Access details without their `expiration`: the lease end fills it in. */
function withoutExpiration(details: AccessDetails): Omit<AccessDetails, "expiration"> {
  const { expiration: _expiration, ...rest } = details;
  return rest;
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error,
  );
}

describe("SDK lease actions (access keys, leases, renewals, termination)", function () {
  describe("registerAccessKey", function () {
    it("encodes the key as bytes32 and refuses a key that is not 32 bytes or is zero", async function () {
      const f = await loadFixture(fixture);
      const key = generateAccessKeyPair().publicKey;
      const transaction = prepareRegisterAccessKey(f.userClient, { publicKey: key });
      expect(transaction.to).to.equal(await f.redemptionManager.getAddress());
      expect(MANAGER.decodeFunctionData("registerAccessKey", transaction.data)).to.deep.equal([key]);
      expect(() => prepareRegisterAccessKey(f.userClient, { publicKey: "0x1234" })).to.throw(
        InvalidParameterError,
        "Invalid publicKey: must be 32 bytes of hex.",
      );
      expect(() => prepareRegisterAccessKey(f.userClient, { publicKey: `0x${"00".repeat(32)}` })).to.throw(
        InvalidParameterError,
        "Invalid publicKey: must not be zero (zero means no key).",
      );
    });

    it("registers the key the wallet derives, and reads it back; a second call sends nothing", async function () {
      const f = await loadFixture(fixture);
      expect(await getAccessKey(f.userClient, { user: f.user.address })).to.equal(null);
      const first = await registerDerivedAccessKey(f.userClient, SITE);
      expect(first.receipt?.status).to.equal(1);
      const expected = await deriveAccessKeyPair(f.user, {
        ...SITE,
        chainId: f.chainId,
        redemptionManager: await f.redemptionManager.getAddress(),
      });
      expect(first.keys).to.deep.equal(expected);
      expect(await getAccessKey(f.userClient, { user: f.user.address })).to.equal(expected.publicKey);
      expect(await f.redemptionViews.accessKeyOf(f.user.address)).to.equal(expected.publicKey);

      const blockBefore = await ethers.provider.getBlockNumber();
      const second = await registerDerivedAccessKey(f.userClient, SITE);
      expect(second.receipt).to.equal(undefined);
      expect(second.keys).to.deep.equal(expected);
      expect(await ethers.provider.getBlockNumber()).to.equal(blockBefore);
    });

    it("replaces a generated key, and refuses a wallet that signs differently each time", async function () {
      const f = await loadFixture(fixture);
      const generated = generateAccessKeyPair();
      await registerAccessKeySync(f.userClient, { publicKey: generated.publicKey });
      expect(await getAccessKey(f.userClient, { user: f.user.address })).to.equal(generated.publicKey);
      const derived = await registerDerivedAccessKey(f.userClient, SITE);
      expect(await getAccessKey(f.userClient, { user: f.user.address })).to.equal(derived.keys.publicKey);

      // a wallet whose signature changes between two signatures (as some MPC wallets do)
      let calls = 0;
      const flaky = Object.assign(Object.create(f.stranger) as object, {
        signMessage: async (message: string) => {
          calls++;
          return calls === 1 ? f.stranger.signMessage(message) : f.stranger.signMessage(message + " ");
        },
      }) as typeof f.stranger;
      const flakyClient = { ...f.strangerClient, runner: flaky };
      const error = await caught(registerDerivedAccessKey(flakyClient, SITE));
      expect(error).to.be.instanceOf(AccessKeyDerivationError);
      expect(await getAccessKey(f.userClient, { user: f.stranger.address })).to.equal(null);
    });
  });

  describe("initiate with the key", function () {
    it("registers the key and redeems in one transaction (initiateRedemptionWithAccessKey)", async function () {
      const f = await loadFixture(fixture);
      const keys = generateAccessKeyPair();
      const prepared = prepareInitiateRedemption(f.userClient, {
        amount: AMOUNT,
        provider: f.provider.address,
        accessPublicKey: keys.publicKey,
      });
      expect(MANAGER.decodeFunctionData("initiateRedemptionWithAccessKey", prepared.data)).to.deep.equal([
        AMOUNT,
        f.provider.address,
        keys.publicKey,
      ]);
      await approveRedemptionSync(f.userClient, { amount: AMOUNT });
      const { redemptionId, receipt } = await initiateRedemptionSync(f.userClient, {
        amount: AMOUNT,
        provider: f.provider.address,
        accessPublicKey: keys.publicKey,
      });
      expect(redemptionId).to.equal(1n);
      const events = receipt.logs.map((log) => MANAGER.parseLog(log)?.name).filter((n) => n !== undefined);
      expect(events).to.include.members(["AccessKeyRegistered", "RedemptionInitiated", "RedemptionTerms"]);
      expect(await getAccessKey(f.userClient, { user: f.user.address })).to.equal(keys.publicKey);
      expect(() =>
        prepareInitiateRedemption(f.userClient, {
          amount: AMOUNT,
          provider: f.provider.address,
          accessPublicKey: "0x01",
        }),
      ).to.throw(InvalidParameterError, "Invalid accessPublicKey: must be 32 bytes of hex.");
    });
  });

  describe("fulfil with a lease end", function () {
    it("encrypts to the key the user registered on-chain, states the end, and the user opens it with the derived key", async function () {
      const { f, keys } = await pendingWithKey();
      const end = (await now()) + TERM;
      const details = withoutExpiration(sampleAccessDetails(1n));
      const prepared = await prepareFulfilRedemptionWithLease(f.providerClient, {
        redemptionId: 1n,
        details,
        leaseEnd: end,
      });
      expect(prepared.userPublicKey).to.equal(keys.publicKey);
      expect(prepared.details.expiration).to.equal(leaseExpiration(end));
      const [id, envelope, leaseEnd] = MANAGER.decodeFunctionData("fulfillRedemptionWithLease", prepared.data);
      expect([id, leaseEnd]).to.deep.equal([1n, end]);
      expect(envelope).to.equal(prepared.envelope);

      await fulfilRedemptionWithLeaseSync(f.providerClient, { redemptionId: 1n, details, leaseEnd: end });
      const opened = await getAccessDetails(f.userClient, { redemptionId: 1n, privateKey: keys.privateKey });
      expect(opened).to.deep.equal({ ...sampleAccessDetails(1n), expiration: leaseExpiration(end) });
      expect(await getLease(f.userClient, { leaseId: 1n })).to.deep.equal({
        leaseId: 1n,
        status: "active",
        user: f.user.address,
        provider: f.provider.address,
        end,
        openDisputes: 0n,
        offer: null,
      });
      expect(await getLeaseStatus(f.userClient, { leaseId: 1n })).to.equal("active");
      expect((await getRedemption(f.userClient, { redemptionId: 1n })).status).to.equal("fulfilled");
      // an envelope of another redemption does not open as this one's
      expect(() =>
        decryptAccessDetails(prepared.envelope, keys.privateKey, {
          chainId: f.chainId,
          redemptionManager: f.userClient.addresses.RedemptionManager,
          redemptionId: 2n,
        }),
      ).to.throw(/does not open/);
    });

    it("does not encrypt blind: a user without a registered key is refused before anything is sent", async function () {
      const f = await loadFixture(fixture);
      await approveRedemptionSync(f.userClient, { amount: AMOUNT });
      await initiateRedemptionSync(f.userClient, { amount: AMOUNT, provider: f.provider.address });
      const before = await managerState(f, [1n], [f.user.address]);
      const error = await caught(
        fulfilRedemptionWithLeaseSync(f.providerClient, {
          redemptionId: 1n,
          details: withoutExpiration(sampleAccessDetails(1n)),
          leaseEnd: (await now()) + TERM,
        }),
      );
      expect(error).to.be.instanceOf(AccessKeyNotRegisteredError);
      expect((error as AccessKeyNotRegisteredError).user).to.equal(f.user.address);
      expect(await managerState(f, [1n], [f.user.address])).to.deep.equal(before);
    });

    it("refuses an expiration other than the lease end, an unknown redemption, and an end in the past or beyond the maximum term", async function () {
      const { f } = await pendingWithKey();
      const end = (await now()) + TERM;
      const mismatch = await caught(
        prepareFulfilRedemptionWithLease(f.providerClient, {
          redemptionId: 1n,
          details: sampleAccessDetails(1n), // states 2026-12-31T23:59:59Z
          leaseEnd: end,
        }),
      );
      expect(mismatch).to.be.instanceOf(InvalidParameterError);
      expect((mismatch as InvalidParameterError).shortMessage).to.equal(
        `Invalid details.expiration: must be the lease end ${leaseExpiration(end)} when given.`,
      );
      const unknown = await caught(
        prepareFulfilRedemptionWithLease(f.providerClient, {
          redemptionId: 9n,
          details: withoutExpiration(sampleAccessDetails(9n)),
          leaseEnd: end,
        }),
      );
      expect((unknown as InvalidParameterError).shortMessage).to.equal("Invalid redemptionId: no redemption 9.");

      const accounts = [f.user.address, f.provider.address];
      const before = [await protocolState(f, accounts), await managerState(f, [1n], accounts)];
      const details = withoutExpiration(sampleAccessDetails(1n));
      const past = (await caught(
        fulfilRedemptionWithLeaseSync(f.providerClient, { redemptionId: 1n, details, leaseEnd: (await now()) - 1n }),
      )) as ContractRevertedError;
      expect(past).to.be.instanceOf(ContractRevertedError);
      expect(past.errorName).to.equal("LeaseEndOutOfRange");
      const far = (await caught(
        fulfilRedemptionWithLeaseSync(f.providerClient, {
          redemptionId: 1n,
          details,
          leaseEnd: (await now()) + 400n * DAY,
        }),
      )) as ContractRevertedError;
      expect(far.errorName).to.equal("LeaseEndOutOfRange");
      const stranger = (await caught(
        fulfilRedemptionWithLeaseSync(f.strangerClient, { redemptionId: 1n, details, leaseEnd: end }),
      )) as ContractRevertedError;
      expect(stranger.reason).to.equal("Only provider can fulfill");
      expect([await protocolState(f, accounts), await managerState(f, [1n], accounts)]).to.deep.equal(before);
    });
  });

  describe("offer, withdraw and accept a renewal", function () {
    it("encodes the offer, its withdrawal and the acceptance with the terms the user saw", async function () {
      const f = await loadFixture(fixture);
      const offer = prepareOfferRenewal(f.providerClient, {
        leaseId: 3n,
        price: PRICE,
        extension: EXTENSION,
        validUntil: 99n,
      });
      expect(MANAGER.decodeFunctionData("offerRenewal", offer.data)).to.deep.equal([3n, PRICE, EXTENSION, 99n]);
      expect(
        MANAGER.decodeFunctionData(
          "withdrawRenewalOffer",
          prepareWithdrawRenewalOffer(f.providerClient, { leaseId: 3n }).data,
        ),
      ).to.deep.equal([3n]);
      const accept = prepareAcceptRenewal(f.userClient, { leaseId: 3n, price: PRICE, extension: EXTENSION });
      expect(MANAGER.decodeFunctionData("acceptRenewal", accept.data)).to.deep.equal([3n, PRICE, EXTENSION]);
      expect(
        MANAGER.decodeFunctionData("terminateLease", prepareTerminateLease(f.userClient, { leaseId: 3n }).data),
      ).to.deep.equal([3n]);
      expect(() =>
        prepareOfferRenewal(f.providerClient, { leaseId: 3n, price: 0n, extension: EXTENSION, validUntil: 99n }),
      ).to.throw(InvalidParameterError, "Invalid price: must be positive.");
      expect(() => prepareAcceptRenewal(f.userClient, { leaseId: 3n, price: PRICE, extension: 0n })).to.throw(
        InvalidParameterError,
        "Invalid extension: must be positive.",
      );
    });

    it("shows the standing offer, accepts it as a redemption of its price, and moves the end", async function () {
      const { f, end, validUntil } = await offered();
      const lease = await getLease(f.userClient, { leaseId: 1n });
      expect(lease!.offer).to.deep.equal({ price: PRICE, extension: EXTENSION, validUntil });
      const supply = await f.sstb.totalSupply();
      await approveRedemptionSync(f.userClient, { amount: lease!.offer!.price });
      const renewal = await acceptRenewalSync(f.userClient, {
        leaseId: 1n,
        price: lease!.offer!.price,
        extension: lease!.offer!.extension,
      });
      expect(renewal.renewalId).to.equal(2n);
      expect(renewal.end).to.equal(end + EXTENSION);
      // the lease's id is its first redemption's, for the renewal too
      expect(await getLeaseId(f.userClient, { redemptionId: 1n })).to.equal(1n);
      expect(await getLeaseId(f.userClient, { redemptionId: 2n })).to.equal(1n);
      expect(renewal.fee).to.equal(PRICE_FEE);
      expect(await f.sstb.totalSupply()).to.equal(supply - PRICE);
      expect(await getLease(f.userClient, { leaseId: 1n })).to.deep.include({ end: end + EXTENSION, offer: null });
      expect(await getRedemption(f.userClient, { redemptionId: 2n })).to.deep.include({
        status: "fulfilled",
        amount: PRICE,
        provider: f.provider.address,
      });
      // the offer was consumed: a second acceptance finds none, and changes nothing
      await approveRedemptionSync(f.userClient, { amount: PRICE });
      const accounts = [f.user.address, f.provider.address];
      const before = [await protocolState(f, accounts), await managerState(f, [1n, 2n], accounts)];
      const again = (await caught(
        acceptRenewal(f.userClient, { leaseId: 1n, price: PRICE, extension: EXTENSION }),
      )) as ContractRevertedError;
      expect(again.errorName).to.equal("RenewalOfferNotFound");
      expect([await protocolState(f, accounts), await managerState(f, [1n, 2n], accounts)]).to.deep.equal(before);
    });

    it("refuses an acceptance with other terms than the standing offer's, by a stranger, and after a withdrawal; nothing moves", async function () {
      const { f } = await offered();
      await approveRedemptionSync(f.userClient, { amount: PRICE * 2n });
      const accounts = [f.user.address, f.provider.address, f.stranger.address];
      const before = [await protocolState(f, accounts), await managerState(f, [1n], accounts)];
      const cheaper = (await caught(
        acceptRenewal(f.userClient, { leaseId: 1n, price: PRICE * 2n, extension: EXTENSION }),
      )) as ContractRevertedError;
      expect(cheaper.errorName).to.equal("RenewalTermsMismatch");
      expect(cheaper.args).to.deep.equal({ leaseId: 1n, price: PRICE, extension: EXTENSION });
      const stranger = (await caught(
        acceptRenewal(f.strangerClient, { leaseId: 1n, price: PRICE, extension: EXTENSION }),
      )) as ContractRevertedError;
      expect(stranger.errorName).to.equal("RedemptionUnauthorized");
      expect([await protocolState(f, accounts), await managerState(f, [1n], accounts)]).to.deep.equal(before);

      await withdrawRenewalOfferSync(f.providerClient, { leaseId: 1n });
      expect((await getLease(f.userClient, { leaseId: 1n }))!.offer).to.equal(null);
      const withdrawn = (await caught(
        acceptRenewal(f.userClient, { leaseId: 1n, price: PRICE, extension: EXTENSION }),
      )) as ContractRevertedError;
      expect(withdrawn.errorName).to.equal("RenewalOfferNotFound");
    });

    it("refuses an offer by a stranger and a renewal after the end", async function () {
      const { f, end } = await offered();
      const stranger = (await caught(
        offerRenewalSync(f.strangerClient, { leaseId: 1n, price: PRICE, extension: EXTENSION, validUntil: end - 1n }),
      )) as ContractRevertedError;
      expect(stranger.errorName).to.equal("RedemptionUnauthorized");
      await networkHelpers.time.increaseTo(end);
      expect(await getLeaseStatus(f.userClient, { leaseId: 1n })).to.equal("ended");
      await approveRedemptionSync(f.userClient, { amount: PRICE });
      const late = (await caught(
        acceptRenewal(f.userClient, { leaseId: 1n, price: PRICE, extension: EXTENSION }),
      )) as ContractRevertedError;
      expect(late.errorName).to.equal("LeaseEnded");
    });
  });

  describe("terminate", function () {
    it("ends the lease for good with its offer; a second termination and a stranger's are refused", async function () {
      const { f } = await offered();
      const strangerTry = (await caught(terminateLease(f.strangerClient, { leaseId: 1n }))) as ContractRevertedError;
      expect(strangerTry.errorName).to.equal("RedemptionUnauthorized");
      const { receipt } = await terminateLeaseSync(f.userClient, { leaseId: 1n });
      expect(receipt.logs.map((log) => MANAGER.parseLog(log)?.name)).to.deep.equal(["LeaseTerminated"]);
      expect(await getLease(f.userClient, { leaseId: 1n })).to.deep.include({ status: "terminated", offer: null });
      // the redemption keeps its state: the user may still confirm or dispute
      expect((await getRedemption(f.userClient, { redemptionId: 1n })).status).to.equal("fulfilled");
      await approveRedemptionSync(f.userClient, { amount: PRICE });
      const accounts = [f.user.address, f.provider.address];
      const before = [await protocolState(f, accounts), await managerState(f, [1n], accounts)];
      const twice = (await caught(terminateLease(f.userClient, { leaseId: 1n }))) as ContractRevertedError;
      expect(twice.errorName).to.equal("LeaseAlreadyTerminated");
      const renewTerminated = (await caught(
        acceptRenewal(f.userClient, { leaseId: 1n, price: PRICE, extension: EXTENSION }),
      )) as ContractRevertedError;
      expect(renewTerminated.errorName).to.equal("LeaseAlreadyTerminated");
      expect([await protocolState(f, accounts), await managerState(f, [1n], accounts)]).to.deep.equal(before);
    });

    it("reads an id that is not a lease as null (getLease) and status none (getLeaseStatus)", async function () {
      const { f } = await pendingWithKey();
      for (const leaseId of [1n, 42n]) {
        // 1 is a pending redemption, 42 was never issued
        expect(await getLease(f.userClient, { leaseId })).to.equal(null);
        expect(await getLeaseStatus(f.userClient, { leaseId })).to.equal("none");
      }
      // a pending redemption belongs to no lease yet
      expect(await getLeaseId(f.userClient, { redemptionId: 1n })).to.equal(null);
    });
  });
});
