import { expect } from "chai";
import { network } from "hardhat";
import { Interface, id, parseEther } from "ethers";

import {
  approveRedemptionSync,
  BaseError,
  confirmRedemption,
  confirmRedemptionSync,
  ContractRevertedError,
  createProtocolClient,
  decodeRevertData,
  fulfilRedemptionSync,
  generateAccessKeyPair,
  getAccessDetails,
  getContract,
  getRedemption,
  getRedemptionPermit,
  initiateRedemption,
  initiateRedemptionSync,
  InvalidParameterError,
  IssueType,
  openDisputeSync,
  permitRedemptionSync,
  prepareApproveRedemption,
  prepareConfirmRedemption,
  prepareInitiateRedemption,
  prepareOpenDispute,
  quoteRedemption,
} from "@compute-capacity/sdk";
import type { ProtocolClient } from "@compute-capacity/sdk";
import { RedemptionManager__factory, SSTB__factory } from "../../../typechain-types/index.js";
import { sampleAccessDetails } from "../../../devnet/samples.js";
import { deployProtocol, mintFor, registerActive } from "../../helpers/protocol.js";
import type { ProtocolFixture } from "../../helpers/protocol.js";
import { managerState } from "../../helpers/redemption.js";
import { protocolState } from "../../helpers/snapshot.js";

const connection = await network.create();
const { networkHelpers } = connection;
const { loadFixture } = networkHelpers;

const AMOUNT = parseEther("10");
const FEE = parseEther("0.01"); // 10 bps
const MANAGER = new Interface(RedemptionManager__factory.abi);

interface Fixture extends ProtocolFixture {
  /** Clients of the user, the provider and a stranger on the deployment's addresses. */
  userClient: ProtocolClient;
  providerClient: ProtocolClient;
  strangerClient: ProtocolClient;
}

/** An active provider with 100 sSTB of capacity that sold 50 to the user (no approval yet). */
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
      ProviderRegistry: await f.registry.getAddress(),
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

describe("SDK redemption actions (sdk/actions/)", function () {
  describe("prepare (build, then send)", function () {
    it("encodes each call for its contract with no value and reads the fee quote for the approval", async function () {
      const f = await loadFixture(fixture);
      const approval = await prepareApproveRedemption(f.userClient, { amount: AMOUNT });
      expect(approval.to).to.equal(await f.sstb.getAddress());
      expect(approval.total).to.equal(AMOUNT + FEE);
      expect(approval.value).to.equal(0n);
      expect(SSTB__factory.createInterface().decodeFunctionData("approve", approval.data)).to.deep.equal([
        await f.redemptionManager.getAddress(),
        AMOUNT + FEE,
      ]);
      const initiate = prepareInitiateRedemption(f.userClient, { amount: AMOUNT, provider: f.provider.address });
      expect(initiate.to).to.equal(await f.redemptionManager.getAddress());
      expect(MANAGER.decodeFunctionData("initiateRedemption", initiate.data)).to.deep.equal([
        AMOUNT,
        f.provider.address,
      ]);
      expect(
        MANAGER.decodeFunctionData(
          "confirmRedemption",
          prepareConfirmRedemption(f.userClient, { redemptionId: 3n }).data,
        ),
      ).to.deep.equal([3n]);
      const evidence = id("evidence");
      const dispute = prepareOpenDispute(f.userClient, {
        redemptionId: 3n,
        issueType: IssueType.Other,
        evidenceHash: evidence,
      });
      expect(MANAGER.decodeFunctionData("openDispute", dispute.data)).to.deep.equal([3n, IssueType.Other, evidence]);
    });

    it("refuses bad parameters with InvalidParameterError before any call", async function () {
      const f = await loadFixture(fixture);
      expect(() => prepareInitiateRedemption(f.userClient, { amount: 0n, provider: f.provider.address })).to.throw(
        InvalidParameterError,
        "Invalid amount: must be positive.",
      );
      expect(() => prepareInitiateRedemption(f.userClient, { amount: AMOUNT, provider: "0x1234" })).to.throw(
        InvalidParameterError,
        "Invalid provider: must be an address.",
      );
      expect(() =>
        prepareOpenDispute(f.userClient, { redemptionId: 1n, issueType: IssueType.Other, evidenceHash: "0x12" }),
      ).to.throw(InvalidParameterError, "Invalid evidenceHash: must be 32 bytes of hex.");
      const noManager = { ...f.userClient, addresses: { SSTB: f.userClient.addresses.SSTB } };
      expect(() => prepareConfirmRedemption(noManager, { redemptionId: 1n })).to.throw(
        InvalidParameterError,
        "Invalid addresses.RedemptionManager: the deployment lists no RedemptionManager.",
      );
    });
  });

  describe("quoteRedemption (before signing)", function () {
    it("quotes the fee, deadline and lock that initiateRedemption then takes, and what a failure pays back", async function () {
      const f = await loadFixture(fixture);
      const at = BigInt((await connection.ethers.provider.getBlock("latest"))!.timestamp) + 1n;
      await networkHelpers.time.setNextBlockTimestamp(at);
      const quote = await quoteRedemption(f.userClient, { amount: AMOUNT, provider: f.provider.address, at });
      expect(quote).to.deep.include({ fee: FEE, total: AMOUNT + FEE, tier: "standard", refusal: "" });
      expect(quote.deadline).to.equal(at + 86_400n);
      expect(quote.provider.status).to.equal("active");
      await approveRedemptionSync(f.userClient, { amount: AMOUNT });
      await networkHelpers.time.setNextBlockTimestamp(at + 5n);
      const later = await quoteRedemption(f.userClient, { amount: AMOUNT, provider: f.provider.address, at: at + 5n });
      const initiated = await initiateRedemptionSync(f.userClient, { amount: AMOUNT, provider: f.provider.address });
      expect(initiated.fee).to.equal(later.fee);
      expect(initiated.lock).to.equal(later.lock);
      expect(initiated.deadline).to.equal(later.deadline);
      // during the stake an expiry pays the value (lock / 1.2, rounded up); after it, and on a won dispute, the whole lock
      expect(later.compensation.ifExpiredDuringStake).to.equal(
        (later.lock * 10_000n + later.ratioBps - 1n) / later.ratioBps,
      );
      expect(later.compensation.ifExpiredAfterStake).to.equal(later.lock);
      expect(later.compensation.ifDisputeWon).to.equal(later.lock);
      expect(later.ratioBps).to.equal(12_000n);
    });

    it("says why the manager would refuse, and refuses bad parameters before reading anything", async function () {
      const f = await loadFixture(fixture);
      const tooMuch = await quoteRedemption(f.userClient, { amount: parseEther("1000"), provider: f.provider.address });
      expect(tooMuch.refusal).to.equal("the provider has less capacity available than the amount");
      expect(tooMuch.lock).to.equal(0n);
      const stranger = await quoteRedemption(f.userClient, { amount: AMOUNT, provider: f.stranger.address });
      expect(stranger.refusal).to.equal("the provider is not registered");
      const small = await quoteRedemption(f.userClient, { amount: 1n, provider: f.provider.address });
      expect(small.refusal).to.equal("the amount is below the minimum redemption");
      await expectRejects(
        quoteRedemption(f.userClient, { amount: 0n, provider: f.provider.address }),
        InvalidParameterError,
      );
      await expectRejects(quoteRedemption(f.userClient, { amount: AMOUNT, provider: "0x12" }), InvalidParameterError);
    });
  });

  describe("a redemption through the actions", function () {
    it("approves, initiates, fulfils with an envelope only the user opens, and confirms", async function () {
      const f = await loadFixture(fixture);
      const { total } = await approveRedemptionSync(f.userClient, { amount: AMOUNT });
      expect(await f.sstb.allowance(f.user.address, await f.redemptionManager.getAddress())).to.equal(total);

      const initiated = await initiateRedemptionSync(f.userClient, { amount: AMOUNT, provider: f.provider.address });
      expect(initiated.redemptionId).to.equal(1n);
      expect(initiated.fee).to.equal(FEE);
      expect(initiated.deadline).to.equal((await f.redemptionViews.deadlinesOf(1n))[0]);
      expect((await getRedemption(f.userClient, { redemptionId: 1n })).status).to.equal("pending");

      const keys = generateAccessKeyPair();
      const { envelope } = await fulfilRedemptionSync(f.providerClient, {
        redemptionId: 1n,
        details: sampleAccessDetails(1n),
        userPublicKey: keys.publicKey,
      });
      expect(envelope.startsWith("stbad1.")).to.equal(true);
      expect(await getAccessDetails(f.userClient, { redemptionId: 1n, privateKey: keys.privateKey })).to.deep.equal(
        sampleAccessDetails(1n),
      );

      await confirmRedemptionSync(f.userClient, { redemptionId: 1n });
      const record = await getRedemption(f.userClient, { redemptionId: 1n });
      expect(record).to.deep.equal({
        user: f.user.address,
        amount: AMOUNT,
        timestamp: (await f.redemptionManager.redemptions(1n)).timestamp,
        provider: f.provider.address,
        fulfilled: true,
        confirmed: true,
        status: "confirmed",
      });
    });

    it("approves by an EIP-2612 permit that someone else submits", async function () {
      const f = await loadFixture(fixture);
      const deadline = BigInt((await connection.ethers.provider.getBlock("latest"))!.timestamp) + 3_600n;
      const permit = await getRedemptionPermit(f.userClient, { owner: f.user.address, amount: AMOUNT, deadline });
      const signature = await f.user.signTypedData(permit.domain, permit.types, permit.message);
      await permitRedemptionSync(f.strangerClient, { owner: f.user.address, amount: AMOUNT, deadline, signature });
      expect(await f.sstb.allowance(f.user.address, await f.redemptionManager.getAddress())).to.equal(AMOUNT + FEE);
      const { redemptionId } = await initiateRedemptionSync(f.userClient, {
        amount: AMOUNT,
        provider: f.provider.address,
      });
      expect(redemptionId).to.equal(1n);
    });

    it("opens a dispute on a fulfilled redemption", async function () {
      const f = await loadFixture(fixture);
      await approveRedemptionSync(f.userClient, { amount: AMOUNT });
      await initiateRedemptionSync(f.userClient, { amount: AMOUNT, provider: f.provider.address });
      const keys = generateAccessKeyPair();
      await fulfilRedemptionSync(f.providerClient, {
        redemptionId: 1n,
        details: sampleAccessDetails(1n),
        userPublicKey: keys.publicKey,
      });
      await openDisputeSync(f.userClient, {
        redemptionId: 1n,
        issueType: IssueType.AccessFailure,
        evidenceHash: id("logs"),
      });
      expect((await getRedemption(f.userClient, { redemptionId: 1n })).status).to.equal("disputed");
      expect((await f.redemptionViews.disputeOf(1n)).evidenceHash).to.equal(id("logs"));
    });
  });

  describe("errors", function () {
    it("returns the spec's revert strings verbatim as ContractRevertedError.reason, and changes nothing", async function () {
      const f = await loadFixture(fixture);
      await approveRedemptionSync(f.userClient, { amount: AMOUNT });
      await initiateRedemptionSync(f.userClient, { amount: AMOUNT, provider: f.provider.address });
      const accounts = [f.user.address, f.provider.address, f.stranger.address];
      const before = [await protocolState(f, accounts), await managerState(f, [1n])];

      const early = await confirmRedemption(f.userClient, { redemptionId: 1n }).catch((e: unknown) => e);
      expect(early).to.be.instanceOf(ContractRevertedError);
      expect((early as ContractRevertedError).reason).to.equal("Not fulfilled yet");
      expect((early as ContractRevertedError).errorName).to.equal("Error");
      expect((early as ContractRevertedError).shortMessage).to.equal(
        'The contract function "confirmRedemption" reverted: "Not fulfilled yet"',
      );

      const stranger = await confirmRedemption(f.strangerClient, { redemptionId: 1n }).catch((e: unknown) => e);
      expect((stranger as ContractRevertedError).reason).to.equal("Only user can confirm");
      expect([await protocolState(f, accounts), await managerState(f, [1n])]).to.deep.equal(before);
    });

    it("names custom errors with their arguments", async function () {
      const f = await loadFixture(fixture);
      await approveRedemptionSync(f.userClient, { amount: AMOUNT });
      const error = (await initiateRedemption(f.userClient, { amount: 1n, provider: f.provider.address }).catch(
        (e: unknown) => e,
      )) as ContractRevertedError;
      expect(error).to.be.instanceOf(ContractRevertedError);
      expect(error.errorName).to.equal("RedemptionBelowMinimum");
      expect(error.args).to.deep.equal({ amount: 1n, minimum: parseEther("1") });
      expect(error.reason).to.equal(undefined);
      // the provider's error stays the cause; its message is the details
      expect(error.cause).to.be.instanceOf(Error);
      expect(error.walk((e) => e === error.cause)).to.equal(error.cause);
      expect(error.details).to.match(/RedemptionBelowMinimum/);
    });

    it("composes the message from the short message, meta lines and details, and walks the causes", function () {
      const root = new Error("socket hang up");
      const middle = new BaseError("The RPC failed.", { cause: root, metaMessages: ["URL: http://127.0.0.1:8545"] });
      const top = new BaseError("Could not read the redemption.", { cause: middle, docsPath: "README.md#sdk" });
      expect(middle.message).to.equal("The RPC failed.\n\nURL: http://127.0.0.1:8545\n\nDetails: socket hang up");
      expect(top.message).to.equal("Could not read the redemption.\n\nDocs: README.md#sdk\n\nDetails: socket hang up");
      expect(top.details).to.equal("socket hang up");
      expect(top.walk()).to.equal(root);
      expect(top.walk((e) => e instanceof BaseError && e.shortMessage === "The RPC failed.")).to.equal(middle);
      expect(top.walk((e) => e === "nothing")).to.equal(undefined);
    });

    it("decodes Error(string), Panic(uint256), custom and unknown revert data", function () {
      const reason = MANAGER.encodeErrorResult("Error", ["Only provider can fulfill"]);
      expect(decodeRevertData(reason)).to.include({ errorName: "Error", reason: "Only provider can fulfill" });
      const panic = decodeRevertData("0x4e487b710000000000000000000000000000000000000000000000000000000000000011");
      expect(panic.errorName).to.equal("Panic");
      expect(panic.args).to.deep.equal({ code: 0x11n });
      const custom = decodeRevertData(MANAGER.encodeErrorResult("RedemptionNotFound", [7n]));
      expect(custom).to.deep.include({ errorName: "RedemptionNotFound", args: { redemptionId: 7n } });
      const unknown = decodeRevertData(id("Nothing()").slice(0, 10));
      expect(unknown.errorName).to.equal(undefined);
      expect(unknown.selector).to.equal(id("Nothing()").slice(0, 10));
    });
  });

  describe("contract handles", function () {
    it("connects typed contracts of the deployment to the client's runner", async function () {
      const f = await loadFixture(fixture);
      const manager = getContract(f.userClient, "RedemptionManager");
      expect(await manager.getAddress()).to.equal(await f.redemptionManager.getAddress());
      const views = getContract(f.userClient, "RedemptionViews");
      expect(await views.getAddress()).to.equal(await f.redemptionViews.getAddress());
      expect(await views.quoteFee(AMOUNT)).to.deep.equal([FEE, AMOUNT + FEE]);
      expect(() => getContract(f.userClient, "SpotMarket")).to.throw(InvalidParameterError, /lists no SpotMarket/);
    });
  });
});

async function expectRejects(promise: Promise<unknown>, type: new (...args: never[]) => Error): Promise<void> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(type);
    return;
  }
  expect.fail(`expected a ${type.name}`);
}
