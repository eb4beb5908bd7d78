import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { network } from "hardhat";
import { parseEther, parseUnits } from "ethers";
import type { HardhatEthersSigner } from "@nomicfoundation/hardhat-ethers/types";

import { currentRoleHolders, FeeOption, proposalOf, Roles, Vote } from "@compute-capacity/sdk";
import { contractCall, execute, propose, queue } from "../../../testing/governance.js";
import { sampleVerifierKeys } from "../../../gateway/verification/keys.js";
import type { RouteLimits } from "@compute-capacity/sdk";
import { startLocalNode } from "../../../devnet/local-node.js";
import type { LocalNode } from "../../../devnet/local-node.js";
import { deployLocalNetwork } from "../../../devnet/network.js";
import type { LocalNetwork } from "../../../devnet/network.js";
import { Relayer } from "../../../devnet/relayer.js";
import type { RelayerChain } from "../../../devnet/relayer.js";
import { LOCAL_GOVERNANCE } from "../../../devnet/samples.js";
import type { Bridge } from "../../../typechain-types/index.js";
import { GUARDIAN_PAUSE } from "../../helpers/pause.js";

const CHAINS = [
  { chain: "arbitrum", chainId: 42161n },
  { chain: "ethereum", chainId: 1n },
  { chain: "polygon", chainId: 137n },
] as const;
const FEE = parseEther("0.0001");
/** Small buckets, so the test reaches the limits: 1,000 tokens, 1 token per second. */
const LIMIT = { enabled: true, capacity: parseEther("1000"), rate: parseEther("1") };
const LIMITS: RouteLimits = { sstb: LIMIT, governance: LIMIT };
const Status = { None: 0n, Sent: 1n, Queued: 2n, Completed: 3n } as const;
/** IGovernanceChannel.MessageStatus.Executed. */
const CHANNEL_EXECUTED = 2n;
const PRIVILEGED = [Roles.DEFAULT_ADMIN, Roles.GOVERNANCE, Roles.UPGRADER, Roles.MINTER, Roles.BURNER];

type Connection = Awaited<ReturnType<typeof network.create>>;

/**
 * The bridge end to end: three `hardhat node`s (chain ids 42161, 1, 137), the deployment as
 * `npm start` and `deploy-protocol` run it (contracts, routes, hand-off on every chain), and the
 * relayer between the devnet routers over JSON-RPC.
 */
describe("Bridge end to end (three hardhat nodes, the relayer)", function () {
  this.timeout(240_000);

  const nodes: LocalNode[] = [];
  const connections: Connection[] = [];
  const ids = CHAINS.map((c) => `e2e-bridge-${c.chain}-${process.pid}`);
  let net: LocalNetwork;
  let relayer: Relayer;
  let cursorFile: string;
  /** Signers by role, per chain index. */
  let signers: HardhatEthersSigner[][];
  const role = (chain: number, name: "deployer" | "treasury" | "guardian" | "relayer" | "user" | "stranger") =>
    signers[chain][{ deployer: 0, treasury: 1, guardian: 4, user: 6, relayer: 8, stranger: 9 }[name]];
  const bridgeOf = (i: number): Bridge => (i === 0 ? net.primary.bridge : net.satellites[i - 1].bridge);
  const sideOf = (i: number) =>
    i === 0 ? { ...net.primary, stablecoin: net.primary.collateral } : net.satellites[i - 1];
  const relayerChains = (): RelayerChain[] =>
    CHAINS.map((c, i) => ({
      name: c.chain,
      selector: i === 0 ? net.primary.selector : net.satellites[i - 1].selector,
      router: (i === 0 ? net.primary.router! : net.satellites[i - 1].router!).connect(role(i, "relayer")),
    }));
  const increaseTime = async (i: number, seconds: bigint) => {
    await connections[i].ethers.provider.send("evm_increaseTime", [Number(seconds)]);
    await connections[i].ethers.provider.send("evm_mine", []);
  };

  /** Sends `amount` of sSTB or STBGOV from chain `from` to the user on chain `to`; returns the id. */
  async function send(from: number, to: number, token: "sstb" | "gov", amount: bigint, option: number) {
    const side = sideOf(from);
    const tokenAddress = await (token === "sstb" ? side.sstb : side.governanceToken).getAddress();
    const bridge = bridgeOf(from).connect(role(from, "user"));
    const tx = await bridge.send(sideOf(to).selector, role(to, "user").address, tokenAddress, amount, option, {
      value: FEE,
    });
    const receipt = (await tx.wait())!;
    const log = receipt.logs.map((l) => bridge.interface.parseLog(l)).find((l) => l?.name === "MessageSent")!;
    return log.args.messageId as string;
  }

  before(async function () {
    const started = await Promise.all(CHAINS.map((c) => startLocalNode({ chainId: c.chainId })));
    nodes.push(...started);
    for (const node of nodes) {
      connections.push(await network.create({ network: "localhost", override: { url: node.url } }));
    }
    signers = await Promise.all(connections.map((c) => c.ethers.getSigners()));
    const chains = CHAINS.map((c, i) => ({ chain: c.chain, connection: connections[i], deploymentId: ids[i] }));
    net = await deployLocalNetwork(chains[0], chains.slice(1), {
      accounts: {
        treasury: role(0, "treasury"),
        approver: signers[0][2],
        arbitrator: signers[0][3],
        guardian: role(0, "guardian"),
      },
      verifierKeys: sampleVerifierKeys("e2e-bridge"),
      relayer: role(0, "relayer").address,
      transportFee: FEE,
      limits: LIMITS,
    });
    cursorFile = path.join(await mkdtemp(path.join(tmpdir(), "relayer-")), "cursor.json");
    relayer = new Relayer(relayerChains(), { cursorFile, retryDelayMs: 0 });
  });

  after(async function () {
    for (const c of connections) await c.close();
    await Promise.all(nodes.map((n) => n.stop()));
    for (const id of ids) await rm(path.join("ignition", "deployments", id), { recursive: true, force: true });
    if (cursorFile !== undefined) await rm(path.dirname(cursorFile), { recursive: true, force: true });
  });

  it("leaves no privileged role with an EOA on any chain: the timelock governs arbitrum, the executors the satellites", async function () {
    const deployer = role(0, "deployer").address;
    const chains = [
      {
        governance: await net.primary.timelock.getAddress(),
        contracts: {
          SSTB: net.primary.sstb,
          CUToken: net.primary.cuToken,
          ProviderRegistry: net.primary.registry,
          MintingAgent: net.primary.mintingAgent,
          RedemptionManager: net.primary.redemptionManager,
          AttestationVerifier: net.primary.verifier,
          Bridge: net.primary.bridge,
          GovernanceChannel: net.primary.governanceChannel,
          ProtocolTimelock: net.primary.timelock,
        },
      },
      ...net.satellites.map((s) => ({
        governance: null as string | null,
        executor: s.executor,
        contracts: {
          SSTB: s.sstb,
          CUToken: s.cuToken,
          GovernanceToken: s.governanceToken,
          Bridge: s.bridge,
          GovernanceChannel: s.governanceChannel,
        },
      })),
    ];
    for (const [i, c] of chains.entries()) {
      const governance = c.governance ?? (await net.satellites[i - 1].executor.getAddress());
      const provider = connections[i].ethers.provider;
      const holdings = await currentRoleHolders(c.contracts);
      for (const h of holdings) {
        expect(h.account, `${CHAINS[i].chain} ${h.contract}`).to.not.equal(deployer);
        if (PRIVILEGED.includes(h.role)) {
          expect(await provider.getCode(h.account), `${CHAINS[i].chain} ${h.contract} ${h.role}`).to.not.equal("0x");
        }
      }
      const admins = holdings.filter((h) => h.role === Roles.DEFAULT_ADMIN).map((h) => h.account);
      expect(new Set(admins), CHAINS[i].chain).to.deep.equal(new Set([governance]));
      for (const contract of ["SSTB", "Bridge", "GovernanceChannel"]) {
        for (const r of [Roles.GOVERNANCE, Roles.UPGRADER]) {
          expect(holdings.filter((h) => h.contract === contract && h.role === r).map((h) => h.account)).to.deep.equal([
            governance,
          ]);
        }
      }
    }
    for (const s of net.satellites) {
      expect(await s.executor.primaryTimelock()).to.equal(await net.primary.timelock.getAddress());
      expect(await s.executor.primaryChainSelector()).to.equal(net.primary.selector);
      expect(await s.governanceChannel.executor()).to.equal(await s.executor.getAddress());
      expect(await s.executor.channel()).to.equal(await s.governanceChannel.getAddress());
      // each satellite's channel takes governance from arbitrum's only; arbitrum's sends to each
      expect(await s.governanceChannel.peerOf(net.primary.selector)).to.equal(
        await net.primary.governanceChannel.getAddress(),
      );
      expect(await net.primary.governanceChannel.peerOf(s.selector)).to.equal(await s.governanceChannel.getAddress());
    }
  });

  it("moves sSTB arbitrum -> polygon -> ethereum -> arbitrum and STBGOV out and back with each fee option, conserving supply", async function () {
    // the user: 2,000 sSTB and 2,000 STBGOV on arbitrum, mUSDC and approvals on every chain
    const treasury0 = role(0, "treasury");
    await (
      await net.primary.governanceToken.connect(treasury0).transfer(role(0, "user").address, parseEther("2000"))
    ).wait();
    await fundSstb();
    for (let i = 0; i < 3; i++) {
      const side = sideOf(i);
      const user = role(i, "user");
      await (await side.stablecoin.connect(user).mint(user.address, parseUnits("100", 6))).wait();
      for (const token of [side.stablecoin, side.sstb, side.governanceToken]) {
        await (await token.connect(user).approve(await side.bridge.getAddress(), 2n ** 256n - 1n)).wait();
      }
    }
    const supplyBefore = await totalSstb();

    const hops: Array<[number, number, "sstb" | "gov", bigint, number]> = [
      [0, 2, "sstb", parseEther("300"), FeeOption.default],
      [2, 1, "sstb", parseEther("200"), FeeOption.service],
      [1, 0, "sstb", parseEther("100"), FeeOption.default],
      [0, 1, "gov", parseEther("500"), FeeOption.stb_gov],
      [1, 0, "gov", parseEther("200"), FeeOption.stb_gov],
    ];
    for (const [from, to, token, amount, option] of hops) {
      const id = await send(from, to, token, amount, option);
      expect(await bridgeOf(from).messageStatus(id)).to.equal(Status.Sent);
      // in flight: burned (or escrowed) on the source, not yet minted
      const [result] = await relayer.poll();
      expect(result).to.include({ messageId: id, state: "success" });
      expect(await bridgeOf(to).messageStatus(id)).to.equal(Status.Completed);
    }
    expect(await totalSstb()).to.equal(supplyBefore);
    expect(await net.satellites[1].sstb.balanceOf(role(2, "user").address)).to.equal(
      parseEther("100") - parseEther("0.18"),
    );
    // STBGOV: arbitrum escrow == sum of satellite supplies
    const escrow = await net.primary.governanceToken.balanceOf(await net.primary.bridge.getAddress());
    const bridged =
      (await net.satellites[0].governanceToken.totalSupply()) + (await net.satellites[1].governanceToken.totalSupply());
    expect(escrow).to.equal(parseEther("300"));
    expect(bridged).to.equal(escrow);
  });

  it("is idempotent and resumable: a relayer rescanning from genesis delivers nothing twice, a restarted one resumes from its cursor file", async function () {
    const rescan = new Relayer(relayerChains(), { retryDelayMs: 0 });
    expect(await rescan.poll()).to.deep.equal([]);
    const id = await send(0, 1, "sstb", parseEther("10"), FeeOption.default);
    const restarted = await new Relayer(relayerChains(), { cursorFile, retryDelayMs: 0 }).load();
    expect(restarted.cursor().blocks).to.deep.equal(relayer.cursor().blocks);
    const results = await restarted.poll();
    expect(results.map((r) => r.messageId)).to.deep.equal([id]);
    // the original relayer, behind, finds it done
    expect(await relayer.poll()).to.deep.equal([]);
    relayer = restarted;
  });

  it("refuses a forged sender and a replay over JSON-RPC, changing nothing", async function () {
    const polygon = net.satellites[1];
    const router = polygon.router!.connect(role(2, "relayer"));
    const [event] = await net.primary.router!.queryFilter(net.primary.router!.filters.CCIPSendRequested());
    const supply = await polygon.sstb.totalSupply();
    // the same payload, claimed to come from an account instead of the arbitrum bridge
    const forged = await (
      await router.execute(
        net.primary.selector,
        1000n,
        role(2, "stranger").address,
        await polygon.bridge.getAddress(),
        event.args.data,
        200_000n,
        0n,
        { gasLimit: 400_000n },
      )
    ).wait();
    const state = forged!.logs
      .map((l) => router.interface.parseLog(l))
      .find((l) => l?.name === "ExecutionStateChanged")!;
    expect(state.args.state).to.equal(3n); // failure: BridgeUnknownPeer
    expect(await polygon.sstb.totalSupply()).to.equal(supply);
    await expect(
      router.execute(
        net.primary.selector,
        event.args.sequenceNumber,
        event.args.sender,
        event.args.receiver,
        event.args.data,
        event.args.gasLimit,
        0n,
        { gasLimit: 400_000n },
      ),
    ).to.be.revertedWithCustomError(router, "AlreadyExecuted");
  });

  it("holds sends above the outbound limit, queues deliveries above the inbound limit or under a pause, and delivers them later", async function () {
    // outbound: 1,000 per bucket; more is refused at once
    await expect(send(0, 1, "sstb", parseEther("1001"), FeeOption.default)).to.be.revertedWithCustomError(
      net.primary.bridge,
      "TokenBucketExceeded",
    );
    // inbound on ethereum: two sends from two chains exceed its arbitrum bucket only if both come from arbitrum
    const ethereum = net.satellites[0].bridge;
    await increaseTime(0, 2_000n);
    const big = await send(0, 1, "sstb", parseEther("900"), FeeOption.default);
    await relayer.poll();
    // 10 arrived earlier from arbitrum: the ethereum inbound bucket had about 990 + refill, 900 fit
    expect(await ethereum.messageStatus(big)).to.equal(Status.Completed);
    await increaseTime(0, 2_000n);
    const over = await send(0, 1, "sstb", parseEther("500"), FeeOption.default);
    await relayer.poll();
    expect(await ethereum.messageStatus(over)).to.equal(Status.Queued);
    await expect(ethereum.executeQueued(over)).to.be.revertedWithCustomError(ethereum, "TokenBucketExceeded");
    await increaseTime(1, 600n);
    await (await ethereum.connect(role(1, "stranger")).executeQueued(over)).wait();
    expect(await ethereum.messageStatus(over)).to.equal(Status.Completed);

    // pause on polygon by its guardian: a delivery arriving then waits, and completes after the pause lapses
    const polygon = net.satellites[1].bridge;
    await (await polygon.connect(role(2, "guardian")).pause()).wait();
    const late = await send(0, 2, "sstb", parseEther("10"), FeeOption.default);
    await relayer.poll();
    expect(await polygon.messageStatus(late)).to.equal(Status.Queued);
    await increaseTime(2, GUARDIAN_PAUSE);
    await (await polygon.connect(role(2, "stranger")).executeQueued(late)).wait();
    expect(await polygon.messageStatus(late)).to.equal(Status.Completed);
  });

  it("runs an arbitrum proposal on a satellite: timelock -> governance channel -> executor; a delivery short of gas fails and is re-executed with more", async function () {
    const treasury = role(0, "treasury");
    const { governor, timelock, governanceToken } = net.primary;
    await (await governanceToken.connect(treasury).delegate(treasury.address)).wait();
    await (await treasury.sendTransaction({ to: await timelock.getAddress(), value: parseEther("1") })).wait();
    const ethereum = net.satellites[0];
    const setFee = await contractCall(ethereum.bridge, "setFee", [25n]);
    const call = { target: setFee.target, value: 0n, data: setFee.calldata };
    // 50,000 gas is too little for the executor's call: the first delivery fails
    const proposal = proposalOf(
      [
        {
          ...(await contractCall(net.primary.governanceChannel, "sendGovernanceMessage", [
            ethereum.selector,
            [call],
            50_000n,
          ])),
          value: FEE,
        },
      ],
      "Ethereum bridge: fee to 25 bps",
    );
    const { proposalId } = await propose(governor, treasury, proposal);
    await increaseTime(0, LOCAL_GOVERNANCE.votingDelay + 1n);
    await (await governor.connect(treasury).castVote(proposalId, Vote.For)).wait();
    await increaseTime(0, LOCAL_GOVERNANCE.votingPeriod);
    await queue(governor, treasury, proposal);
    await increaseTime(0, LOCAL_GOVERNANCE.timelockDelay);
    await execute(governor, treasury, proposal);

    const [failed] = await relayer.poll();
    expect(failed.state).to.equal("failure");
    expect(await ethereum.bridge.feeBps()).to.equal(10n);
    const channel = net.primary.governanceChannel;
    const sent = await channel.queryFilter(channel.filters.GovernanceMessageSent());
    const messageId = sent.at(-1)!.args.messageId;
    const request = (await net.primary.router!.queryFilter(net.primary.router!.filters.CCIPSendRequested())).find(
      (e) => e.args.messageId === messageId,
    )!;
    const router = ethereum.router!.connect(role(1, "relayer"));
    const a = request.args;
    await (
      await router.execute(net.primary.selector, a.sequenceNumber, a.sender, a.receiver, a.data, a.gasLimit, 300_000n, {
        gasLimit: 600_000n,
      })
    ).wait();
    expect(await ethereum.bridge.feeBps()).to.equal(25n);
    // the channel, not the bridge, carries governance now: the re-executed message is executed there
    expect(await ethereum.governanceChannel.messageStatus(messageId)).to.equal(CHANNEL_EXECUTED);
    // nobody else can reach the executor
    await expect(
      ethereum.executor
        .connect(role(1, "stranger"))
        .executeFromPrimary(net.primary.selector, await timelock.getAddress(), [call]),
    ).to.be.revertedWithCustomError(ethereum.executor, "ExecutorOnlyChannel");
  });

  /** Every chain's sSTB supply plus what is in flight (sent, not yet delivered). */
  async function totalSstb(): Promise<bigint> {
    let total = 0n;
    for (let i = 0; i < 3; i++) total += await sideOf(i).sstb.totalSupply();
    return total;
  }

  /** Gives the user 2,000 sSTB on arbitrum, acting as the timelock (the sSTB admin after the
   * hand-off) through the test node's impersonation; minting for real takes a provider. */
  async function fundSstb(): Promise<void> {
    const timelock = await net.primary.timelock.getAddress();
    const rpc = connections[0].ethers.provider;
    await rpc.send("hardhat_impersonateAccount", [timelock]);
    await rpc.send("hardhat_setBalance", [timelock, "0x56BC75E2D63100000"]);
    const asTimelock = await connections[0].ethers.getSigner(timelock);
    const sstb = net.primary.sstb.connect(asTimelock);
    await (await sstb.grantRole(Roles.MINTER, timelock)).wait();
    await (await sstb.mint(role(0, "user").address, parseEther("2000"))).wait();
    await (await sstb.revokeRole(Roles.MINTER, timelock)).wait();
    await rpc.send("hardhat_stopImpersonatingAccount", [timelock]);
  }
});
