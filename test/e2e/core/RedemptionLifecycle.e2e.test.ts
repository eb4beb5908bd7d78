import { rm } from "node:fs/promises";
import path from "node:path";

import { expect } from "chai";
import { network } from "hardhat";
import { AbiCoder, JsonRpcProvider, dataSlice, id, parseEther, parseUnits } from "ethers";
import type { JsonRpcSigner, TransactionReceipt } from "ethers";

import {
  attestationDomain,
  buildProof,
  cuHashOf,
  generateAccessKeyPair,
  hashReviewedProfile,
  IssueType,
  randomNonce,
  statusName,
} from "@compute-capacity/sdk";
import { fulfilEncrypted, readAccessDetails, redeem } from "../../../testing/redemption.js";
import { sampleVerifierKeys } from "../../../gateway/verification/keys.js";
import { deployPrimary } from "../../../deploy/deploy.js";
import type { PrimaryDeployment } from "../../../deploy/deploy.js";
import { isProcessAlive, startLocalNode } from "../../../devnet/local-node.js";
import type { LocalNode } from "../../../devnet/local-node.js";
import { SAMPLE_SPECS, localDeployOptions, sampleAccessDetails, sampleProfile } from "../../../devnet/samples.js";

const ARBITRUM = 42161n;
/** Ignition journals deployments to HTTP networks; this run's journal is removed afterwards. */
const deploymentId = `e2e-redemption-${process.pid}-${Date.now()}`;
const ERROR_STRING_SELECTOR = id("Error(string)").slice(0, 10);

/** The revert data of a failed call or transaction, as it came back through the JSON-RPC error. */
async function revertData(action: Promise<unknown>): Promise<string> {
  try {
    await action;
  } catch (error) {
    const data = (error as { data?: unknown }).data;
    if (typeof data === "string" && data.startsWith("0x")) return data;
    throw new Error(`no revert data in ${String(error)}`);
  }
  throw new Error("expected a revert, but the call succeeded");
}

/** The `Error(string)` reason of a revert, decoded from the RPC error's data. */
async function revertReason(action: Promise<unknown>): Promise<string> {
  const data = await revertData(action);
  expect(data.slice(0, 10)).to.equal(ERROR_STRING_SELECTOR);
  return AbiCoder.defaultAbiCoder().decode(["string"], dataSlice(data, 4))[0] as string;
}

/**
 * End to end over HTTP JSON-RPC: a real `hardhat node` child process (chain id 42161), the
 * project's deployment code, and distinct accounts of the node for every role.
 */
describe("Redemption lifecycle end to end (hardhat node over JSON-RPC)", function () {
  this.timeout(120_000);

  let node: LocalNode | undefined;
  let rpc: JsonRpcProvider;
  let d: PrimaryDeployment;
  let deployer: JsonRpcSigner;
  let treasury: JsonRpcSigner;
  let approver: JsonRpcSigner;
  let arbitrator: JsonRpcSigner;
  let provider: JsonRpcSigner;
  let user: JsonRpcSigner;
  let stranger: JsonRpcSigner;
  const userKeys = generateAccessKeyPair();

  const events = (receipt: TransactionReceipt) =>
    receipt.logs.flatMap((log) => {
      const parsed = d.redemptionManager.interface.parseLog(log);
      return parsed === null ? [] : [parsed];
    });

  before(async function () {
    node = await startLocalNode({ chainId: ARBITRUM });
    // cacheTimeout -1: ethers otherwise answers an identical request made within 250 ms from its
    // cache, so a call retried right after a revert would get the stale revert back
    rpc = new JsonRpcProvider(node.url, Number(ARBITRUM), { staticNetwork: true, polling: true, cacheTimeout: -1 });
    rpc.pollingInterval = 50;
    [deployer, treasury, approver, arbitrator, provider, user, stranger] = await Promise.all(
      [0, 1, 2, 3, 4, 5, 6].map((i) => rpc.getSigner(i)),
    );
    const verifierKeys = sampleVerifierKeys("e2e-verifier");
    // the project's deployment code: the Ignition modules, over HTTP to the node
    const connection = await network.create({ network: "localhost", override: { url: node.url } });
    const deployed = await deployPrimary(
      connection,
      localDeployOptions({ treasury, approver, arbitrator, guardian: stranger }, verifierKeys, { deploymentId }),
    );
    // drive everything through our own JSON-RPC provider and the node's accounts
    d = Object.fromEntries(
      await Promise.all(
        Object.entries(deployed).map(async ([name, contract]) => [
          name,
          contract.connect(deployer).attach(await contract.getAddress()),
        ]),
      ),
    ) as unknown as PrimaryDeployment;
    await connection.close();

    // a provider with 100 sSTB of verified capacity, 30 of which it sells to the user
    await (await d.registry.connect(provider).register(sampleProfile("E2E Compute"), 1)).wait();
    await (
      await d.registry
        .connect(approver)
        .approveProvider(provider.address, hashReviewedProfile(sampleProfile("E2E Compute"), 1))
    ).wait();
    const value = parseEther("100");
    const collateral = await d.registry.requiredCollateral(value);
    await (await d.collateral.connect(provider).mint(provider.address, parseUnits("1000", 6))).wait();
    await (await d.collateral.connect(provider).approve(await d.mintingAgent.getAddress(), collateral)).wait();
    const now = BigInt((await rpc.getBlock("latest"))!.timestamp);
    const proof = await buildProof(
      {
        provider: provider.address,
        cuHash: cuHashOf({ e2e: provider.address }),
        cuValue: value,
        specs: SAMPLE_SPECS,
        expiry: now + 3_600n,
        nonce: randomNonce(),
      },
      attestationDomain(ARBITRUM, await d.verifier.getAddress()),
      verifierKeys.slice(0, 2),
    );
    await (await d.mintingAgent.connect(provider).verifyAndMintSSTB(proof, collateral, 30n * 86_400n)).wait();
    await (await d.sstb.connect(provider).transfer(user.address, parseEther("40"))).wait();
  });

  after(async function () {
    rpc?.destroy();
    await rm(path.join("ignition", "deployments", deploymentId), { recursive: true, force: true });
    if (node === undefined) return;
    const { pid } = node;
    await node.stop();
    expect(isProcessAlive(pid), "the node process is gone").to.equal(false);
  });

  it("runs initiate, fulfil, confirm with the spec's revert strings coming back through RPC", async function () {
    const m = d.redemptionManager;
    const amount = parseEther("10"); // one reputation unit
    const supply = await d.sstb.totalSupply();
    const { redemptionId, receipt } = await redeem(d, user, amount, provider.address);
    expect(redemptionId).to.equal(1n);
    const initiated = events(receipt).find((e) => e.name === "RedemptionInitiated")!;
    expect([...initiated.args]).to.deep.equal([1n, user.address, amount, provider.address]);
    expect(await d.sstb.totalSupply()).to.equal(supply - amount);
    expect(await d.sstb.balanceOf(treasury.address)).to.equal(parseEther("0.01"));

    expect(await revertReason(m.connect(user).fulfillRedemption(1n, "x"))).to.equal("Only provider can fulfill");
    expect(await revertReason(m.connect(stranger).fulfillRedemption(1n, "x"))).to.equal("Only provider can fulfill");
    expect(await revertReason(m.connect(user).confirmRedemption(1n))).to.equal("Not fulfilled yet");

    const details = sampleAccessDetails(1n);
    const fulfilled = await fulfilEncrypted(m, provider, 1n, details, userKeys.publicKey, ARBITRUM);
    const fulfilledEvent = events(fulfilled.receipt).find((e) => e.name === "RedemptionFulfilled")!;
    expect([...fulfilledEvent.args]).to.deep.equal([1n, provider.address, fulfilled.envelope]);
    expect(fulfilled.envelope).to.not.contain(details.hostname);
    expect(await readAccessDetails(m, 1n, userKeys.privateKey, ARBITRUM)).to.deep.equal(details);

    expect(await revertReason(m.connect(provider).fulfillRedemption(1n, "again"))).to.equal("Already fulfilled");
    expect(await revertReason(m.connect(provider).confirmRedemption(1n))).to.equal("Only user can confirm");
    expect(await revertReason(m.connect(stranger).confirmRedemption(1n))).to.equal("Only user can confirm");

    const confirmed = (await (await m.connect(user).confirmRedemption(1n)).wait())!;
    const confirmedEvent = events(confirmed).find((e) => e.name === "RedemptionConfirmed")!;
    expect([...confirmedEvent.args]).to.deep.equal([1n, user.address]);
    expect(await revertReason(m.connect(user).confirmRedemption(1n))).to.equal("Already confirmed");
    expect(await revertReason(m.connect(provider).fulfillRedemption(1n, "late"))).to.equal("Already fulfilled");

    expect(await m.redemptions(1n)).to.deep.equal([
      user.address,
      amount,
      (await d.redemptionViews.redemptionOf(1n)).timestamp,
      provider.address,
      true,
      true,
    ]);
    const account = await d.registry.accountOf(provider.address);
    expect(account.reputation).to.equal(5100n);
    expect(account.lockedCollateral).to.equal(0n);
  });

  it("expires an unfulfilled redemption after the premium deadline and compensates the user at 100%", async function () {
    const m = d.redemptionManager;
    const { redemptionId } = await redeem(d, user, parseEther("10"), provider.address);
    const { lock, deadline } = await d.redemptionViews.redemptionOf(redemptionId);
    const early = await revertData(m.connect(stranger).expireRedemption(redemptionId));
    const parsed = m.interface.parseError(early)!;
    expect(parsed.name).to.equal("RedemptionDeadlineNotPassed");
    expect([...parsed.args]).to.deep.equal([redemptionId, deadline]);

    await rpc.send("evm_increaseTime", [6 * 3_600 + 1]);
    await rpc.send("evm_mine", []);
    const before = await d.collateral.balanceOf(user.address);
    const receipt = (await (await m.connect(stranger).expireRedemption(redemptionId)).wait())!;
    // during the provider's stake: the value at 100% to the user, the rest of the lock to the treasury
    const value = (lock * 10_000n + 11_999n) / 12_000n;
    const expired = events(receipt).find((e) => e.name === "RedemptionExpired")!;
    expect([expired.args.compensation, expired.args.penalty]).to.deep.equal([value, lock - value]);
    expect(await d.collateral.balanceOf(user.address)).to.equal(before + value);
    expect(statusName(await d.redemptionViews.redemptionStatus(redemptionId))).to.equal("expired");
  });

  it("resolves a dispute for the user, with the arbitrator's role checked over RPC", async function () {
    const m = d.redemptionManager;
    const { redemptionId } = await redeem(d, user, parseEther("10"), provider.address);
    await fulfilEncrypted(m, provider, redemptionId, sampleAccessDetails(redemptionId), userKeys.publicKey, ARBITRUM);
    await (await m.connect(user).openDispute(redemptionId, IssueType.AccessFailure, id("ssh refused"))).wait();
    await (await m.connect(provider).respondToDispute(redemptionId, id("host was up"))).wait();

    const refused = m.interface.parseError(
      await revertData(m.connect(stranger).resolveDispute(redemptionId, true, false)),
    );
    expect(refused!.name).to.equal("AccessControlUnauthorizedAccount");

    const { lock } = await d.redemptionViews.redemptionOf(redemptionId);
    const before = await d.collateral.balanceOf(user.address);
    const receipt = (await (await m.connect(arbitrator).resolveDispute(redemptionId, true, false)).wait())!;
    const resolved = events(receipt).find((e) => e.name === "DisputeResolved")!;
    expect([...resolved.args]).to.deep.equal([redemptionId, arbitrator.address, true, false, lock]);
    expect(await d.collateral.balanceOf(user.address)).to.equal(before + lock);
    expect(statusName(await d.redemptionViews.redemptionStatus(redemptionId))).to.equal("resolved");
    expect(await d.registry.providerStats(provider.address)).to.deep.equal([3n, 1n, 0n]);
  });
});
