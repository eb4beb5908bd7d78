import { expect } from "chai";
import { network } from "hardhat";
import { parseEther } from "ethers";

import { Roles, routeTo } from "@compute-capacity/sdk";
import { checkRouteLimits, readParameters } from "../../../deploy/deploy-environment.js";
import { DeploymentConfigError, chainsOf } from "../../../deploy/environments.js";
import {
  ARB,
  ChannelStatus,
  ETH,
  GOVERNANCE_MESSAGE_TTL,
  LIMITS,
  Status,
  TRANSPORT_FEE,
  Token,
  bridgeCall,
  deliver,
  deployBridgePair,
  deployGovernedBridgePair,
  proposeToSatellite,
  sentMessageId,
  withRelayer,
} from "../../helpers/bridge.js";
import type { BridgeFixture, BridgePair, GovernanceCall } from "../../helpers/bridge.js";

/**
 * Properties 2 and 3 of issue 17, each named after the promise, with the scenario the external
 * review used to break it, driven through the real contracts and the devnet CCIP routers (a
 * message can be executed in any order and again after a failure, as CCIP allows). Each test failed
 * on the code before the fix.
 */

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture, time } = networkHelpers;

const AMOUNT = parseEther("100");

async function pair(): Promise<BridgePair> {
  return deployBridgePair(connection);
}

async function governedPair(): Promise<BridgePair> {
  return deployGovernedBridgePair(connection);
}

async function now(): Promise<bigint> {
  return BigInt((await ethers.provider.getBlock("latest"))!.timestamp);
}

/** The governed pair, and functions that build calls on the ethereum bridge and send them as the timelock. */
async function governed() {
  const f = withRelayer(await loadFixture(governedPair));
  const call = (fn: string, args: unknown[]) => bridgeCall(f, fn, args);
  const propose = (calls: GovernanceCall[], gasLimit?: bigint) => proposeToSatellite(connection, f, calls, gasLimit);
  return { f, call, propose };
}

/** Sends `amount` of sSTB from arbitrum to Bob on ethereum; returns the message id. */
async function sendSstb(f: BridgeFixture, amount = AMOUNT): Promise<string> {
  const tx = await f.primary.bridge
    .connect(f.alice)
    .send(ETH, f.bob.address, await f.primary.sstb.getAddress(), amount, 0, { value: TRANSPORT_FEE });
  return sentMessageId(f, (await tx.wait())!);
}

describe("Bridge promises (issue 17)", function () {
  // since issue 23 governance messages travel on the governance channel, not the bridge: the
  // promise holds there
  describe("2. A cross-chain governance message takes effect only in the order the timelock sent it, and never after a later one", function () {
    it("a message delivered after its successor does not take effect: a fee lowered to 20 bps does not go back to 100", async function () {
      const { f, call, propose } = await governed();
      const first = await propose([call("setFee", [100n])]);
      const second = await propose([call("setFee", [20n])]);
      // CCIP executes out of order: the second arrives first
      expect(await deliver(f, second)).to.equal("success");
      expect(await f.satellite.bridge.feeBps()).to.equal(20n);
      expect(await deliver(f, first)).to.equal("success");
      expect(await f.satellite.bridge.feeBps()).to.equal(20n);
      expect(await f.satellite.governanceChannel.messageStatus(first)).to.equal(ChannelStatus.Failed);
    });

    it("a delivery that failed is never run after its successor: a revoked guardian role does not come back", async function () {
      const { f, call, propose } = await governed();
      const x = f.stranger.address;
      const grant = call("grantRole", [Roles.GUARDIAN, x]);
      // 50,000 gas is too little: the delivery reverts and CCIP keeps it executable
      const failed = await propose([grant], 50_000n);
      expect(await deliver(f, failed)).to.equal("failure");
      expect(await f.satellite.bridge.hasRole(Roles.GUARDIAN, x)).to.equal(false);
      // governance re-proposes it, and later revokes the role
      await deliver(f, await propose([grant]));
      expect(await f.satellite.bridge.hasRole(Roles.GUARDIAN, x)).to.equal(true);
      await deliver(f, await propose([call("revokeRole", [Roles.GUARDIAN, x])]));
      expect(await f.satellite.bridge.hasRole(Roles.GUARDIAN, x)).to.equal(false);
      // anyone runs CCIP's manual execution of the failed message, with enough gas this time
      expect(await deliver(f, failed, 400_000n)).to.equal("success");
      expect(await f.satellite.bridge.hasRole(Roles.GUARDIAN, x)).to.equal(false);
      expect(await f.satellite.governanceChannel.messageStatus(failed)).to.equal(ChannelStatus.Failed);
    });

    it("a failed proposal is consumed, not replayed: an unpause that reverted does not lift a later pause", async function () {
      const { f, call, propose } = await governed();
      const unpause = await propose([call("unpause", [])]);
      // not paused at that moment: the call reverts with ExpectedPause
      await deliver(f, unpause);
      await f.satellite.bridge.connect(f.guardian).pause();
      // anyone tries the failed message again
      await deliver(f, unpause, 400_000n).catch(() => "refused");
      expect(await f.satellite.bridge.paused()).to.equal(true);
      expect(await f.satellite.governanceChannel.messageStatus(unpause)).to.equal(ChannelStatus.Failed);
    });

    it("a message delivered after its deadline does not take effect", async function () {
      const { f, call, propose } = await governed();
      const late = await propose([call("setFee", [20n])]);
      await time.increase(GOVERNANCE_MESSAGE_TTL + 1n);
      await deliver(f, late);
      expect(await f.satellite.bridge.feeBps()).to.equal(10n);
      expect(await f.satellite.governanceChannel.messageStatus(late)).to.equal(ChannelStatus.Failed);
    });
  });

  describe("3. Every queued bridge delivery becomes executable by anyone within a bounded time, without governance", function () {
    it("a delivery larger than the destination's inbound capacity completes within (amount + capacity) / rate", async function () {
      const f = withRelayer(await loadFixture(pair));
      const s = f.satellite.bridge;
      const limit = { enabled: true, capacity: parseEther("40"), rate: parseEther("1") };
      await s.setRateLimit(ARB, Token.SSTB, false, limit);
      const id = await sendSstb(f, AMOUNT); // 100 > 40: the source's burn is done
      await f.relayer.poll();
      expect(await s.messageStatus(id)).to.equal(Status.Queued);

      const bound = (AMOUNT + limit.capacity) / limit.rate; // seconds
      const start = await now();
      while ((await now()) - start < bound && (await s.messageStatus(id)) !== Status.Completed) {
        await s
          .connect(f.stranger)
          .executeQueued(id)
          .catch(() => undefined);
        await time.increase(10);
      }
      expect(await s.messageStatus(id)).to.equal(Status.Completed);
      expect(await f.satellite.sstb.balanceOf(f.bob.address)).to.equal(AMOUNT);
    });

    it("queued deliveries go first in, first out: a stream of small fresh transfers does not starve a queued one", async function () {
      const f = withRelayer(await loadFixture(pair));
      const s = f.satellite.bridge;
      const limit = { enabled: true, capacity: parseEther("100"), rate: parseEther("1") };
      await s.setRateLimit(ARB, Token.SSTB, false, limit);
      await sendSstb(f, parseEther("100"));
      await f.relayer.poll(); // delivered at once: the bucket is empty now
      const big = await sendSstb(f, parseEther("90"));
      await f.relayer.poll();
      expect(await s.messageStatus(big)).to.equal(Status.Queued);
      const queuedAt = (await s.messageOf(big)).createdAt;

      // every 11 s or so a 12-token transfer arrives, more than the bucket refills in that time
      const stream: string[] = [];
      const bound = (parseEther("90") + limit.capacity) / limit.rate;
      while ((await now()) - queuedAt < bound + 60n) {
        await time.increase(9);
        stream.push(await sendSstb(f, parseEther("12")));
        await f.relayer.poll();
        if ((await s.messageStatus(big)) === Status.Queued) {
          await s
            .connect(f.stranger)
            .executeQueued(big)
            .catch(() => undefined);
        }
      }
      expect(await s.messageStatus(big)).to.equal(Status.Completed);
      expect((await s.messageOf(big)).completedAt - queuedAt).to.be.lte(bound);
      // nothing that arrived after it was delivered before it
      for (const id of stream) {
        const record = await s.messageOf(id);
        if (record.status === Status.Completed) {
          expect(record.completedAt).to.be.gte((await s.messageOf(big)).completedAt);
        }
      }
    });

    it("a message in flight when the destination closes the route or changes its peer is still delivered", async function () {
      const f = withRelayer(await loadFixture(pair));
      const s = f.satellite.bridge;
      const primary = await f.primary.bridge.getAddress();
      const closedFirst = await sendSstb(f);
      await s.setRoutes([{ ...routeTo(ARB, ethers.ZeroAddress, LIMITS), gasLimit: 0n }]);
      expect((await f.relayer.poll()).map((r) => r.state)).to.deep.equal(["success"]);
      expect(await s.messageStatus(closedFirst)).to.equal(Status.Completed);

      // reopened to another bridge address (a replacement): the old peer's messages still arrive
      await s.setRoutes([routeTo(ARB, primary, LIMITS)]);
      const movedFirst = await sendSstb(f);
      await s.setRoutes([routeTo(ARB, f.stranger.address, LIMITS)]);
      expect((await f.relayer.poll()).map((r) => r.state)).to.deep.equal(["success"]);
      expect(await s.messageStatus(movedFirst)).to.equal(Status.Completed);
      expect(await f.satellite.sstb.balanceOf(f.bob.address)).to.equal(2n * AMOUNT);
    });

    it("a message in flight when the source closes the route is still delivered", async function () {
      const f = withRelayer(await loadFixture(pair));
      const id = await sendSstb(f);
      await f.primary.bridge.setRoutes([{ ...routeTo(ETH, ethers.ZeroAddress, LIMITS), gasLimit: 0n }]);
      await f.relayer.poll();
      expect(await f.satellite.bridge.messageStatus(id)).to.equal(Status.Completed);
      expect(await f.satellite.sstb.balanceOf(f.bob.address)).to.equal(AMOUNT);
    });

    it("the deployment refuses a route whose peer's outbound capacity or rate exceeds the local inbound one", async function () {
      const files = async (environment: string) =>
        Promise.all(
          chainsOf(environment).map(async ({ chain }) => ({ chain, parameters: await readParameters(chain) })),
        );
      // the repository's files pass: 10% headroom on every inbound limit
      for (const environment of ["mainnet", "testnet"]) checkRouteLimits(await files(environment));

      const mainnet = await files("mainnet");
      const withField = (chain: string, field: string, value: bigint) =>
        mainnet.map((c) => (c.chain === chain ? { chain, parameters: { ...c.parameters, [field]: value } } : c));
      const over = 1_100_000n * 10n ** 18n + 1n;
      expect(() => checkRouteLimits(withField("polygon", "bridgeSstbCapacity", over)))
        .to.throw(DeploymentConfigError)
        .with.property("message")
        .that.matches(
          /^polygon -> arbitrum: the sstb outbound capacity of polygon \(\d+\) exceeds the inbound capacity of arbitrum/,
        );
      expect(() => checkRouteLimits(withField("arbitrum", "bridgeGovernanceInboundRate", 11_574_074_074_074_074_073n)))
        .to.throw(DeploymentConfigError)
        .with.property("message")
        .that.matches(/^ethereum -> arbitrum: the governance outbound rate of ethereum/);
      const missing = mainnet.map((c) => {
        const { bridgeSstbInboundRate, ...rest } = c.parameters;
        void bridgeSstbInboundRate;
        return { chain: c.chain, parameters: rest };
      });
      expect(() => checkRouteLimits(missing)).to.throw(
        DeploymentConfigError,
        /bridgeSstbInboundCapacity and bridgeSstbInboundRate are needed/,
      );
    });
  });
});
