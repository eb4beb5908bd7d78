import { expect } from "chai";
import hre, { network } from "hardhat";
import { upgrades } from "@openzeppelin/hardhat-upgrades";
import { AbiCoder, parseEther, parseUnits } from "ethers";

import { FeeOption, MESSAGE_STATUSES, NO_LIMIT, Roles, routeTo } from "@compute-capacity/sdk";
import { Bridge__factory, DevnetCCIPRouter__factory } from "../../../typechain-types/index.js";
import {
  ARB,
  ETH,
  LIMIT,
  LIMITS,
  Status,
  TRANSPORT_FEE,
  Token,
  bridgeState,
  deliver,
  deployBridgePair,
  sentMessageId,
  withRelayer,
} from "../../helpers/bridge.js";
import type { BridgeFixture, BridgePair } from "../../helpers/bridge.js";
import { GUARDIAN_PAUSE } from "../../helpers/pause.js";

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture, time } = networkHelpers;

const AMOUNT = parseEther("100");
const coder = AbiCoder.defaultAbiCoder();

async function pair(): Promise<BridgePair> {
  return deployBridgePair(connection);
}

/** The two bridges as deployed, with a relayer of this test's own. */
async function fresh(): Promise<BridgeFixture> {
  return withRelayer(await loadFixture(pair));
}

/** Alice's accounts, the treasury and Bob on both sides, for revert snapshots. */
async function everything(f: BridgeFixture) {
  return bridgeState(f, [f.alice.address, f.bob.address, f.stranger.address]);
}

/** Sends `amount` of sSTB from arbitrum to Bob on ethereum; returns the message id. */
async function sendSstb(f: BridgeFixture, amount = AMOUNT, option: number = FeeOption.default): Promise<string> {
  const bridge = f.primary.bridge.connect(f.alice);
  const sstb = await f.primary.sstb.getAddress();
  const tx = await bridge.send(ETH, f.bob.address, sstb, amount, option, { value: TRANSPORT_FEE });
  return sentMessageId(f, (await tx.wait())!);
}

/** A message sent to ethereum and not yet delivered. */
async function sent() {
  const f = await fresh();
  const id = await sendSstb(f);
  return { f, id };
}

/** A message delivered on ethereum: Bob holds AMOUNT sSTB there. */
async function delivered() {
  const { f, id } = await sent();
  await f.relayer.poll();
  return { f, id };
}

/** Executes `messageId` again on its destination router (manual execution after a failure). */
async function deliverAgain(f: BridgeFixture, messageId: string) {
  return deliver(f, messageId, 400_000n);
}

async function now(): Promise<bigint> {
  return BigInt((await ethers.provider.getBlock("latest"))!.timestamp);
}

describe("Bridge", function () {
  describe("initialize", function () {
    it("starts with the default fees, prices and the deployment's collaborators, and refuses a second call", async function () {
      const f = await fresh();
      const b = f.primary.bridge;
      expect(await b.feeBps()).to.equal(10n);
      expect(await b.discounts()).to.deep.equal([1_000n, 2_500n]);
      expect(await b.prices()).to.deep.equal([1_000_000n, 1_000_000n]);
      expect(await b.treasury()).to.equal(f.treasury.address);
      expect(await b.getRouter()).to.equal(await f.primary.router.getAddress());
      expect(await b.localChainSelector()).to.equal(ARB);
      expect(await b.tokenAddress(Token.SSTB)).to.equal(await f.primary.sstb.getAddress());
      expect(await b.tokenAddress(Token.Governance)).to.equal(await f.primary.governanceToken.getAddress());
      expect(await b.stablecoin()).to.equal(await f.primary.collateral.getAddress());
      expect(await b.escrowsGovernance()).to.equal(true);
      expect(await f.satellite.bridge.escrowsGovernance()).to.equal(false);
      expect(await b.initializedVersion()).to.equal(1n);
      expect(await b.latestInitializerVersion()).to.equal(1n);
      expect(await b.routeOf(ETH)).to.deep.equal([await f.satellite.bridge.getAddress(), 200_000n]);
      await expect(b.initialize(f.deployer.address, f.treasury.address, 1n, 1n)).to.be.revertedWithCustomError(
        b,
        "InvalidInitialization",
      );
    });

    it("declares the CCIP receiver interface and AccessControl through ERC-165", async function () {
      const f = await fresh();
      expect(await f.primary.bridge.supportsInterface("0x85572ffb")).to.equal(true); // IAny2EVMMessageReceiver
      expect(await f.primary.bridge.supportsInterface("0x7965db0b")).to.equal(true); // IAccessControl
      expect(await f.primary.bridge.supportsInterface("0x01ffc9a7")).to.equal(true); // IERC165
      expect(await f.primary.bridge.supportsInterface("0xffffffff")).to.equal(false);
    });
  });

  describe("send", function () {
    it("burns sSTB, pays the fee in the stablecoin and CCIP in native gas, returns the message id and records it as sent", async function () {
      const f = await fresh();
      const b = f.primary.bridge.connect(f.alice);
      const sstb = await f.primary.sstb.getAddress();
      const fee = parseUnits("0.1", 6); // 10 bps of 100 sSTB at 1 mUSDC
      const supply = await f.primary.sstb.totalSupply();
      const returned = await b.send.staticCall(ETH, f.bob.address, sstb, AMOUNT, FeeOption.default, {
        value: TRANSPORT_FEE,
      });
      expect(returned).to.match(/^0x[0-9a-f]{64}$/);
      const tx = b.send(ETH, f.bob.address, sstb, AMOUNT, FeeOption.default, { value: TRANSPORT_FEE });
      const id = sentMessageId(f, (await (await tx).wait())!);
      const [request] = await f.primary.router.queryFilter(f.primary.router.filters.CCIPSendRequested());
      expect(request.args.messageId).to.equal(id); // the id CCIP gave the message
      await expect(tx)
        .to.emit(b, "MessageSent")
        .withArgs(id, ETH, f.alice.address, f.bob.address, sstb, AMOUNT, FeeOption.default, fee, TRANSPORT_FEE);
      await expect(tx).to.emit(f.primary.router, "CCIPSendRequested");
      await expect(tx).to.changeTokenBalances(ethers, f.primary.collateral, [f.alice, f.treasury], [-fee, fee]);
      await expect(tx).to.changeEtherBalances(ethers, [f.alice, f.primary.router], [-TRANSPORT_FEE, TRANSPORT_FEE]);
      expect(await f.primary.sstb.totalSupply()).to.equal(supply - AMOUNT);
      expect(await f.primary.sstb.balanceOf(f.alice.address)).to.equal(parseEther("10000") - AMOUNT);
      const record = await b.messageOf(id);
      expect(record.status).to.equal(Status.Sent);
      expect(MESSAGE_STATUSES[Number(record.status)]).to.equal("sent");
      expect(record.createdAt).to.equal(await now());
      expect(record.remoteChainSelector).to.equal(ETH);
      expect(await b.bridgedTotals(Token.SSTB)).to.deep.equal([AMOUNT, 0n]);
    });

    it("escrows the governance token on arbitrum instead of burning it", async function () {
      const f = await fresh();
      const token = f.primary.governanceToken;
      const tx = f.primary.bridge
        .connect(f.alice)
        .send(ETH, f.bob.address, await token.getAddress(), AMOUNT, FeeOption.default, { value: TRANSPORT_FEE });
      await expect(tx).to.changeTokenBalances(ethers, token, [f.alice, f.primary.bridge], [-AMOUNT, AMOUNT]);
      expect(await f.primary.bridge.bridgedTotals(Token.Governance)).to.deep.equal([AMOUNT, 0n]);
    });

    it("gives two identical transfers distinct message ids", async function () {
      const f = await fresh();
      const first = await sendSstb(f);
      const second = await sendSstb(f);
      expect(first).to.not.equal(second);
      expect(await f.primary.bridge.messageStatus(first)).to.equal(Status.Sent);
      expect(await f.primary.bridge.messageStatus(second)).to.equal(Status.Sent);
    });

    it("pays CCIP what it is sent: the router refuses less than its fee and keeps an overpayment", async function () {
      const f = await fresh();
      const tx = f.primary.bridge
        .connect(f.alice)
        .send(ETH, f.bob.address, await f.primary.sstb.getAddress(), AMOUNT, FeeOption.default, {
          value: TRANSPORT_FEE * 2n,
        });
      await expect(tx).to.changeEtherBalances(
        ethers,
        [f.alice, f.primary.router],
        [-TRANSPORT_FEE * 2n, TRANSPORT_FEE * 2n],
      );
    });

    it("refuses, changing nothing: too little native gas, no route, an unknown token, a zero recipient or amount, while paused", async function () {
      const f = await fresh();
      const b = f.primary.bridge.connect(f.alice);
      const sstb = await f.primary.sstb.getAddress();
      const before = await everything(f);
      await expect(
        b.send(ETH, f.bob.address, sstb, AMOUNT, 0, { value: TRANSPORT_FEE - 1n }),
      ).to.be.revertedWithCustomError(f.primary.router, "InsufficientFeeTokenAmount");
      await expect(b.send(ARB, f.bob.address, sstb, AMOUNT, 0, { value: TRANSPORT_FEE }))
        .to.be.revertedWithCustomError(b, "BridgeUnsupportedChain")
        .withArgs(ARB);
      const stablecoin = await f.primary.collateral.getAddress();
      await expect(b.send(ETH, f.bob.address, stablecoin, AMOUNT, 0, { value: TRANSPORT_FEE }))
        .to.be.revertedWithCustomError(b, "BridgeUnsupportedToken")
        .withArgs(stablecoin);
      await expect(
        b.send(ETH, ethers.ZeroAddress, sstb, AMOUNT, 0, { value: TRANSPORT_FEE }),
      ).to.be.revertedWithCustomError(b, "ZeroAddress");
      await expect(b.send(ETH, f.bob.address, sstb, 0n, 0, { value: TRANSPORT_FEE }))
        .to.be.revertedWithCustomError(b, "BridgeInvalidAmount")
        .withArgs(0n);
      await expect(b.send(ETH, f.bob.address, sstb, 2n ** 96n, 0, { value: TRANSPORT_FEE }))
        .to.be.revertedWithCustomError(b, "BridgeInvalidAmount")
        .withArgs(2n ** 96n);
      await f.primary.bridge.connect(f.guardian).pause();
      const paused = await everything(f);
      await expect(b.send(ETH, f.bob.address, sstb, AMOUNT, 0, { value: TRANSPORT_FEE })).to.be.revertedWithCustomError(
        b,
        "EnforcedPause",
      );
      expect(await everything(f)).to.deep.equal(paused);
      await f.primary.bridge.unpause();
      expect(await everything(f)).to.deep.equal(before);
    });
  });

  describe("fee options", function () {
    it("quotes every option and the transport fee: 10 bps, 10% off in sSTB, 25% off in the governance token", async function () {
      const f = await fresh();
      const quote = await f.primary.bridge.quoteFee(ETH, await f.primary.sstb.getAddress(), AMOUNT);
      expect(quote.stablecoin).to.equal(await f.primary.collateral.getAddress());
      expect(quote.defaultFee).to.equal(parseUnits("0.1", 6));
      expect(quote.serviceFee).to.equal(parseEther("0.09"));
      expect(quote.serviceDiscountBps).to.equal(1_000n);
      expect(quote.governanceFee).to.equal(parseEther("0.075"));
      expect(quote.governanceDiscountBps).to.equal(2_500n);
      expect(quote.transportFee).to.equal(TRANSPORT_FEE);
    });

    it("converts through the governed prices (sSTB at 2 USDC, STBGOV at 0.5 USDC)", async function () {
      const f = await fresh();
      await f.primary.bridge.setPrices(2_000_000n, 500_000n);
      const sstbQuote = await f.primary.bridge.quoteFee(ETH, await f.primary.sstb.getAddress(), AMOUNT);
      // value 200 USDC: fee 0.2 USDC; in sSTB 0.1 less 10%; in STBGOV 0.4 less 25%
      expect(sstbQuote.defaultFee).to.equal(parseUnits("0.2", 6));
      expect(sstbQuote.serviceFee).to.equal(parseEther("0.09"));
      expect(sstbQuote.governanceFee).to.equal(parseEther("0.3"));
      const govQuote = await f.primary.bridge.quoteFee(ETH, await f.primary.governanceToken.getAddress(), AMOUNT);
      // value 50 USDC: fee 0.05 USDC; in sSTB 0.025 less 10%; in STBGOV 0.1 less 25%
      expect(govQuote.defaultFee).to.equal(parseUnits("0.05", 6));
      expect(govQuote.serviceFee).to.equal(parseEther("0.0225"));
      expect(govQuote.governanceFee).to.equal(parseEther("0.075"));
    });

    it("rounds every option up, so a transfer above zero never travels free while the fee is above zero", async function () {
      const f = await fresh();
      const quote = await f.primary.bridge.quoteFee(ETH, await f.primary.sstb.getAddress(), 1n);
      expect([quote.defaultFee, quote.serviceFee, quote.governanceFee]).to.deep.equal([1n, 1n, 1n]);
      // 1 sSTB + 1 wei: 0.001 USDC and a fraction of a base unit -> 1001 units
      const odd = await f.primary.bridge.quoteFee(ETH, await f.primary.sstb.getAddress(), parseEther("1") + 1n);
      expect(odd.defaultFee).to.equal(1_001n);
      expect(odd.serviceFee).to.equal(parseEther("0.0009") + 1n);
      expect(odd.governanceFee).to.equal(parseEther("0.00075") + 1n);
      await f.primary.bridge.setFee(0n);
      const free = await f.primary.bridge.quoteFee(ETH, await f.primary.sstb.getAddress(), AMOUNT);
      expect([free.defaultFee, free.serviceFee, free.governanceFee]).to.deep.equal([0n, 0n, 0n]);
    });

    for (const [option, name] of [
      [FeeOption.service, "service"],
      [FeeOption.stb_gov, "stb_gov"],
    ] as const) {
      it(`${name}: charges the discounted fee in its token to the treasury`, async function () {
        const f = await fresh();
        const quote = await f.primary.bridge.quoteFee(ETH, await f.primary.sstb.getAddress(), AMOUNT);
        const [token, fee] =
          option === FeeOption.service
            ? [f.primary.sstb, quote.serviceFee]
            : [f.primary.governanceToken, quote.governanceFee];
        const id = f.primary.bridge
          .connect(f.alice)
          .send(ETH, f.bob.address, await f.primary.sstb.getAddress(), AMOUNT, option, { value: TRANSPORT_FEE });
        const burned = option === FeeOption.service ? AMOUNT : 0n;
        await expect(id).to.changeTokenBalances(ethers, token, [f.alice, f.treasury], [-(fee + burned), fee]);
        await expect(id).to.changeTokenBalances(ethers, f.primary.collateral, [f.alice, f.treasury], [0n, 0n]);
        await expect(id)
          .to.emit(f.primary.bridge, "MessageSent")
          .withArgs(
            (v: string) => v.length === 66,
            ETH,
            f.alice.address,
            f.bob.address,
            await f.primary.sstb.getAddress(),
            AMOUNT,
            option,
            fee,
            TRANSPORT_FEE,
          );
      });
    }

    it("pays no fee transfer at a zero fee", async function () {
      const f = await fresh();
      await f.primary.bridge.setFee(0n);
      const tx = f.primary.bridge
        .connect(f.alice)
        .send(ETH, f.bob.address, await f.primary.sstb.getAddress(), AMOUNT, 0, { value: TRANSPORT_FEE });
      await expect(tx).to.changeTokenBalances(ethers, f.primary.collateral, [f.alice, f.treasury], [0n, 0n]);
    });
  });

  describe("delivery (ccipReceive through the relayer)", function () {
    it("mints on the destination once, records completed with its times and emits everything the API needs", async function () {
      const { f, id } = await sent();
      const [result] = await f.relayer.poll();
      expect(result.messageId).to.equal(id);
      expect(result.state).to.equal("success");
      const receipt = await ethers.provider.getTransactionReceipt(result.transactionHash);
      const s = f.satellite.bridge;
      const events = receipt!.logs.filter((l) => l.address === s.target).map((l) => s.interface.parseLog(l)!);
      expect(events.map((e) => e.name)).to.deep.equal(["MessageReceived"]);
      expect([...events[0].args]).to.deep.equal([
        id,
        ARB,
        f.bob.address,
        f.alice.address,
        await f.satellite.sstb.getAddress(),
        AMOUNT,
        true,
      ]);
      expect(await f.satellite.sstb.balanceOf(f.bob.address)).to.equal(AMOUNT);
      const record = await s.messageOf(id);
      expect(record.status).to.equal(Status.Completed);
      expect(record.completedAt).to.equal(await now());
      expect(record.remoteChainSelector).to.equal(ARB);
      expect(await s.bridgedTotals(Token.SSTB)).to.deep.equal([0n, AMOUNT]);
      // a second pass delivers nothing again
      expect(await f.relayer.poll()).to.deep.equal([]);
      expect(await f.satellite.sstb.balanceOf(f.bob.address)).to.equal(AMOUNT);
    });

    it("carries every path: sSTB back to arbitrum, the governance token out (escrow -> mint) and back (burn -> release)", async function () {
      const { f } = await delivered();
      const bobS = f.satellite.bridge.connect(f.bob);
      await f.satellite.sstb.connect(f.bob).approve(await bobS.getAddress(), ethers.MaxUint256);
      await f.satellite.stablecoin.mint(f.bob.address, parseUnits("10", 6));
      await f.satellite.stablecoin.connect(f.bob).approve(await bobS.getAddress(), ethers.MaxUint256);
      await bobS.send(ARB, f.alice.address, await f.satellite.sstb.getAddress(), AMOUNT, 0, { value: TRANSPORT_FEE });
      await f.relayer.poll();
      expect(await f.satellite.sstb.totalSupply()).to.equal(0n);
      expect(await f.primary.sstb.balanceOf(f.alice.address)).to.equal(parseEther("10000"));

      const gov = f.primary.governanceToken;
      await f.primary.bridge
        .connect(f.alice)
        .send(ETH, f.alice.address, await gov.getAddress(), AMOUNT, 0, { value: TRANSPORT_FEE });
      await f.relayer.poll();
      expect(await f.satellite.governanceToken.balanceOf(f.alice.address)).to.equal(AMOUNT);
      expect(await gov.balanceOf(await f.primary.bridge.getAddress())).to.equal(AMOUNT);
      expect(await f.satellite.governanceToken.totalSupply()).to.equal(AMOUNT);

      await f.satellite.bridge
        .connect(f.alice)
        .send(ARB, f.bob.address, await f.satellite.governanceToken.getAddress(), AMOUNT, 0, { value: TRANSPORT_FEE });
      await f.relayer.poll();
      expect(await f.satellite.governanceToken.totalSupply()).to.equal(0n);
      expect(await gov.balanceOf(await f.primary.bridge.getAddress())).to.equal(0n);
      expect(await gov.balanceOf(f.bob.address)).to.equal(AMOUNT);
      expect(await f.primary.bridge.bridgedTotals(Token.Governance)).to.deep.equal([AMOUNT, AMOUNT]);
    });

    it("refuses a caller other than the router (a wrong router or an account)", async function () {
      const { f, id } = await sent();
      const message = await forgedMessage(f, id, await f.primary.bridge.getAddress());
      await expect(f.satellite.bridge.connect(f.stranger).ccipReceive(message))
        .to.be.revertedWithCustomError(f.satellite.bridge, "BridgeInvalidRouter")
        .withArgs(f.stranger.address);

      // another devnet router that the relayer controls cannot deliver to the bridge either
      const rogue = await new DevnetCCIPRouter__factory(f.relayerSigner).deploy(ETH, f.relayerSigner.address, 0n, [
        ARB,
      ]);
      const before = await everything(f);
      const tx = rogue.execute(
        ARB,
        1n,
        await f.primary.bridge.getAddress(),
        await f.satellite.bridge.getAddress(),
        message.data,
        200_000n,
        0n,
      );
      await expect(tx)
        .to.emit(rogue, "ExecutionStateChanged")
        .withArgs(
          ARB,
          1n,
          (v: string) => v.length === 66,
          3n,
          Bridge__factory.createInterface().encodeErrorResult("BridgeInvalidRouter", [await rogue.getAddress()]),
        );
      expect(await everything(f)).to.deep.equal(before);
    });

    it("refuses a message from anything but the configured peer (a forged sender) and from a chain without a route", async function () {
      const { f } = await sent();
      const router = f.satellite.router.connect(f.relayerSigner);
      const data = transferData(Token.SSTB, f.stranger.address, f.stranger.address, AMOUNT);
      const before = await everything(f);
      const forged = router.execute(
        ARB,
        99n,
        f.stranger.address,
        await f.satellite.bridge.getAddress(),
        data,
        200_000n,
        0n,
      );
      await expect(forged)
        .to.emit(router, "ExecutionStateChanged")
        .withArgs(
          ARB,
          99n,
          (v: string) => v.length === 66,
          3n,
          Bridge__factory.createInterface().encodeErrorResult("BridgeUnknownPeer", [ARB, f.stranger.address]),
        );
      // the real peer's address, but a chain the route does not name
      const otherChain = 777n;
      const wrongChain = router.execute(
        otherChain,
        1n,
        await f.primary.bridge.getAddress(),
        await f.satellite.bridge.getAddress(),
        data,
        200_000n,
        0n,
      );
      await expect(wrongChain)
        .to.emit(router, "ExecutionStateChanged")
        .withArgs(
          otherChain,
          1n,
          (v: string) => v.length === 66,
          3n,
          Bridge__factory.createInterface().encodeErrorResult("BridgeUnknownPeer", [
            otherChain,
            await f.primary.bridge.getAddress(),
          ]),
        );
      expect(await everything(f)).to.deep.equal(before);
    });

    it("refuses a message of an unknown kind from its peer", async function () {
      const { f } = await sent();
      const router = f.satellite.router.connect(f.relayerSigner);
      const data = coder.encode(["uint256"], [3n]);
      const before = await everything(f);
      await expect(
        router.execute(
          ARB,
          50n,
          await f.primary.bridge.getAddress(),
          await f.satellite.bridge.getAddress(),
          data,
          200_000n,
          0n,
        ),
      )
        .to.emit(router, "ExecutionStateChanged")
        .withArgs(
          ARB,
          50n,
          (v: string) => v.length === 66,
          3n,
          Bridge__factory.createInterface().encodeErrorResult("BridgeUnknownMessageKind", [3n]),
        );
      expect(await everything(f)).to.deep.equal(before);
    });

    it("processes a message id once: the router refuses a replay, and so does the bridge if a router delivered it again", async function () {
      const { f, id } = await delivered();
      const ev = (await f.primary.router.queryFilter(f.primary.router.filters.CCIPSendRequested()))[0];
      const router = f.satellite.router.connect(f.relayerSigner);
      await expect(
        router.execute(
          ARB,
          ev.args.sequenceNumber,
          ev.args.sender,
          ev.args.receiver,
          ev.args.data,
          ev.args.gasLimit,
          0n,
        ),
      )
        .to.be.revertedWithCustomError(router, "AlreadyExecuted")
        .withArgs(id);

      await networkHelpers.impersonateAccount(await router.getAddress());
      await networkHelpers.setBalance(await router.getAddress(), parseEther("1"));
      const before = await everything(f);
      const asRouter = await ethers.getSigner(await router.getAddress());
      const message = await forgedMessage(f, id, await f.primary.bridge.getAddress());
      await expect(f.satellite.bridge.connect(asRouter).ccipReceive(message))
        .to.be.revertedWithCustomError(f.satellite.bridge, "BridgeMessageAlreadyProcessed")
        .withArgs(id);
      await networkHelpers.stopImpersonatingAccount(await router.getAddress());
      expect(await everything(f)).to.deep.equal(before);
    });

    it("leaves a delivery that reverts failed and unprocessed, and completes it when re-executed after the fix", async function () {
      const { f, id } = await sent();
      await f.satellite.sstb.revokeRole(Roles.MINTER, await f.satellite.bridge.getAddress());
      const before = await everything(f);
      const [failed] = await f.relayer.poll();
      expect(failed.state).to.equal("failure");
      expect(await f.satellite.bridge.messageStatus(id)).to.equal(Status.None);
      expect(await everything(f)).to.deep.equal(before);
      expect(f.relayer.cursor().failed.map((m) => m.messageId)).to.deep.equal([id]);
      // still failing: the relayer keeps it for later
      expect((await f.relayer.poll()).map((r) => r.state)).to.deep.equal(["failure"]);

      await f.satellite.sstb.grantRole(Roles.MINTER, await f.satellite.bridge.getAddress());
      const [retried] = await f.relayer.poll();
      expect(retried).to.include({ messageId: id, state: "success" });
      expect(await f.satellite.bridge.messageStatus(id)).to.equal(Status.Completed);
      expect(await f.satellite.sstb.balanceOf(f.bob.address)).to.equal(AMOUNT);
      expect(f.relayer.cursor().failed).to.deep.equal([]);
    });

    it("re-executes a failed delivery with more gas than the message asked for (manual execution)", async function () {
      const f = await fresh();
      // a route whose gas limit is too low for a mint to a new holder
      await f.primary.bridge.setRoutes([routeTo(ETH, await f.satellite.bridge.getAddress(), LIMITS, 50_000n)]);
      const id = await sendSstb(f);
      const [failed] = await f.relayer.poll();
      expect(failed.state).to.equal("failure");
      const ev = (await f.primary.router.queryFilter(f.primary.router.filters.CCIPSendRequested()))[0];
      const router = f.satellite.router.connect(f.relayerSigner);
      const args = [
        ARB,
        ev.args.sequenceNumber,
        ev.args.sender,
        ev.args.receiver,
        ev.args.data,
        ev.args.gasLimit,
      ] as const;
      await expect(router.execute(...args, 40_000n))
        .to.be.revertedWithCustomError(router, "InvalidGasLimitOverride")
        .withArgs(40_000n);
      await expect(router.execute(...args, 300_000n))
        .to.emit(router, "ExecutionStateChanged")
        .withArgs(ARB, ev.args.sequenceNumber, id, 2n, "0x");
      expect(await f.satellite.sstb.balanceOf(f.bob.address)).to.equal(AMOUNT);
    });

    it("refuses a relayer other than the router's", async function () {
      const { f } = await sent();
      const ev = (await f.primary.router.queryFilter(f.primary.router.filters.CCIPSendRequested()))[0];
      const router = f.satellite.router.connect(f.stranger);
      await expect(
        router.execute(
          ARB,
          ev.args.sequenceNumber,
          ev.args.sender,
          ev.args.receiver,
          ev.args.data,
          ev.args.gasLimit,
          0n,
        ),
      )
        .to.be.revertedWithCustomError(router, "OnlyRelayer")
        .withArgs(f.stranger.address);
    });
  });

  describe("rate limits", function () {
    it("refuses a send above the outbound bucket, changing nothing, and lets it through once the bucket refills", async function () {
      const f = await fresh();
      await sendSstb(f, parseEther("900"));
      const b = f.primary.bridge.connect(f.alice);
      const sstb = await f.primary.sstb.getAddress();
      const before = await everything(f);
      const request = parseEther("150");
      // 100 left, plus 1 per second since the first send
      await expect(b.send(ETH, f.bob.address, sstb, request, 0, { value: TRANSPORT_FEE }))
        .to.be.revertedWithCustomError(b, "TokenBucketExceeded")
        .withArgs((available: bigint) => available >= AMOUNT && available < AMOUNT + parseEther("10"), request);
      expect(await everything(f)).to.deep.equal(before);
      // the governance token has its own bucket
      await b.send(ETH, f.bob.address, await f.primary.governanceToken.getAddress(), AMOUNT * 5n, 0, {
        value: TRANSPORT_FEE,
      });
      await time.increase(50);
      await b.send(ETH, f.bob.address, sstb, request, 0, { value: TRANSPORT_FEE });
    });

    it("refills at the configured rate, never above capacity", async function () {
      const f = await fresh();
      await sendSstb(f, parseEther("1000"));
      expect((await f.primary.bridge.rateLimitOf(ETH, Token.SSTB, true)).available).to.equal(0n);
      await time.increase(30);
      expect((await f.primary.bridge.rateLimitOf(ETH, Token.SSTB, true)).available).to.equal(parseEther("30"));
      await time.increase(10_000);
      expect((await f.primary.bridge.rateLimitOf(ETH, Token.SSTB, true)).available).to.equal(parseEther("1000"));
    });

    it("queues a delivery above the inbound bucket and delivers it once the bucket has refilled", async function () {
      const f = await fresh();
      const small = { enabled: true, capacity: parseEther("50"), rate: parseEther("1") };
      await f.satellite.bridge.setRateLimit(ARB, Token.SSTB, false, small);
      const id = await sendSstb(f);
      const [result] = await f.relayer.poll();
      expect(result.state).to.equal("success"); // CCIP delivered; the bridge holds it back
      const s = f.satellite.bridge;
      expect(await s.messageStatus(id)).to.equal(Status.Queued);
      expect(await s.queuedDeliveryOf(id)).to.deep.equal([
        f.bob.address,
        Token.SSTB,
        AMOUNT,
        await f.primary.bridge.getAddress(),
      ]);
      expect(await f.satellite.sstb.balanceOf(f.bob.address)).to.equal(0n);
      const queuedEvents = await s.queryFilter(s.filters.MessageQueued(id));
      expect(queuedEvents[0].args.paused).to.equal(false);

      // raise capacity: still only what has refilled is available
      await s.setRateLimit(ARB, Token.SSTB, false, {
        enabled: true,
        capacity: parseEther("200"),
        rate: parseEther("1"),
      });
      await expect(s.connect(f.stranger).executeQueued(id)).to.be.revertedWithCustomError(s, "TokenBucketExceeded");
      await time.increase(60);
      await expect(s.connect(f.stranger).executeQueued(id)).to.emit(s, "MessageCompleted").withArgs(id);
      expect(await f.satellite.sstb.balanceOf(f.bob.address)).to.equal(AMOUNT);
      expect(await s.messageStatus(id)).to.equal(Status.Completed);
      expect(await s.queuedDeliveryOf(id)).to.deep.equal([ethers.ZeroAddress, 0n, 0n, ethers.ZeroAddress]);
      await expect(s.executeQueued(id)).to.be.revertedWithCustomError(s, "BridgeMessageNotQueued").withArgs(id);
    });

    it("limits nothing when disabled, and refuses inconsistent configurations", async function () {
      const f = await fresh();
      await f.primary.bridge.setRateLimit(ETH, Token.SSTB, true, NO_LIMIT);
      expect((await f.primary.bridge.rateLimitOf(ETH, Token.SSTB, true)).available).to.equal(ethers.MaxUint256);
      await sendSstb(f, parseEther("5000"));
      for (const bad of [
        { enabled: true, capacity: 0n, rate: 0n },
        { enabled: true, capacity: 10n, rate: 11n },
        { enabled: true, capacity: 10n, rate: 0n },
        { enabled: false, capacity: 10n, rate: 1n },
      ]) {
        await expect(f.primary.bridge.setRateLimit(ETH, Token.SSTB, true, bad))
          .to.be.revertedWithCustomError(f.primary.bridge, "TokenBucketInvalidConfig")
          .withArgs(bad.enabled, bad.capacity, bad.rate);
      }
    });
  });

  describe("executeQueued (first in, first out)", function () {
    /** Ethereum's inbound sSTB bucket from arbitrum set to `capacity`, refilling 1 token a second. */
    async function inboundLimit(f: BridgeFixture, capacity: bigint) {
      const limit = { enabled: true, capacity, rate: parseEther("1") };
      await f.satellite.bridge.setRateLimit(ARB, Token.SSTB, false, limit);
      return limit;
    }

    it("delivers only the head of its queue: a later message waits behind it even when the bucket could take it", async function () {
      const f = await fresh();
      const s = f.satellite.bridge;
      await inboundLimit(f, parseEther("150"));
      await sendSstb(f, parseEther("150"));
      await f.relayer.poll(); // the bucket is empty now
      const first = await sendSstb(f, AMOUNT);
      await f.relayer.poll();
      await time.increase(20);
      const second = await sendSstb(f, parseEther("10"));
      const [arrival] = await f.relayer.poll();
      const events = (await ethers.provider.getTransactionReceipt(arrival.transactionHash))!.logs
        .filter((l) => l.address === s.target)
        .map((l) => s.interface.parseLog(l)!);
      expect(events.map((e) => e.name)).to.deep.equal(["MessageReceived", "MessageQueued"]);
      expect(events[0].args.completed).to.equal(false);
      expect(events[1].args).to.deep.equal([second, false]);
      expect((await s.rateLimitOf(ARB, Token.SSTB, false)).available).to.be.gte(parseEther("10"));
      expect(await s.queueOf(ARB, Token.SSTB)).to.deep.equal([first, 2n]);

      const before = await everything(f);
      await expect(s.connect(f.stranger).executeQueued(second))
        .to.be.revertedWithCustomError(s, "BridgeNotQueueHead")
        .withArgs(second, first);
      expect(await everything(f)).to.deep.equal(before);

      // the governance token has its own queue: nothing waits there
      await f.primary.bridge
        .connect(f.alice)
        .send(ETH, f.bob.address, await f.primary.governanceToken.getAddress(), AMOUNT, 0, { value: TRANSPORT_FEE });
      await f.relayer.poll();
      expect(await f.satellite.governanceToken.balanceOf(f.bob.address)).to.equal(AMOUNT);
      expect(await s.queueOf(ARB, Token.Governance)).to.deep.equal([ethers.ZeroHash, 0n]);

      await time.increase(100);
      await expect(s.connect(f.stranger).executeQueued(first)).to.emit(s, "MessageCompleted").withArgs(first);
      expect(await s.queueOf(ARB, Token.SSTB)).to.deep.equal([second, 1n]);
      await expect(s.connect(f.stranger).executeQueued(second)).to.emit(s, "MessageCompleted").withArgs(second);
      expect(await s.queueOf(ARB, Token.SSTB)).to.deep.equal([ethers.ZeroHash, 0n]);
      expect(await f.satellite.sstb.balanceOf(f.bob.address)).to.equal(parseEther("260"));
      // once the queue is empty, a fresh delivery goes straight through again
      await time.increase(10);
      const direct = await sendSstb(f, parseEther("1"));
      await f.relayer.poll();
      expect(await s.messageStatus(direct)).to.equal(Status.Completed);
    });

    it("delivers a message larger than the bucket's capacity in installments of the capacity, each when the bucket is full again", async function () {
      const f = await fresh();
      const s = f.satellite.bridge;
      const limit = await inboundLimit(f, parseEther("40"));
      const id = await sendSstb(f, AMOUNT);
      await f.relayer.poll();
      expect(await s.messageStatus(id)).to.equal(Status.Queued);

      await expect(s.connect(f.stranger).executeQueued(id))
        .to.emit(s, "MessagePartlyDelivered")
        .withArgs(id, limit.capacity, parseEther("60"));
      expect(await f.satellite.sstb.balanceOf(f.bob.address)).to.equal(limit.capacity);
      expect(await s.queuedDeliveryOf(id)).to.deep.equal([
        f.bob.address,
        Token.SSTB,
        parseEther("60"),
        await f.primary.bridge.getAddress(),
      ]);
      expect(await s.messageStatus(id)).to.equal(Status.Queued);
      expect(await s.queueOf(ARB, Token.SSTB)).to.deep.equal([id, 1n]);
      const before = await everything(f);
      await expect(s.connect(f.stranger).executeQueued(id))
        .to.be.revertedWithCustomError(s, "TokenBucketExceeded")
        .withArgs((available: bigint) => available < limit.capacity, limit.capacity);
      expect(await everything(f)).to.deep.equal(before);

      await time.increase(39); // 40 s after the first installment
      await expect(s.connect(f.stranger).executeQueued(id))
        .to.emit(s, "MessagePartlyDelivered")
        .withArgs(id, limit.capacity, parseEther("20"));
      await time.increase(19);
      const tx = s.connect(f.stranger).executeQueued(id);
      await expect(tx).to.emit(s, "MessageCompleted").withArgs(id);
      await expect(tx).to.not.emit(s, "MessagePartlyDelivered");
      expect(await f.satellite.sstb.balanceOf(f.bob.address)).to.equal(AMOUNT);
      expect(await s.messageStatus(id)).to.equal(Status.Completed);
      expect((await s.messageOf(id)).completedAt).to.equal(await now());
      expect(await s.bridgedTotals(Token.SSTB)).to.deep.equal([0n, AMOUNT]);
      expect(await s.queuedDeliveryOf(id)).to.deep.equal([ethers.ZeroAddress, 0n, 0n, ethers.ZeroAddress]);
      await expect(s.executeQueued(id)).to.be.revertedWithCustomError(s, "BridgeMessageNotQueued").withArgs(id);
    });

    it("delivers the whole remainder at once once the bucket is disabled", async function () {
      const f = await fresh();
      const s = f.satellite.bridge;
      await inboundLimit(f, parseEther("40"));
      const id = await sendSstb(f, AMOUNT);
      await f.relayer.poll();
      await s.connect(f.stranger).executeQueued(id);
      await s.setRateLimit(ARB, Token.SSTB, false, NO_LIMIT);
      await expect(s.connect(f.stranger).executeQueued(id)).to.emit(s, "MessageCompleted").withArgs(id);
      expect(await f.satellite.sstb.balanceOf(f.bob.address)).to.equal(AMOUNT);
    });

    it("queues a delivery that arrives while paused behind nothing else, and one that arrives after behind it", async function () {
      const f = await fresh();
      const s = f.satellite.bridge;
      const paused = await sendSstb(f);
      await s.connect(f.guardian).pause();
      await f.relayer.poll();
      await time.increase(GUARDIAN_PAUSE);
      const after = await sendSstb(f, parseEther("1"));
      await f.relayer.poll();
      expect(await s.messageStatus(after)).to.equal(Status.Queued);
      expect(await s.queueOf(ARB, Token.SSTB)).to.deep.equal([paused, 2n]);
      await s.executeQueued(paused);
      await s.executeQueued(after);
      expect(await f.satellite.sstb.balanceOf(f.bob.address)).to.equal(AMOUNT + parseEther("1"));
    });
    it("delivers a message queued by the implementation before the queues once nothing queued since waits", async function () {
      const f = await fresh();
      const s = f.satellite.bridge;
      const bridge = await s.getAddress();
      // BridgeStorage (ERC-7201): `messages` is its field at slot 4, `queued` at slot 5
      const base = BigInt("0xc8944843ede9fe5d59f5591b397430239c1c533c7cefe5680199c95b1ac74800");
      const slotOf = (id: string, field: bigint) =>
        BigInt(ethers.keccak256(coder.encode(["bytes32", "uint256"], [id, base + field])));
      const word = async (slot: bigint) => BigInt(await ethers.provider.getStorage(bridge, slot));
      // the layout, checked on a real delivery: status | createdAt << 8 | completedAt << 48 | chain << 88
      const delivered = await sendSstb(f, parseEther("1"));
      await f.relayer.poll();
      const record = await word(slotOf(delivered, 4n));
      expect(record & 0xffn).to.equal(Status.Completed);
      expect(record >> 88n).to.equal(ARB);

      // a message the previous implementation queued: its record and delivery, in no queue
      const legacy = ethers.id("queued before issue 17");
      const at = await now();
      const write = (slot: bigint, value: bigint) =>
        networkHelpers.setStorageAt(bridge, slot, ethers.toBeHex(value, 32));
      await write(slotOf(legacy, 4n), Status.Queued | (at << 8n) | (ARB << 88n));
      await write(slotOf(legacy, 5n), BigInt(f.bob.address) | (Token.SSTB << 160n));
      await write(slotOf(legacy, 5n) + 1n, AMOUNT);
      expect(await s.messageStatus(legacy)).to.equal(Status.Queued);
      expect(await s.queuedDeliveryOf(legacy)).to.deep.equal([f.bob.address, Token.SSTB, AMOUNT, ethers.ZeroAddress]);

      // while a message queued since waits, it waits behind it
      await s.connect(f.guardian).pause();
      const since = await sendSstb(f, parseEther("1"));
      await f.relayer.poll();
      await s.unpause();
      await expect(s.executeQueued(legacy))
        .to.be.revertedWithCustomError(s, "BridgeNotQueueHead")
        .withArgs(legacy, since);
      await s.executeQueued(since);
      await expect(s.connect(f.stranger).executeQueued(legacy)).to.emit(s, "MessageCompleted").withArgs(legacy);
      expect(await f.satellite.sstb.balanceOf(f.bob.address)).to.equal(AMOUNT + parseEther("2"));
      expect(await s.queueOf(ARB, Token.SSTB)).to.deep.equal([ethers.ZeroHash, 0n]);
      // the queue still works after it
      await time.increase(10);
      const after = await sendSstb(f, parseEther("1"));
      await f.relayer.poll();
      expect(await s.messageStatus(after)).to.equal(Status.Completed);
    });
  });

  describe("routes", function () {
    it("keeps a replaced or closed peer trusted for the transfers it sent until governance forgets it", async function () {
      const f = await fresh();
      const s = f.satellite.bridge;
      const primary = await f.primary.bridge.getAddress();
      // setting the same peer again retires nothing
      await expect(s.setRoutes([routeTo(ARB, primary, LIMITS)])).to.not.emit(s, "FormerPeerUpdated");
      const inFlight = await sendSstb(f);
      await expect(s.setRoutes([routeTo(ARB, f.stranger.address, LIMITS)]))
        .to.emit(s, "FormerPeerUpdated")
        .withArgs(ARB, primary, true);
      expect(await s.isFormerPeer(ARB, primary)).to.equal(true);
      expect(await s.isFormerPeer(ARB, f.stranger.address)).to.equal(false);
      const alsoInFlight = await sendSstb(f);
      await f.relayer.poll();
      expect(await s.messageStatus(inFlight)).to.equal(Status.Completed);
      expect(await s.messageStatus(alsoInFlight)).to.equal(Status.Completed);

      // closing the route retires the replacement as well
      await expect(s.setRoutes([{ ...routeTo(ARB, ethers.ZeroAddress, LIMITS), gasLimit: 0n }]))
        .to.emit(s, "FormerPeerUpdated")
        .withArgs(ARB, f.stranger.address, true);
      await expect(s.forgetPeer(ARB, primary)).to.emit(s, "FormerPeerUpdated").withArgs(ARB, primary, false);
      expect(await s.isFormerPeer(ARB, primary)).to.equal(false);
      const refused = await sendSstb(f);
      const [result] = await f.relayer.poll();
      expect(result.state).to.equal("failure");
      expect(await s.messageStatus(refused)).to.equal(Status.None);
      await expect(s.forgetPeer(ARB, primary))
        .to.be.revertedWithCustomError(s, "BridgeUnknownPeer")
        .withArgs(ARB, primary);
      // forgotten for good (issue 23): it cannot be made the peer again, so what CCIP kept failed
      // stays refused on every retry
      expect(await s.isForgottenPeer(ARB, primary)).to.equal(true);
      const before = await everything(f);
      await expect(s.setRoutes([routeTo(ARB, primary, LIMITS)]))
        .to.be.revertedWithCustomError(s, "BridgePeerForgotten")
        .withArgs(ARB, primary);
      expect(await everything(f)).to.deep.equal(before);
      expect(await s.routeOf(ARB)).to.deep.equal([ethers.ZeroAddress, 0n]);
      await expect(deliverAgain(f, refused)).to.eventually.equal("failure");
      expect(await s.messageStatus(refused)).to.equal(Status.None);
    });
  });

  describe("forgetPeer: queued transfers of a forgotten peer (issue 23)", function () {
    /** BridgeStorage (ERC-7201): `queued` is its field at slot 5 (two words per message). */
    const BRIDGE_STORAGE = BigInt("0xc8944843ede9fe5d59f5591b397430239c1c533c7cefe5680199c95b1ac74800");
    const queuedSlot = (id: string) =>
      BigInt(ethers.keccak256(coder.encode(["bytes32", "uint256"], [id, BRIDGE_STORAGE + 5n])));

    /**
     * Ethereum's route from arbitrum moved from `old` (an account playing the previous arbitrum
     * bridge) to today's bridge, and its inbound sSTB bucket set to 40 tokens refilling 1 a second.
     */
    async function withOldPeer() {
      const f = await fresh();
      const s = f.satellite.bridge;
      const old = f.stranger;
      await s.setRoutes([routeTo(ARB, old.address, LIMITS)]);
      await s.setRoutes([routeTo(ARB, await f.primary.bridge.getAddress(), LIMITS)]);
      const inbound = { enabled: true, capacity: parseEther("40"), rate: parseEther("1") };
      await s.setRateLimit(ARB, Token.SSTB, false, inbound);
      return { f, s, old, inbound };
    }

    /** A transfer of `amount` sSTB to Bob from `sender`, handed to the ethereum bridge by its router. */
    async function arrive(f: BridgeFixture, sender: string, id: string, amount: bigint) {
      const router = await f.satellite.router.getAddress();
      await networkHelpers.impersonateAccount(router);
      await networkHelpers.setBalance(router, parseEther("1"));
      const data = coder.encode(
        ["uint256", "uint8", "address", "address", "uint256"],
        [1n, Token.SSTB, sender, f.bob.address, amount],
      );
      const message = {
        messageId: id,
        sourceChainSelector: ARB,
        sender: coder.encode(["address"], [sender]),
        data,
        destTokenAmounts: [],
      };
      await f.satellite.bridge.connect(await ethers.getSigner(router)).ccipReceive(message);
    }

    it("records the peer that sent a queued transfer", async function () {
      const { f, s, old } = await withOldPeer();
      await arrive(f, old.address, ethers.id("old"), AMOUNT);
      expect(await s.queuedDeliveryOf(ethers.id("old"))).to.deep.equal([
        f.bob.address,
        Token.SSTB,
        AMOUNT,
        old.address,
      ]);
      const id = await sendSstb(f, parseEther("1"));
      await f.relayer.poll();
      expect(await s.queuedDeliveryOf(id)).to.deep.equal([
        f.bob.address,
        Token.SSTB,
        parseEther("1"),
        await f.primary.bridge.getAddress(),
      ]);
    });

    it("refuses a forgotten peer's queued transfer at the head: nothing minted, nothing taken from the bucket, the queue moves on", async function () {
      const { f, s, old } = await withOldPeer();
      const forged = ethers.id("forged");
      await arrive(f, old.address, forged, AMOUNT);
      // one installment while the old peer is still trusted
      await s.executeQueued(forged);
      expect(await f.satellite.sstb.balanceOf(f.bob.address)).to.equal(parseEther("40"));
      const legit = await sendSstb(f, parseEther("10"));
      await f.relayer.poll();
      expect(await s.queueOf(ARB, Token.SSTB)).to.deep.equal([forged, 2n]);

      await s.forgetPeer(ARB, old.address);
      const bucket = String(await s.bucketOf(ARB, Token.SSTB, false));
      const supply = await f.satellite.sstb.totalSupply();
      const tx = s.connect(f.alice).executeQueued(forged);
      await expect(tx).to.emit(s, "MessageRefused").withArgs(forged, ARB, old.address, parseEther("60"));
      await expect(tx).to.not.emit(s, "MessageCompleted");
      expect(await f.satellite.sstb.totalSupply()).to.equal(supply);
      expect(String(await s.bucketOf(ARB, Token.SSTB, false))).to.equal(bucket);
      const record = await s.messageOf(forged);
      expect(record.status).to.equal(Status.Failed);
      expect(record.completedAt).to.equal(await now());
      expect(await s.queuedDeliveryOf(forged)).to.deep.equal([ethers.ZeroAddress, 0n, 0n, ethers.ZeroAddress]);
      expect(await s.queueOf(ARB, Token.SSTB)).to.deep.equal([legit, 1n]);
      await expect(s.executeQueued(forged)).to.be.revertedWithCustomError(s, "BridgeMessageNotQueued").withArgs(forged);
      // the trusted transfer behind it, waiting when the peer was forgotten, is checked and delivered
      await time.increase(10);
      await expect(s.executeQueued(legit)).to.emit(s, "MessageCompleted").withArgs(legit);
      expect(await f.satellite.sstb.balanceOf(f.bob.address)).to.equal(parseEther("50"));
      // the queue is empty again: a fresh delivery completes on arrival
      await time.increase(20);
      const fresh_ = await sendSstb(f, parseEther("1"));
      await f.relayer.poll();
      expect(await s.messageStatus(fresh_)).to.equal(Status.Completed);
    });

    it("refuses on arrival what a forgotten peer sends later", async function () {
      const { f, s, old } = await withOldPeer();
      await s.forgetPeer(ARB, old.address);
      await expect(arrive(f, old.address, ethers.id("later"), AMOUNT))
        .to.be.revertedWithCustomError(s, "BridgeUnknownPeer")
        .withArgs(ARB, old.address);
    });

    it("refuses a transfer queued before issue 23 (its peer not recorded) that waited when a peer was forgotten", async function () {
      const { f, s, old } = await withOldPeer();
      const legit = await sendSstb(f, AMOUNT);
      await f.relayer.poll();
      // the previous implementation recorded no peer: the word after the amount is zero
      await networkHelpers.setStorageAt(await s.getAddress(), queuedSlot(legit) + 1n, ethers.toBeHex(AMOUNT, 32));
      expect((await s.queuedDeliveryOf(legit))[3]).to.equal(ethers.ZeroAddress);
      await s.forgetPeer(ARB, old.address);
      await expect(s.executeQueued(legit))
        .to.emit(s, "MessageRefused")
        .withArgs(legit, ARB, ethers.ZeroAddress, AMOUNT);
    });

    it("refuses a transfer queued before issue 17 (in no queue) once a peer of its chain was forgotten", async function () {
      const { f, s, old } = await withOldPeer();
      const legacy = ethers.id("queued before issue 17");
      const slotOf = (id: string, field: bigint) =>
        BigInt(ethers.keccak256(coder.encode(["bytes32", "uint256"], [id, BRIDGE_STORAGE + field])));
      const write = (slot: bigint, value: bigint) =>
        networkHelpers.setStorageAt(s.target as string, slot, ethers.toBeHex(value, 32));
      await write(slotOf(legacy, 4n), Status.Queued | ((await now()) << 8n) | (ARB << 88n));
      await write(slotOf(legacy, 5n), BigInt(f.bob.address) | (Token.SSTB << 160n));
      await write(slotOf(legacy, 5n) + 1n, parseEther("1"));
      await s.forgetPeer(ARB, old.address);
      await expect(s.executeQueued(legacy))
        .to.emit(s, "MessageRefused")
        .withArgs(legacy, ARB, ethers.ZeroAddress, parseEther("1"));
      expect(await f.satellite.sstb.balanceOf(f.bob.address)).to.equal(0n);
    });

    it("checks only what waited when a peer was forgotten: a later arrival from a trusted peer goes as before", async function () {
      const { f, s, old } = await withOldPeer();
      await s.forgetPeer(ARB, old.address);
      await s.connect(f.guardian).pause();
      const later = await sendSstb(f, parseEther("1"));
      await f.relayer.poll();
      await s.unpause();
      await expect(s.executeQueued(later)).to.emit(s, "MessageCompleted").withArgs(later);
    });
  });

  describe("pause", function () {
    it("queues deliveries that arrive while paused and delivers them after the pause, never stranding burned tokens", async function () {
      const { f, id } = await sent();
      const s = f.satellite.bridge;
      await s.connect(f.guardian).pause();
      await f.relayer.poll();
      expect(await s.messageStatus(id)).to.equal(Status.Queued);
      expect((await s.queryFilter(s.filters.MessageQueued(id)))[0].args.paused).to.equal(true);
      await expect(s.executeQueued(id)).to.be.revertedWithCustomError(s, "EnforcedPause");
      // nothing moved from the bucket while paused
      expect((await s.rateLimitOf(ARB, Token.SSTB, false)).available).to.equal(LIMIT.capacity);

      await time.increase(GUARDIAN_PAUSE);
      await expect(s.connect(f.stranger).executeQueued(id)).to.emit(s, "MessageCompleted").withArgs(id);
      expect(await f.satellite.sstb.balanceOf(f.bob.address)).to.equal(AMOUNT);
    });

    it("lets governance unpause early, and refuses a stranger's pause", async function () {
      const { f, id } = await sent();
      const s = f.satellite.bridge;
      await expect(s.connect(f.stranger).pause())
        .to.be.revertedWithCustomError(s, "AccessControlUnauthorizedAccount")
        .withArgs(f.stranger.address, Roles.GUARDIAN);
      await s.pause(); // governance
      await f.relayer.poll();
      await s.unpause();
      await s.executeQueued(id);
      expect(await s.messageStatus(id)).to.equal(Status.Completed);
    });
  });

  describe("governance", function () {
    it("refuses every privileged function to a stranger", async function () {
      const f = await fresh();
      const b = f.primary.bridge.connect(f.stranger);
      const route = routeTo(ETH, f.stranger.address, LIMITS);
      const before = await everything(f);
      const calls = [
        () => b.setRoutes([route]),
        () => b.setRateLimit(ETH, Token.SSTB, true, NO_LIMIT),
        () => b.setFee(0n),
        () => b.setDiscounts(0n, 0n),
        () => b.setPrices(1n, 1n),
        () => b.setTreasury(f.stranger.address),
        () => b.forgetPeer(ETH, f.stranger.address),
        () => b.unpause(),
        () => b.rearmGuardian(),
        () => b.setGuardianPauseDuration(86_400n),
      ];
      for (const call of calls) {
        await expect(call())
          .to.be.revertedWithCustomError(b, "AccessControlUnauthorizedAccount")
          .withArgs(f.stranger.address, Roles.GOVERNANCE);
      }
      const implementation = await new Bridge__factory(f.stranger).deploy(
        await f.primary.router.getAddress(),
        ARB,
        await f.primary.sstb.getAddress(),
        await f.primary.governanceToken.getAddress(),
        await f.primary.collateral.getAddress(),
        true,
      );
      await expect(b.upgradeToAndCall(await implementation.getAddress(), "0x"))
        .to.be.revertedWithCustomError(b, "AccessControlUnauthorizedAccount")
        .withArgs(f.stranger.address, Roles.UPGRADER);
      expect(await everything(f)).to.deep.equal(before);
    });

    it("keeps fees, discounts, prices and gas limits within their bounds", async function () {
      const f = await fresh();
      const b = f.primary.bridge;
      const param = (name: string) => ethers.encodeBytes32String(name);
      await expect(b.setFee(101n))
        .to.be.revertedWithCustomError(b, "ParameterOutOfBounds")
        .withArgs(param("feeBps"), 101n);
      await expect(b.setDiscounts(5_001n, 0n))
        .to.be.revertedWithCustomError(b, "ParameterOutOfBounds")
        .withArgs(param("serviceDiscountBps"), 5_001n);
      await expect(b.setDiscounts(0n, 5_001n))
        .to.be.revertedWithCustomError(b, "ParameterOutOfBounds")
        .withArgs(param("governanceDiscountBps"), 5_001n);
      await expect(b.setPrices(0n, 1n))
        .to.be.revertedWithCustomError(b, "ParameterOutOfBounds")
        .withArgs(param("sstbPrice"), 0n);
      await expect(b.setPrices(1n, 10n ** 18n + 1n))
        .to.be.revertedWithCustomError(b, "ParameterOutOfBounds")
        .withArgs(param("governancePrice"), 10n ** 18n + 1n);
      await expect(b.setPrices(1n, 0n))
        .to.be.revertedWithCustomError(b, "ParameterOutOfBounds")
        .withArgs(param("governancePrice"), 0n);
      await expect(b.setRoutes([routeTo(ETH, f.stranger.address, LIMITS, 49_999n)]))
        .to.be.revertedWithCustomError(b, "ParameterOutOfBounds")
        .withArgs(param("gasLimit"), 49_999n);
      await expect(b.setRoutes([routeTo(ARB, f.stranger.address, LIMITS)]))
        .to.be.revertedWithCustomError(b, "ParameterOutOfBounds")
        .withArgs(param("chainSelector"), ARB);
      await expect(b.setRoutes([routeTo(0n, f.stranger.address, LIMITS)]))
        .to.be.revertedWithCustomError(b, "ParameterOutOfBounds")
        .withArgs(param("chainSelector"), 0n);
      await expect(b.setTreasury(ethers.ZeroAddress)).to.be.revertedWithCustomError(b, "ZeroAddress");

      await expect(b.setFee(100n)).to.emit(b, "ParameterUpdated").withArgs(param("feeBps"), 10n, 100n);
      await expect(b.setDiscounts(5_000n, 5_000n)).to.emit(b, "ParameterUpdated");
      await expect(b.setTreasury(f.bob.address))
        .to.emit(b, "TreasuryUpdated")
        .withArgs(f.treasury.address, f.bob.address);
      // closing a route: sends refused (deliveries from its last peer go on: see "routes")
      await expect(b.setRoutes([{ ...routeTo(ETH, ethers.ZeroAddress, LIMITS), gasLimit: 0n }]))
        .to.emit(b, "RouteUpdated")
        .withArgs(ETH, ethers.ZeroAddress, 0n);
      await expect(
        b.connect(f.alice).send(ETH, f.bob.address, await f.primary.sstb.getAddress(), 1n, 0, { value: TRANSPORT_FEE }),
      ).to.be.revertedWithCustomError(b, "BridgeUnsupportedChain");
      await expect(b.quoteFee(ETH, await f.primary.sstb.getAddress(), 1n))
        .to.be.revertedWithCustomError(b, "BridgeUnsupportedChain")
        .withArgs(ETH);
    });

    it("passes the upgrades plugin's upgrade-safety validation (namespaced storage, immutables allowed)", async function () {
      const f = await fresh();
      const api = await upgrades(hre, connection);
      const factory = await ethers.getContractFactory("contracts/bridge/Bridge.sol:Bridge");
      const constructorArgs = [
        await f.primary.router.getAddress(),
        ARB,
        await f.primary.sstb.getAddress(),
        await f.primary.governanceToken.getAddress(),
        await f.primary.collateral.getAddress(),
        true,
      ];
      const opts = { kind: "uups", constructorArgs } as Parameters<typeof api.validateImplementation>[1];
      await api.validateImplementation(factory, opts);
      await api.validateUpgrade(factory, factory, opts);
    });

    it("refuses an implementation without a chain selector", async function () {
      const f = await fresh();
      const args = [
        await f.primary.router.getAddress(),
        0n,
        await f.primary.sstb.getAddress(),
        await f.primary.governanceToken.getAddress(),
        await f.primary.collateral.getAddress(),
        true,
      ] as const;
      await expect(new Bridge__factory(f.deployer).deploy(...args))
        .to.be.revertedWithCustomError(f.primary.bridge, "ParameterOutOfBounds")
        .withArgs(ethers.encodeBytes32String("chainSelector"), 0n);
    });
  });
});

/** The payload of a transfer message, as the bridge encodes it. */
function transferData(token: bigint, sender: string, recipient: string, amount: bigint): string {
  return coder.encode(["uint256", "uint8", "address", "address", "uint256"], [1n, token, sender, recipient, amount]);
}

/** A CCIP message carrying a transfer of AMOUNT to Bob with the given id, from `sender` on arbitrum. */
async function forgedMessage(f: BridgeFixture, messageId: string, sender: string) {
  return {
    messageId,
    sourceChainSelector: ARB,
    sender: coder.encode(["address"], [sender]),
    data: transferData(Token.SSTB, f.alice.address, f.bob.address, AMOUNT),
    destTokenAmounts: [],
  };
}
