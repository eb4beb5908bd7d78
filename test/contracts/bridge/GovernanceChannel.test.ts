import { expect } from "chai";
import hre, { network } from "hardhat";
import { upgrades } from "@openzeppelin/hardhat-upgrades";
import { AbiCoder, parseEther } from "ethers";

import { Roles } from "@compute-capacity/sdk";
import { GovernanceChannel__factory } from "../../../typechain-types/index.js";
import {
  ARB,
  ChannelStatus,
  ETH,
  GOVERNANCE_MESSAGE_TTL,
  GovernanceFailure,
  TRANSPORT_FEE,
  bridgeCall,
  deliver,
  deployBridgePair,
  deployGovernedBridgePair,
  governancePayload,
  proposeToSatellite,
  sentMessageId,
  withRelayer,
} from "../../helpers/bridge.js";
import type { BridgeFixture, BridgePair, GovernanceCall } from "../../helpers/bridge.js";

/**
 * The governance channel (issue 23: cross-chain governance out of the bridge, a CCIP application of
 * its own): the arbitrum timelock's calls reach a satellite's executor only in the order the
 * timelock numbered them, before their deadline, from the satellite's arbitrum peer, and are
 * consumed whatever they do. The bridge no longer takes governance messages.
 */

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture, time } = networkHelpers;
const coder = AbiCoder.defaultAbiCoder();

async function pair(): Promise<BridgePair> {
  return deployBridgePair(connection);
}

async function governedPair(): Promise<BridgePair> {
  return deployGovernedBridgePair(connection);
}

async function now(): Promise<bigint> {
  return BigInt((await ethers.provider.getBlock("latest"))!.timestamp);
}

/** The governed pair (timelock -> ethereum executor), with a relayer of this test's own. */
async function governed() {
  const f = withRelayer(await loadFixture(governedPair));
  const propose = (calls: GovernanceCall[], gasLimit?: bigint) => proposeToSatellite(connection, f, calls, gasLimit);
  return { f, propose, timelock: await f.primary.timelock.getAddress() };
}

/** The ethereum router, impersonated, to hand the ethereum channel crafted governance messages. */
async function ethereumRouter(f: BridgeFixture) {
  const router = await f.satellite.router.getAddress();
  await networkHelpers.impersonateAccount(router);
  await networkHelpers.setBalance(router, parseEther("1"));
  return ethers.getSigner(router);
}

/** A governance message from `sender` on arbitrum, as CCIP hands it to an ethereum receiver. */
function governanceMessage(id: string, sender: string, data: string) {
  return {
    messageId: id,
    sourceChainSelector: ARB,
    sender: coder.encode(["address"], [sender]),
    data,
    destTokenAmounts: [],
  };
}

describe("GovernanceChannel", function () {
  describe("initialize", function () {
    it("starts with the deployment's router, selector, peers and executor, and refuses a second call", async function () {
      const f = withRelayer(await loadFixture(pair));
      const c = f.primary.governanceChannel;
      const s = f.satellite.governanceChannel;
      expect(await c.getRouter()).to.equal(await f.primary.router.getAddress());
      expect(await c.localChainSelector()).to.equal(ARB);
      expect(await s.localChainSelector()).to.equal(ETH);
      // arbitrum's sends to ethereum's; ethereum's accepts only arbitrum's
      expect(await c.peerOf(ETH)).to.equal(await s.getAddress());
      expect(await s.peerOf(ARB)).to.equal(await c.getAddress());
      expect(await c.executor()).to.equal(ethers.ZeroAddress);
      expect(await s.executor()).to.equal(await f.satellite.executor.getAddress());
      expect(await f.satellite.executor.channel()).to.equal(await s.getAddress());
      expect(await c.initializedVersion()).to.equal(1n);
      expect(await c.latestInitializerVersion()).to.equal(1n);
      await expect(c.initialize(f.deployer.address)).to.be.revertedWithCustomError(c, "InvalidInitialization");
    });

    it("declares the CCIP receiver interface and AccessControl through ERC-165", async function () {
      const f = await loadFixture(pair);
      const c = f.primary.governanceChannel;
      expect(await c.supportsInterface("0x85572ffb")).to.equal(true); // IAny2EVMMessageReceiver
      expect(await c.supportsInterface("0x7965db0b")).to.equal(true); // IAccessControl
      expect(await c.supportsInterface("0xffffffff")).to.equal(false);
    });

    it("refuses a zero router or chain selector at deployment", async function () {
      const f = await loadFixture(pair);
      const factory = new GovernanceChannel__factory(f.deployer);
      const router = await f.primary.router.getAddress();
      await expect(factory.deploy(ethers.ZeroAddress, ARB)).to.be.revertedWithCustomError(factory, "ZeroAddress");
      await expect(factory.deploy(router, 0n))
        .to.be.revertedWithCustomError(factory, "ParameterOutOfBounds")
        .withArgs(ethers.encodeBytes32String("chainSelector"), 0n);
    });

    it("passes the upgrades plugin's upgrade-safety validation", async function () {
      const f = await loadFixture(pair);
      const api = await upgrades(hre, connection);
      const factory = await ethers.getContractFactory("GovernanceChannel");
      const opts = { kind: "uups", constructorArgs: [await f.primary.router.getAddress(), ARB] } as Parameters<
        typeof api.validateImplementation
      >[1];
      await api.validateImplementation(factory, opts);
    });
  });

  describe("sendGovernanceMessage and delivery", function () {
    it("runs the primary timelock's calls on the satellite through the executor, numbered and with a deadline", async function () {
      const { f, timelock } = await governed();
      const call = bridgeCall(f, "setFee", [25n]);
      await networkHelpers.impersonateAccount(timelock);
      const c = f.primary.governanceChannel.connect(await ethers.getSigner(timelock));
      const tx = c.sendGovernanceMessage(ETH, [call], 300_000n, { value: TRANSPORT_FEE });
      const id = sentMessageId(f, (await (await tx).wait())!);
      await expect(tx)
        .to.emit(c, "GovernanceMessageSent")
        .withArgs(
          id,
          ETH,
          1n,
          (await now()) + GOVERNANCE_MESSAGE_TTL,
          ethers.keccak256(coder.encode(["tuple(address,uint256,bytes)[]"], [[[call.target, 0n, call.data]]])),
        );
      expect(await c.messageStatus(id)).to.equal(ChannelStatus.Sent);
      expect((await c.governanceSequences(ETH, ethers.ZeroAddress)).lastSent).to.equal(1n);
      const [result] = await f.relayer.poll();
      expect(result.state).to.equal("success");
      const receipt = await ethers.provider.getTransactionReceipt(result.transactionHash);
      const s = f.satellite.governanceChannel;
      const executed = receipt!.logs.filter((l) => l.address === s.target).map((l) => s.interface.parseLog(l)!);
      expect(executed.map((e) => e.name)).to.deep.equal(["GovernanceMessageExecuted"]);
      expect([...executed[0].args]).to.deep.equal([id, ARB, timelock]);
      const byExecutor = receipt!.logs.filter((l) => l.address === f.satellite.executor.target);
      expect(f.satellite.executor.interface.parseLog(byExecutor[0])!.args).to.deep.equal([timelock, 1n]);
      expect(await f.satellite.bridge.feeBps()).to.equal(25n);
      expect(await s.messageStatus(id)).to.equal(ChannelStatus.Executed);
      const primary = await f.primary.governanceChannel.getAddress();
      expect((await s.governanceSequences(ARB, primary)).lastExecuted).to.equal(1n);
    });

    it("quotes CCIP's transport fee of a message, and refuses a chain without a peer", async function () {
      const { f } = await governed();
      const c = f.primary.governanceChannel;
      expect(await c.quoteTransportFee(ETH, [bridgeCall(f, "setFee", [25n])], 300_000n)).to.equal(TRANSPORT_FEE);
      await expect(c.quoteTransportFee(ARB, [], 300_000n))
        .to.be.revertedWithCustomError(c, "GovernanceChannelUnsupportedChain")
        .withArgs(ARB);
    });

    it("numbers the messages to each chain from 1 and runs them when they arrive in order", async function () {
      const { f, propose } = await governed();
      const ids = [];
      for (const fee of [11n, 12n, 13n]) ids.push(await propose([bridgeCall(f, "setFee", [fee])]));
      const c = f.primary.governanceChannel;
      expect((await c.governanceSequences(ETH, ethers.ZeroAddress)).lastSent).to.equal(3n);
      expect((await c.governanceSequences(ARB, ethers.ZeroAddress)).lastSent).to.equal(0n);
      for (const [i, id] of ids.entries()) {
        expect(await deliver(f, id)).to.equal("success");
        expect(await f.satellite.bridge.feeBps()).to.equal(11n + BigInt(i));
        expect(await f.satellite.governanceChannel.messageStatus(id)).to.equal(ChannelStatus.Executed);
      }
    });

    it("consumes a message older than one already run, without running it, and never runs it again", async function () {
      const { f, propose } = await governed();
      const first = await propose([bridgeCall(f, "setFee", [100n])]);
      const second = await propose([bridgeCall(f, "setFee", [20n])]);
      await deliver(f, second);
      const s = f.satellite.governanceChannel;
      await expect(deliver(f, first)).to.not.be.rejected;
      const [failed] = await s.queryFilter(s.filters.GovernanceMessageFailed(first));
      expect([...failed.args]).to.deep.equal([first, ARB, 1n, GovernanceFailure.Stale, "0x"]);
      expect(await s.messageStatus(first)).to.equal(ChannelStatus.Failed);
      expect(await f.satellite.bridge.feeBps()).to.equal(20n);
      // CCIP will not execute it again, and the channel would refuse it if a router did
      await expect(deliver(f, first, 400_000n)).to.be.revertedWithCustomError(f.satellite.router, "AlreadyExecuted");
      const asRouter = await ethereumRouter(f);
      const request = (
        await f.primary.router.queryFilter(f.primary.router.filters.CCIPSendRequested(undefined, undefined, first))
      )[0];
      await expect(s.connect(asRouter).ccipReceive(governanceMessage(first, request.args.sender, request.args.data)))
        .to.be.revertedWithCustomError(s, "GovernanceChannelMessageAlreadyProcessed")
        .withArgs(first);
    });

    it("runs a message until its deadline, and consumes it without running it after", async function () {
      const { f, timelock } = await governed();
      const asRouter = await ethereumRouter(f);
      const s = f.satellite.governanceChannel.connect(asRouter);
      const primary = await f.primary.governanceChannel.getAddress();
      const deadline = (await now()) + 100n;
      const call = bridgeCall(f, "setFee", [30n]);
      await time.setNextBlockTimestamp(deadline);
      await s.ccipReceive(
        governanceMessage(ethers.id("on time"), primary, governancePayload(timelock, 1n, deadline, [call])),
      );
      expect(await f.satellite.bridge.feeBps()).to.equal(30n);
      const late = bridgeCall(f, "setFee", [40n]);
      const expired = s.ccipReceive(
        governanceMessage(ethers.id("late"), primary, governancePayload(timelock, 2n, deadline, [late])),
      );
      await expect(expired)
        .to.emit(s, "GovernanceMessageFailed")
        .withArgs(ethers.id("late"), ARB, 2n, GovernanceFailure.Expired, "0x");
      expect(await f.satellite.bridge.feeBps()).to.equal(30n);
      expect(await s.messageStatus(ethers.id("late"))).to.equal(ChannelStatus.Failed);
      // an expired message does not move the sequence: a later one on time still runs
      expect((await s.governanceSequences(ARB, primary)).lastExecuted).to.equal(1n);
    });

    it("consumes a message whose call reverts, undoing all its calls and recording the revert data", async function () {
      const { f, propose } = await governed();
      const s = f.satellite.governanceChannel;
      const id = await propose([bridgeCall(f, "setFee", [25n]), bridgeCall(f, "setFee", [101n])]);
      expect(await deliver(f, id)).to.equal("success");
      const param = ethers.encodeBytes32String("feeBps");
      const [failed] = await s.queryFilter(s.filters.GovernanceMessageFailed(id));
      expect([...failed.args]).to.deep.equal([
        id,
        ARB,
        1n,
        GovernanceFailure.Reverted,
        f.satellite.bridge.interface.encodeErrorResult("ParameterOutOfBounds", [param, 101n]),
      ]);
      expect(await f.satellite.bridge.feeBps()).to.equal(10n);
      expect(await s.messageStatus(id)).to.equal(ChannelStatus.Failed);
      expect(await s.queryFilter(s.filters.GovernanceMessageExecuted(id))).to.deep.equal([]);
      // the sequence moved on: the next message runs, the failed one is never replayed
      await deliver(f, await propose([bridgeCall(f, "setFee", [25n])]));
      expect(await f.satellite.bridge.feeBps()).to.equal(25n);
      const primary = await f.primary.governanceChannel.getAddress();
      expect((await s.governanceSequences(ARB, primary)).lastExecuted).to.equal(2n);
    });

    it("consumes a message whose calls run out of gas, keeping back the gas to record it", async function () {
      const { f, propose } = await governed();
      const s = f.satellite.governanceChannel;
      const grants = Array.from({ length: 20 }, (_, i) =>
        bridgeCall(f, "grantRole", [Roles.GUARDIAN, ethers.zeroPadValue(ethers.toBeHex(i + 1), 20)]),
      );
      const id = await propose(grants, 200_000n);
      expect(await deliver(f, id)).to.equal("success");
      const [failed] = await s.queryFilter(s.filters.GovernanceMessageFailed(id));
      expect(failed.args.reason).to.equal(GovernanceFailure.Reverted);
      // the call that ran out of gas reverted without data: the executor names its index with the
      // 1/64 of the gas it kept (under coverage's instrumentation that may not be enough: no data)
      if (failed.args.returnData !== "0x") {
        const error = f.satellite.executor.interface.parseError(failed.args.returnData)!;
        expect(error.name).to.equal("ExecutorCallFailed");
        expect(error.args[0]).to.be.greaterThan(0n).and.lessThan(20n);
      }
      expect(await f.satellite.bridge.hasRole(Roles.GUARDIAN, ethers.zeroPadValue("0x01", 20))).to.equal(false);
      expect(await s.messageStatus(id)).to.equal(ChannelStatus.Failed);
    });

    it("reverts a delivery whose gas cannot cover the reserve, recording nothing, so CCIP may run it again in order and in time", async function () {
      const { f, timelock } = await governed();
      const asRouter = await ethereumRouter(f);
      const s = f.satellite.governanceChannel.connect(asRouter);
      const primary = await f.primary.governanceChannel.getAddress();
      const message = governanceMessage(
        ethers.id("short"),
        primary,
        governancePayload(timelock, 1n, (await now()) + 1_000n, [bridgeCall(f, "setFee", [25n])]),
      );
      const data = s.interface.encodeFunctionData("ccipReceive", [message]);
      const reserve = s.interface.getError("GovernanceChannelInsufficientGas")!.selector;
      const reverts: string[] = [];
      for (let gas = 40_000; gas <= 300_000; gas += 2_000) {
        const outcome = await ethers.provider
          .call({ from: asRouter.address, to: s.target, data, gasLimit: gas })
          .then(() => "ok")
          .catch((e: { data?: string }) => (e.data?.startsWith(reserve) ? "reserve" : "other"));
        reverts.push(outcome);
      }
      // too little gas for the bookkeeping, then too little for the reserve, then enough
      expect(reverts).to.include("reserve");
      expect(reverts.indexOf("reserve")).to.be.lessThan(reverts.indexOf("ok"));
      const decoded = await ethers.provider
        .call({ from: asRouter.address, to: s.target, data, gasLimit: 40_000 + 2_000 * reverts.indexOf("reserve") })
        .catch((e: { data: string }) => s.interface.parseError(e.data));
      expect(decoded).to.have.property("name", "GovernanceChannelInsufficientGas");
      expect((decoded as { args: bigint[] }).args[1]).to.equal(20_000n);
      expect(await s.messageStatus(ethers.id("short"))).to.equal(ChannelStatus.None);
    });

    it("consumes a message from anyone but the timelock at the executor (its sequence is spent), and refuses strangers at the channel", async function () {
      const { f, propose } = await governed();
      const call = bridgeCall(f, "setFee", [25n]);
      const c = f.primary.governanceChannel;
      const before = await c.governanceSequences(ETH, ethers.ZeroAddress);
      await expect(c.connect(f.stranger).sendGovernanceMessage(ETH, [call], 300_000n, { value: TRANSPORT_FEE }))
        .to.be.revertedWithCustomError(c, "AccessControlUnauthorizedAccount")
        .withArgs(f.stranger.address, Roles.GOVERNANCE);
      expect(await c.governanceSequences(ETH, ethers.ZeroAddress)).to.deep.equal(before);
      // the deployer holds governance on the arbitrum channel but is not the timelock
      const tx = await c.sendGovernanceMessage(ETH, [call], 300_000n, { value: TRANSPORT_FEE });
      const id = sentMessageId(f, (await tx.wait())!);
      expect(await deliver(f, id)).to.equal("success");
      const s = f.satellite.governanceChannel;
      const [failed] = await s.queryFilter(s.filters.GovernanceMessageFailed(id));
      expect(failed.args.returnData).to.equal(
        f.satellite.executor.interface.encodeErrorResult("ExecutorUnauthorizedOrigin", [ARB, f.deployer.address]),
      );
      expect(await f.satellite.bridge.feeBps()).to.equal(10n);
      await deliver(f, await propose([call]));
      expect(await f.satellite.bridge.feeBps()).to.equal(25n);
      await expect(f.satellite.executor.executeFromPrimary(ARB, await f.primary.timelock.getAddress(), [call]))
        .to.be.revertedWithCustomError(f.satellite.executor, "ExecutorOnlyChannel")
        .withArgs(f.deployer.address);
    });

    it("takes governance only from its arbitrum peer, counting sequences per sending channel", async function () {
      const { f, propose, timelock } = await governed();
      const s = f.satellite.governanceChannel;
      const primary = await f.primary.governanceChannel.getAddress();
      await deliver(f, await propose([bridgeCall(f, "setFee", [11n])]));
      await deliver(f, await propose([bridgeCall(f, "setFee", [12n])]));
      // a replacement arbitrum channel (played by an account): the old one's governance is refused
      const replacement = f.stranger.address;
      const pending = await propose([bridgeCall(f, "setFee", [99n])]);
      await s.setPeers([{ chainSelector: ARB, peer: replacement }]);
      expect(await deliver(f, pending)).to.equal("failure");
      const asRouter = await ethereumRouter(f);
      const forged = governanceMessage(
        ethers.id("old"),
        primary,
        governancePayload(timelock, 3n, (await now()) + 1_000n, []),
      );
      await expect(s.connect(asRouter).ccipReceive(forged))
        .to.be.revertedWithCustomError(s, "GovernanceChannelUnknownPeer")
        .withArgs(ARB, primary);
      // the replacement numbers from 1 again
      const first = governanceMessage(
        ethers.id("new"),
        replacement,
        governancePayload(timelock, 1n, (await now()) + 1_000n, [bridgeCall(f, "setFee", [13n])]),
      );
      await expect(s.connect(asRouter).ccipReceive(first)).to.emit(s, "GovernanceMessageExecuted");
      expect(await f.satellite.bridge.feeBps()).to.equal(13n);
      expect(await s.governanceSequences(ARB, replacement)).to.deep.equal([0n, 1n]);
      expect(await s.governanceSequences(ARB, primary)).to.deep.equal([0n, 2n]);
      // a chain without a peer, and a caller other than the router, are refused too
      await expect(s.connect(asRouter).ccipReceive({ ...first, messageId: ethers.id("x"), sourceChainSelector: 7n }))
        .to.be.revertedWithCustomError(s, "GovernanceChannelUnknownPeer")
        .withArgs(7n, replacement);
      await expect(s.connect(f.stranger).ccipReceive(first))
        .to.be.revertedWithCustomError(s, "GovernanceChannelInvalidRouter")
        .withArgs(f.stranger.address);
    });

    it("refuses governance messages on the primary chain, which has no executor, and gas limits out of bounds", async function () {
      const f = withRelayer(await loadFixture(pair));
      const c = f.satellite.governanceChannel;
      await c.sendGovernanceMessage(ARB, [], 100_000n, { value: TRANSPORT_FEE });
      const [result] = await f.relayer.poll();
      expect(result.state).to.equal("failure");
      for (const gasLimit of [49_999n, 3_000_001n]) {
        await expect(c.sendGovernanceMessage(ARB, [], gasLimit, { value: TRANSPORT_FEE }))
          .to.be.revertedWithCustomError(c, "ParameterOutOfBounds")
          .withArgs(ethers.encodeBytes32String("gasLimit"), gasLimit);
      }
      await expect(c.sendGovernanceMessage(7n, [], 100_000n, { value: TRANSPORT_FEE }))
        .to.be.revertedWithCustomError(c, "GovernanceChannelUnsupportedChain")
        .withArgs(7n);
    });

    it("no longer travels over the bridge: a governance payload delivered to the bridge is refused", async function () {
      const { f, timelock } = await governed();
      const asRouter = await ethereumRouter(f);
      const bridge = f.satellite.bridge.connect(asRouter);
      // the bridge's governance messages (before issue 23) started with kind 2
      const payload = coder.encode(
        ["uint256", "address", "uint64", "uint256", "tuple(address,uint256,bytes)[]"],
        [2n, timelock, 1n, (await now()) + 1_000n, []],
      );
      await expect(
        bridge.ccipReceive(governanceMessage(ethers.id("kind 2"), await f.primary.bridge.getAddress(), payload)),
      )
        .to.be.revertedWithCustomError(bridge, "BridgeUnknownMessageKind")
        .withArgs(2n);
    });
  });

  describe("governance", function () {
    it("sets peers and the executor, announcing each, and refuses chains out of bounds", async function () {
      const f = await loadFixture(pair);
      const c = f.primary.governanceChannel;
      await expect(c.setPeers([{ chainSelector: 7n, peer: f.bob.address }]))
        .to.emit(c, "PeerUpdated")
        .withArgs(7n, f.bob.address);
      expect(await c.peerOf(7n)).to.equal(f.bob.address);
      await expect(c.setPeers([{ chainSelector: 7n, peer: ethers.ZeroAddress }]))
        .to.emit(c, "PeerUpdated")
        .withArgs(7n, ethers.ZeroAddress);
      for (const chainSelector of [0n, ARB]) {
        await expect(c.setPeers([{ chainSelector, peer: f.bob.address }]))
          .to.be.revertedWithCustomError(c, "ParameterOutOfBounds")
          .withArgs(ethers.encodeBytes32String("chainSelector"), chainSelector);
      }
      await expect(c.setExecutor(f.bob.address))
        .to.emit(c, "ExecutorUpdated")
        .withArgs(ethers.ZeroAddress, f.bob.address);
      expect(await c.executor()).to.equal(f.bob.address);
    });

    it("refuses every privileged function to a stranger, changing nothing", async function () {
      const f = await loadFixture(pair);
      const c = f.satellite.governanceChannel.connect(f.stranger);
      const before = [await c.peerOf(ARB), await c.executor()];
      const calls = [
        () => c.setPeers([{ chainSelector: ARB, peer: f.stranger.address }]),
        () => c.setExecutor(f.stranger.address),
        () => c.sendGovernanceMessage(ARB, [], 100_000n, { value: TRANSPORT_FEE }),
      ];
      for (const call of calls) {
        await expect(call())
          .to.be.revertedWithCustomError(c, "AccessControlUnauthorizedAccount")
          .withArgs(f.stranger.address, Roles.GOVERNANCE);
      }
      const implementation = await new GovernanceChannel__factory(f.stranger).deploy(
        await f.satellite.router.getAddress(),
        ETH,
      );
      await expect(c.upgradeToAndCall(await implementation.getAddress(), "0x"))
        .to.be.revertedWithCustomError(c, "AccessControlUnauthorizedAccount")
        .withArgs(f.stranger.address, Roles.UPGRADER);
      expect([await c.peerOf(ARB), await c.executor()]).to.deep.equal(before);
    });
  });
});
