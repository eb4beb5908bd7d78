import { AbiCoder, parseEther, parseUnits } from "ethers";
import type { ContractTransactionReceipt } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";
import type { NetworkConnection } from "hardhat/types/network";

import { CCIP_CHAIN_SELECTORS, EXECUTION_STATES, Roles } from "@compute-capacity/sdk";
import { sampleVerifierKeys } from "../../gateway/verification/keys.js";
import type { RateLimit, RouteLimits } from "@compute-capacity/sdk";
import { deployBridgePair as deployTwoBridges } from "../../testing/bridge-pair.js";
import type { IgnitionConnection, PrimaryDeployment, SatelliteDeployment } from "../../deploy/deploy.js";
import { DEFAULT_GAS_MARGIN, Relayer } from "../../devnet/relayer.js";
import type { Bridge, DevnetCCIPRouter } from "../../typechain-types/index.js";

/** A test connection: deploys with Ignition, impersonates and sets balances. */
export type TestConnection = IgnitionConnection & Pick<NetworkConnection, "networkHelpers">;

/** The two selectors of the unit tests' chains (arbitrum and ethereum, played on one chain). */
export const ARB = CCIP_CHAIN_SELECTORS["42161"];
export const ETH = CCIP_CHAIN_SELECTORS["1"];
/** Flat CCIP fee of the devnet routers in the unit tests. */
export const TRANSPORT_FEE = parseEther("0.001");
/** Route limits of the unit tests: 1,000 tokens per bucket, refilling 1 token per second. */
export const LIMIT: RateLimit = { enabled: true, capacity: parseEther("1000"), rate: parseEther("1") };
export const LIMITS: RouteLimits = { sstb: LIMIT, governance: LIMIT };
/** `IBridge.Token`, as bigints. */
export const Token = { SSTB: 0n, Governance: 1n } as const;
/** `IGovernanceChannel.GovernanceFailure`, as bigints. */
export const GovernanceFailure = { Stale: 0n, Expired: 1n, Reverted: 2n } as const;
/** `GovernanceChannel.GOVERNANCE_MESSAGE_TTL`: how long a governance message stays executable. */
export const GOVERNANCE_MESSAGE_TTL = 3n * 24n * 60n * 60n;
/** `IBridge.MessageStatus`, as bigints. */
export const Status = { None: 0n, Sent: 1n, Queued: 2n, Completed: 3n, Failed: 4n } as const;
/** `IGovernanceChannel.MessageStatus`, as bigints. */
export const ChannelStatus = { None: 0n, Sent: 1n, Executed: 2n, Failed: 3n } as const;

export interface BridgePair {
  primary: PrimaryDeployment & { bridge: Bridge; router: DevnetCCIPRouter };
  satellite: SatelliteDeployment & { router: DevnetCCIPRouter };
  deployer: HardhatEthersSigner;
  treasury: HardhatEthersSigner;
  guardian: HardhatEthersSigner;
  relayerSigner: HardhatEthersSigner;
  alice: HardhatEthersSigner;
  bob: HardhatEthersSigner;
  stranger: HardhatEthersSigner;
}

/** The pair with a relayer between its routers. */
export type BridgeFixture = BridgePair & { relayer: Relayer };

/**
 * Two bridges on one in-process chain, on different CCIP selectors (arbitrum's and ethereum's),
 * each with its own devnet router, routed to each other with {LIMITS}, their governance channels
 * peers of each other, and a relayer between the routers. The deployer keeps governance on both sides (no hand-off), so tests call setters
 * directly. Alice holds 10,000 sSTB and 10,000 STBGOV on arbitrum and 1,000 mUSDC on both sides,
 * with every approval the bridges need.
 */
export async function deployBridgePair(connection: IgnitionConnection): Promise<BridgePair> {
  const { ethers } = connection;
  const [deployer, treasury, approver, arbitrator, guardian, relayerSigner, alice, bob, stranger] =
    await ethers.getSigners();
  const { primary: arbitrum, satellite: ethereum } = await deployTwoBridges(connection, {
    accounts: { treasury, approver, arbitrator, guardian },
    verifierKeys: sampleVerifierKeys("bridge-verifier"),
    relayer: relayerSigner.address,
    transportFee: TRANSPORT_FEE,
    limits: LIMITS,
    selectors: [ARB, ETH],
  });

  await arbitrum.sstb.grantRole(Roles.MINTER, deployer.address);
  await arbitrum.sstb.mint(alice.address, parseEther("10000"));
  await arbitrum.governanceToken.connect(treasury).transfer(alice.address, parseEther("10000"));
  for (const d of [arbitrum, ethereum]) {
    const bridge = await d.bridge.getAddress();
    const stablecoin = "collateral" in d ? d.collateral : d.stablecoin;
    await stablecoin.mint(alice.address, parseUnits("1000", 6));
    await stablecoin.connect(alice).approve(bridge, ethers.MaxUint256);
    await d.sstb.connect(alice).approve(bridge, ethers.MaxUint256);
    await d.governanceToken.connect(alice).approve(bridge, ethers.MaxUint256);
  }

  return {
    primary: arbitrum as BridgePair["primary"],
    satellite: ethereum as BridgePair["satellite"],
    deployer,
    treasury,
    guardian,
    relayerSigner,
    alice,
    bob,
    stranger,
  };
}

/**
 * {deployBridgePair} as after the hand-off for cross-chain governance: the arbitrum timelock holds
 * the governance role of the arbitrum governance channel (and some ETH for transport fees), and the
 * ethereum executor the admin and governance roles of the ethereum bridge.
 */
export async function deployGovernedBridgePair(connection: TestConnection): Promise<BridgePair> {
  const f = await deployBridgePair(connection);
  const timelock = await f.primary.timelock.getAddress();
  const executor = await f.satellite.executor.getAddress();
  await f.primary.governanceChannel.grantRole(Roles.GOVERNANCE, timelock);
  await f.satellite.bridge.grantRole(Roles.GOVERNANCE, executor);
  await f.satellite.bridge.grantRole(Roles.DEFAULT_ADMIN, executor);
  await connection.networkHelpers.setBalance(timelock, parseEther("10"));
  return f;
}

/** A call the timelock has the ethereum executor make on the ethereum bridge. */
export interface GovernanceCall {
  target: string;
  value: bigint;
  data: string;
}

/** A call of `fn(args)` on the ethereum bridge. */
export function bridgeCall(f: BridgePair, fn: string, args: readonly unknown[]): GovernanceCall {
  const bridge = f.satellite.bridge;
  return {
    target: bridge.target as string,
    value: 0n,
    data: bridge.interface.encodeFunctionData(fn as never, args as never),
  };
}

/** Sends `calls` to ethereum over the governance channel as the arbitrum timelock (impersonated); returns the message id. */
export async function proposeToSatellite(
  connection: TestConnection,
  f: BridgePair,
  calls: readonly GovernanceCall[],
  gasLimit = 300_000n,
): Promise<string> {
  const timelock = await f.primary.timelock.getAddress();
  await connection.networkHelpers.impersonateAccount(timelock);
  const asTimelock = await connection.ethers.getSigner(timelock);
  const tx = await f.primary.governanceChannel
    .connect(asTimelock)
    .sendGovernanceMessage(ETH, [...calls], gasLimit, { value: TRANSPORT_FEE });
  return sentMessageId(f, (await tx.wait())!);
}

/** The payload of a governance message, as the arbitrum governance channel encodes it. */
export function governancePayload(
  origin: string,
  sequence: bigint,
  deadline: bigint,
  calls: readonly GovernanceCall[],
): string {
  return AbiCoder.defaultAbiCoder().encode(
    ["address", "uint64", "uint256", "tuple(address,uint256,bytes)[]"],
    [origin, sequence, deadline, calls.map((c) => [c.target, c.value, c.data])],
  );
}

/**
 * The fixture with a new relayer between its two routers. A relayer keeps a cursor in memory, so
 * each test needs its own: `loadFixture` reverts the chain but returns the same fixture object.
 */
export function withRelayer(f: BridgePair): BridgeFixture {
  const relayer = new Relayer(
    [
      { name: "arbitrum", selector: ARB, router: f.primary.router.connect(f.relayerSigner) },
      { name: "ethereum", selector: ETH, router: f.satellite.router.connect(f.relayerSigner) },
    ],
    { retryDelayMs: 0 },
  );
  return { ...f, relayer };
}

/**
 * What a reverted bridge call must leave untouched: balances of the given accounts in every token
 * on both sides, supplies, the bridges' totals, buckets and ETH.
 */
export async function bridgeState(f: BridgePair, accounts: readonly string[]) {
  const sides = [
    { name: "arbitrum", d: f.primary, stablecoin: f.primary.collateral, remote: ETH },
    { name: "ethereum", d: f.satellite, stablecoin: f.satellite.stablecoin, remote: ARB },
  ];
  const out: Record<string, unknown> = {};
  for (const { name, d, stablecoin, remote } of sides) {
    const bridge = await d.bridge.getAddress();
    const holders = [...accounts, bridge, f.treasury.address];
    out[name] = {
      balances: await Promise.all(
        holders.map(async (a) => [
          a,
          await d.sstb.balanceOf(a),
          await d.governanceToken.balanceOf(a),
          await stablecoin.balanceOf(a),
        ]),
      ),
      supplies: [await d.sstb.totalSupply(), await d.governanceToken.totalSupply()],
      totals: [...(await d.bridge.bridgedTotals(0))].concat([...(await d.bridge.bridgedTotals(1))]),
      buckets: await Promise.all(
        [0, 1].flatMap((t) => [true, false].map(async (o) => String(await d.bridge.bucketOf(remote, t, o)))),
      ),
      routerBalance: await d.bridge.runner!.provider!.getBalance(await d.router!.getAddress()),
    };
  }
  return out;
}

/**
 * The message id of the first `MessageSent` of either bridge, or `GovernanceMessageSent` of either
 * governance channel, in a receipt.
 */
export function sentMessageId(f: BridgePair, receipt: ContractTransactionReceipt): string {
  for (const log of receipt.logs) {
    for (const sender of [
      f.primary.bridge,
      f.satellite.bridge,
      f.primary.governanceChannel,
      f.satellite.governanceChannel,
    ]) {
      if (log.address !== sender.target) continue;
      const parsed = sender.interface.parseLog(log);
      if (parsed?.name === "MessageSent" || parsed?.name === "GovernanceMessageSent") return parsed.args.messageId;
    }
  }
  throw new Error("no message sent in this transaction");
}

/**
 * Executes one message on its destination router as the relayer, as CCIP's executing network (or
 * anyone's manual execution, with `gasLimitOverride` above zero) would, whatever the order the
 * messages were sent in. Returns the router's execution state: `success` when the bridge's
 * `ccipReceive` returned (whatever the bridge made of the message), `failure` when it reverted.
 */
export async function deliver(
  f: BridgePair,
  messageId: string,
  gasLimitOverride = 0n,
): Promise<(typeof EXECUTION_STATES)[number]> {
  const lanes = [
    { from: f.primary.router, to: f.satellite.router, source: ARB },
    { from: f.satellite.router, to: f.primary.router, source: ETH },
  ];
  for (const { from, to, source } of lanes) {
    const [event] = await from.queryFilter(from.filters.CCIPSendRequested(undefined, undefined, messageId));
    if (event === undefined) continue;
    const a = event.args;
    const router = to.connect(f.relayerSigner);
    const gas = (gasLimitOverride > a.gasLimit ? gasLimitOverride : a.gasLimit) + DEFAULT_GAS_MARGIN;
    const receipt = await (
      await router.execute(source, a.sequenceNumber, a.sender, a.receiver, a.data, a.gasLimit, gasLimitOverride, {
        gasLimit: gas,
      })
    ).wait();
    for (const log of receipt!.logs) {
      const parsed = log.address === router.target ? router.interface.parseLog(log) : null;
      if (parsed?.name === "ExecutionStateChanged") return EXECUTION_STATES[Number(parsed.args.state)];
    }
  }
  throw new Error(`message ${messageId} was not sent by either router`);
}
