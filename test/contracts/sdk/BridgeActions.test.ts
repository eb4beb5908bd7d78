import { expect } from "chai";
import { network } from "hardhat";
import { parseEther, parseUnits } from "ethers";
import type { Signer } from "ethers";

import {
  ContractRevertedError,
  createProtocolClient,
  ensureAllowance,
  executeQueuedMessageSync,
  getAllowance,
  getBridgeMessage,
  getBridgeTransferStatus,
  InvalidParameterError,
  prepareSendBridgeTransfer,
  quoteBridgeTransfer,
  sendBridgeTransfer,
  sendBridgeTransferSync,
} from "@compute-capacity/sdk";
import type { ProtocolClient } from "@compute-capacity/sdk";
import { ARB, ETH, Token, deployBridgePair, withRelayer, bridgeState } from "../../helpers/bridge.js";
import type { BridgeFixture, BridgePair } from "../../helpers/bridge.js";

const connection = await network.create();
const { networkHelpers } = connection;
const { loadFixture, time } = networkHelpers;

const AMOUNT = parseEther("100");

/** The pair, with Bob holding 500 sSTB and 100 mUSDC on arbitrum and no approval at all. */
async function pair(): Promise<BridgePair> {
  const f = await deployBridgePair(connection);
  await f.primary.sstb.connect(f.alice).transfer(f.bob.address, parseEther("500"));
  await f.primary.collateral.mint(f.bob.address, parseUnits("100", 6));
  return f;
}

interface Fixture extends BridgeFixture {
  /** Bob's client on arbitrum, and a reader's client on ethereum. */
  arbitrum: ProtocolClient;
  ethereum: ProtocolClient;
}

async function fresh(): Promise<Fixture> {
  const f = withRelayer(await loadFixture(pair));
  const chainOf = async (d: BridgePair["primary"] | BridgePair["satellite"], runner: Signer) =>
    createProtocolClient({
      runner,
      deployment: {
        Bridge: await d.bridge.getAddress(),
        SSTB: await d.sstb.getAddress(),
        GovernanceToken: await d.governanceToken.getAddress(),
      },
    });
  return { ...f, arbitrum: await chainOf(f.primary, f.bob), ethereum: await chainOf(f.satellite, f.stranger) };
}

describe("SDK bridge actions (quote, send, status, queued delivery)", function () {
  describe("quoteBridgeTransfer", function () {
    it("gives the bridge's own quote for every fee option, with each option's token", async function () {
      const f = await fresh();
      const quote = await quoteBridgeTransfer(f.arbitrum, { destinationChainId: 1, token: "sSTB", amount: AMOUNT });
      const onChain = await f.primary.bridge.quoteFee(ETH, await f.primary.sstb.getAddress(), AMOUNT);
      expect(quote.fees.default).to.deep.equal({
        token: onChain.stablecoin,
        amount: onChain.defaultFee,
        discountBps: 0n,
      });
      expect(quote.fees.service).to.deep.equal({
        token: await f.primary.sstb.getAddress(),
        amount: onChain.serviceFee,
        discountBps: onChain.serviceDiscountBps,
      });
      expect(quote.fees.stb_gov).to.deep.equal({
        token: await f.primary.governanceToken.getAddress(),
        amount: onChain.governanceFee,
        discountBps: onChain.governanceDiscountBps,
      });
      expect(quote.transportFee).to.equal(onChain.transportFee);
      expect(quote.fees.default.amount).to.be.greaterThan(0n);
    });

    it("refuses a chain the protocol does not run on, and a zero amount, before any call", async function () {
      const f = await fresh();
      await expect(
        quoteBridgeTransfer(f.arbitrum, { destinationChainId: 10, token: "sSTB", amount: AMOUNT }),
      ).to.be.rejectedWith(InvalidParameterError, "Invalid destinationChainId: 10 is not a chain of the protocol.");
      await expect(
        quoteBridgeTransfer(f.arbitrum, { destinationChainId: 1, token: "sSTB", amount: 0n }),
      ).to.be.rejectedWith(InvalidParameterError, "Invalid amount: must be positive.");
    });
  });

  describe("sendBridgeTransfer", function () {
    it("says what to approve (the tokens, and the fee in its own token), sends with the transport fee, and arrives", async function () {
      const f = await fresh();
      const parameters = {
        destinationChainId: 1,
        recipient: f.bob.address,
        token: "sSTB",
        amount: AMOUNT,
        feeOption: "default",
      } as const;
      const prepared = await prepareSendBridgeTransfer(f.arbitrum, parameters);
      const quote = await f.primary.bridge.quoteFee(ETH, await f.primary.sstb.getAddress(), AMOUNT);
      const bridge = await f.primary.bridge.getAddress();
      expect(prepared.to).to.equal(bridge);
      expect(prepared.value).to.equal(quote.transportFee);
      expect(prepared.approvals).to.deep.equal([
        { token: await f.primary.sstb.getAddress(), spender: bridge, amount: AMOUNT },
        { token: quote.stablecoin, spender: bridge, amount: quote.defaultFee },
      ]);
      for (const approval of prepared.approvals) await ensureAllowance(f.arbitrum, approval);
      for (const approval of prepared.approvals) {
        expect(await getAllowance(f.arbitrum, { ...approval, owner: f.bob.address })).to.equal(approval.amount);
      }
      const before = await f.primary.sstb.balanceOf(f.bob.address);
      const { messageId, fee } = await sendBridgeTransferSync(f.arbitrum, parameters);
      expect(fee).to.equal(quote.defaultFee);
      expect(await f.primary.sstb.balanceOf(f.bob.address)).to.equal(before - AMOUNT);
      expect(await getBridgeMessage(f.arbitrum, { messageId })).to.include({
        status: "sent",
        remoteChainSelector: ETH,
      });

      expect((await getBridgeTransferStatus(f.arbitrum, { messageId, destination: f.ethereum })).status).to.equal(
        "pending",
      );
      await f.relayer.poll();
      const delivered = await getBridgeTransferStatus(f.arbitrum, { messageId, destination: f.ethereum });
      expect(delivered.status).to.equal("completed");
      expect(delivered.destination.remoteChainSelector).to.equal(ARB);
      expect(delivered.destination.completedAt).to.be.greaterThan(0n);
      expect(await f.satellite.sstb.balanceOf(f.bob.address)).to.equal(AMOUNT);
    });

    it("asks one approval when the fee is paid in the token sent (service option)", async function () {
      const f = await fresh();
      const prepared = await prepareSendBridgeTransfer(f.arbitrum, {
        destinationChainId: 1,
        recipient: f.bob.address,
        token: "sSTB",
        amount: AMOUNT,
        feeOption: "service",
      });
      const quote = await f.primary.bridge.quoteFee(ETH, await f.primary.sstb.getAddress(), AMOUNT);
      expect(prepared.approvals).to.deep.equal([
        {
          token: await f.primary.sstb.getAddress(),
          spender: await f.primary.bridge.getAddress(),
          amount: AMOUNT + quote.serviceFee,
        },
      ]);
      expect(prepared.fee).to.equal(quote.serviceFee);
    });

    it("refuses without the approval (the bridge's revert, before sending), changing nothing", async function () {
      const f = await fresh();
      const before = await bridgeState(f, [f.bob.address]);
      const error = await sendBridgeTransfer(f.arbitrum, {
        destinationChainId: 1,
        recipient: f.bob.address,
        token: "sSTB",
        amount: AMOUNT,
        feeOption: "default",
      }).catch((e: unknown) => e);
      expect(error).to.be.instanceOf(ContractRevertedError);
      expect((error as ContractRevertedError).errorName).to.equal("ERC20InsufficientAllowance");
      expect(await bridgeState(f, [f.bob.address])).to.deep.equal(before);
    });

    it("refuses a bad recipient or fee option before any call", async function () {
      const f = await fresh();
      const base = { destinationChainId: 1, token: "sSTB", amount: AMOUNT } as const;
      await expect(
        prepareSendBridgeTransfer(f.arbitrum, { ...base, recipient: "0x12", feeOption: "default" }),
      ).to.be.rejectedWith(InvalidParameterError, "Invalid recipient: must be an address.");
      await expect(
        prepareSendBridgeTransfer(f.arbitrum, {
          ...base,
          recipient: f.bob.address,
          feeOption: "gas" as unknown as "default",
        }),
      ).to.be.rejectedWith(InvalidParameterError, "Invalid feeOption");
    });
  });

  describe("getBridgeTransferStatus and executeQueuedMessage", function () {
    it("reports a transfer queued on arrival, and delivers it once the inbound bucket allows", async function () {
      const f = await fresh();
      const small = { enabled: true, capacity: parseEther("50"), rate: parseEther("1") };
      await f.satellite.bridge.setRateLimit(ARB, Token.SSTB, false, small);
      const parameters = {
        destinationChainId: 1,
        recipient: f.bob.address,
        token: "sSTB",
        amount: AMOUNT,
        feeOption: "service",
      } as const;
      for (const approval of (await prepareSendBridgeTransfer(f.arbitrum, parameters)).approvals) {
        await ensureAllowance(f.arbitrum, approval);
      }
      const { messageId } = await sendBridgeTransferSync(f.arbitrum, parameters);
      await f.relayer.poll();
      expect((await getBridgeTransferStatus(f.arbitrum, { messageId, destination: f.ethereum })).status).to.equal(
        "queued",
      );
      // with room for it in the bucket's capacity but not yet refilled, a stranger's delivery is refused
      // by the bucket before anything is sent
      await f.satellite.bridge.setRateLimit(ARB, Token.SSTB, false, { ...small, capacity: parseEther("200") });
      const early = await executeQueuedMessageSync(f.ethereum, { messageId }).catch((e: unknown) => e);
      expect((early as ContractRevertedError).errorName).to.equal("TokenBucketExceeded");
      await time.increase(60);
      await executeQueuedMessageSync(f.ethereum, { messageId });
      expect((await getBridgeTransferStatus(f.arbitrum, { messageId, destination: f.ethereum })).status).to.equal(
        "completed",
      );
      expect(await f.satellite.sstb.balanceOf(f.bob.address)).to.equal(AMOUNT);
    });

    it("says unknown for an id neither chain has seen, and refuses an id that is not 32 bytes", async function () {
      const f = await fresh();
      const messageId = "0x" + "ab".repeat(32);
      const status = await getBridgeTransferStatus(f.arbitrum, { messageId, destination: f.ethereum });
      expect(status.status).to.equal("unknown");
      expect(status.source.status).to.equal("none");
      await expect(getBridgeMessage(f.arbitrum, { messageId: "0x1234" })).to.be.rejectedWith(
        InvalidParameterError,
        "Invalid messageId: must be 32 bytes of hex.",
      );
    });
  });
});
