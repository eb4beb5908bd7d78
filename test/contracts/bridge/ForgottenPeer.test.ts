import { expect } from "chai";
import { network } from "hardhat";
import { AbiCoder, parseEther } from "ethers";

import { routeTo } from "@compute-capacity/sdk";
import {
  ARB,
  ETH,
  LIMITS,
  Status,
  TRANSPORT_FEE,
  Token,
  deployBridgePair,
  sentMessageId,
  withRelayer,
} from "../../helpers/bridge.js";
import type { BridgeFixture, BridgePair } from "../../helpers/bridge.js";

/**
 * Issue 23, property 1 (review 4): what a former peer of a route originated stops minting the
 * moment governance forgets the peer, whether it arrives afterwards or already waits in a delivery
 * queue, and a refused delivery stops holding up the legitimate ones behind it. The former peer is
 * compromised: it forges transfers nobody burned, delivered by the destination's CCIP router as
 * any message from that address would be.
 */

const connection = await network.create();
const { ethers, networkHelpers } = connection;
const { loadFixture, time } = networkHelpers;

/** The inbound sSTB bucket of ethereum from arbitrum in these tests: 40 sSTB, refilling 1 per second. */
const INBOUND = { enabled: true, capacity: parseEther("40"), rate: parseEther("1") };
/** What the compromised former peer forges: far more than the bucket holds. */
const FORGED = parseEther("1000000");
const LEGIT = parseEther("10");
/** A sequence number of the arbitrum lane no real message uses. */
const FORGED_SEQUENCE = 1_000_000n;

async function pair(): Promise<BridgePair> {
  return deployBridgePair(connection);
}

async function now(): Promise<bigint> {
  return BigInt((await ethers.provider.getBlock("latest"))!.timestamp);
}

/**
 * The pair with ethereum's route from arbitrum moved away from `formerPeer` (an old arbitrum
 * bridge, now compromised) to today's arbitrum bridge, and ethereum's inbound sSTB bucket set to
 * {INBOUND}.
 */
async function withFormerPeer() {
  const f = withRelayer(await loadFixture(pair));
  const [, , , , , , , , , formerPeer, attacker] = await ethers.getSigners();
  const s = f.satellite.bridge;
  const primary = await f.primary.bridge.getAddress();
  await s.setRoutes([routeTo(ARB, formerPeer.address, LIMITS)]);
  await s.setRoutes([routeTo(ARB, primary, LIMITS)]);
  expect(await s.isFormerPeer(ARB, formerPeer.address)).to.equal(true);
  await s.setRateLimit(ARB, Token.SSTB, false, INBOUND);
  return { f, formerPeer, attacker };
}

/** A transfer of `amount` sSTB to `recipient` that `sender` never burned, executed on ethereum's router. */
async function forge(f: BridgeFixture, sender: string, recipient: string, amount: bigint, sequence: bigint) {
  const data = AbiCoder.defaultAbiCoder().encode(
    ["uint256", "uint8", "address", "address", "uint256"],
    [1n, Token.SSTB, sender, recipient, amount],
  );
  const router = f.satellite.router.connect(f.relayerSigner);
  const receiver = await f.satellite.bridge.getAddress();
  const messageId = await router.messageIdOf(ARB, ETH, sequence, sender, receiver, data, 200_000n);
  const receipt = (await (await router.execute(ARB, sequence, sender, receiver, data, 200_000n, 0n)).wait())!;
  const state = receipt.logs
    .map((log) => (log.address === router.target ? router.interface.parseLog(log) : null))
    .find((e) => e?.name === "ExecutionStateChanged")!.args.state;
  return { messageId, state: Number(state) };
}

/** Sends `amount` sSTB from arbitrum to Bob through the real bridges; returns the message id. */
async function sendLegit(f: BridgeFixture, amount: bigint): Promise<string> {
  const tx = await f.primary.bridge
    .connect(f.alice)
    .send(ETH, f.bob.address, await f.primary.sstb.getAddress(), amount, 0, { value: TRANSPORT_FEE });
  return sentMessageId(f, (await tx.wait())!);
}

describe("Property: once governance has forgotten a peer, nothing that peer originated mints or releases a token, whether it arrives later or already waits in a queue (issue 23, property 1)", function () {
  it("once governance has forgotten a peer, nothing that peer originated mints or releases a token, whether it arrives later or already waits in a queue", async function () {
    const { f, formerPeer, attacker } = await withFormerPeer();
    const s = f.satellite.bridge;
    const sstb = f.satellite.sstb;

    // the compromised former peer's forged transfer, larger than the bucket, waits at the head;
    // a legitimate transfer from today's peer waits behind it
    const forged = await forge(f, formerPeer.address, attacker.address, FORGED, FORGED_SEQUENCE);
    expect(await s.messageStatus(forged.messageId)).to.equal(Status.Queued);
    const legit = await sendLegit(f, LEGIT);
    await f.relayer.poll();
    expect(await s.messageStatus(legit)).to.equal(Status.Queued);
    expect(await s.queueOf(ARB, Token.SSTB)).to.deep.equal([forged.messageId, 2n]);
    const supplyBefore = await sstb.totalSupply();

    // governance forgets the former peer
    await s.forgetPeer(ARB, formerPeer.address);
    const forgottenAt = await now();

    // a keeper drives the queue from its head, as anyone may: the legitimate transfer completes
    // within (what legitimately waits before it + its amount + one capacity) / rate
    const bound = (0n + LEGIT + INBOUND.capacity) / INBOUND.rate;
    while ((await s.messageStatus(legit)) === Status.Queued && (await now()) - forgottenAt <= bound + 5n) {
      const { head } = await s.queueOf(ARB, Token.SSTB);
      await s
        .connect(f.stranger)
        .executeQueued(head)
        .catch(() => undefined);
      await time.increase(5);
    }
    expect(await sstb.balanceOf(attacker.address), "minted to the forger after the peer was forgotten").to.equal(0n);
    expect(await s.messageStatus(forged.messageId)).to.equal(Status.Failed);
    expect(await s.messageStatus(legit)).to.equal(Status.Completed);
    expect((await s.messageOf(legit)).completedAt - forgottenAt).to.be.lte(bound);
    expect(await sstb.balanceOf(f.bob.address)).to.equal(LEGIT);
    // the forged transfer stopped occupying its queue
    expect((await s.queueOf(ARB, Token.SSTB))[1]).to.equal(0n);
    // invariant 1 (ethereum) and 5 (across both): only what arbitrum burned arrived
    expect(await sstb.totalSupply()).to.equal(supplyBefore + LEGIT);
    const [, arrived] = await s.bridgedTotals(Token.SSTB);
    const [left] = await f.primary.bridge.bridgedTotals(Token.SSTB);
    expect(arrived).to.equal(left);

    // and what it forges later is refused at the door
    const later = await forge(f, formerPeer.address, attacker.address, parseEther("1"), FORGED_SEQUENCE + 1n);
    expect(later.state).to.equal(3); // the router records the bridge's refusal as a failure
    expect(await s.messageStatus(later.messageId)).to.equal(Status.None);
    expect(await sstb.balanceOf(attacker.address)).to.equal(0n);
  });
});
