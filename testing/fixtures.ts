import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { network } from "hardhat";
import { JsonRpcProvider, keccak256, parseEther, parseUnits, toUtf8Bytes } from "ethers";
import type { JsonRpcSigner, Wallet } from "ethers";

import {
  approveRedemptionSync,
  attestationDomain,
  buildProof,
  chainSelectorOf,
  createProtocolClient,
  cuHashOf,
  FeeOption,
  fulfilRedemptionSync,
  generateAccessKeyPair,
  hashReviewedProfile,
  initiateRedemptionSync,
  IssueType,
  randomNonce,
} from "@compute-capacity/sdk";
import type { ProtocolClient } from "@compute-capacity/sdk";
import type { GatewayConfig } from "../gateway/config.js";
import { sampleVerifierKeys } from "../gateway/verification/keys.js";
import { startGateway } from "../gateway/server.js";
import type { Gateway, StartOptions } from "../gateway/server.js";
import { addressesOf, deployPrimary } from "../deploy/deploy.js";
import { DEVNET_LIMITS, DEVNET_TRANSPORT_FEE } from "../devnet/devnet.js";
import type { PrimaryDeployment } from "../deploy/deploy.js";
import { gatherDeployment, readDeploymentFile, writeDeploymentFile } from "../deploy/environments.js";
import { Relayer } from "../devnet/relayer.js";
import type { RelayedMessage } from "../devnet/relayer.js";
import { DevnetCCIPRouter__factory, MockBlacklistStablecoin__factory } from "../typechain-types/index.js";
import { startLocalNode } from "../devnet/local-node.js";
import { deployLocalNetwork } from "../devnet/network.js";
import type { LocalNode } from "../devnet/local-node.js";
import { runScenario } from "../devnet/demo.js";
import { SAMPLE_SPECS, localDeployOptions, sampleAccessDetails, sampleProfile } from "../devnet/samples.js";

const DAY = 86_400n;

/** A devnet-style deployment on real `hardhat node`s: arbitrum (primary) and ethereum (satellite). */
export interface LiveDeployment {
  nodes: LocalNode[];
  rpc: JsonRpcProvider;
  d: PrimaryDeployment;
  signers: JsonRpcSigner[];
  verifierKeys: Wallet[];
  deploymentFile: string;
  dir: string;
  stop(): Promise<void>;
}

/** Starts the nodes, deploys through Ignition and writes `devnet.json` (with chain ids and RPC URLs) in a temporary folder. */
export async function startLiveDeployment(
  label: string,
  options: {
    satellite?: boolean;
    /**
     * Collateral (and the markets' payment token) that can blacklist accounts as native USDC does
     * (MockBlacklistStablecoin; signer 0 blacklists): for payments a recipient cannot receive.
     */
    blacklistableCollateral?: boolean;
  } = {},
): Promise<LiveDeployment> {
  const dir = await mkdtemp(path.join(tmpdir(), `gateway-${label}-`));
  const chains =
    options.satellite === false
      ? [{ chain: "arbitrum", chainId: 42161n }]
      : [
          { chain: "arbitrum", chainId: 42161n },
          { chain: "ethereum", chainId: 1n },
        ];
  const nodes = await Promise.all(chains.map((c) => startLocalNode({ chainId: c.chainId })));
  const ids = chains.map((c) => `test-gateway-${label}-${c.chain}-${process.pid}-${Date.now()}`);
  const ignitionDir = path.join("ignition", "deployments");
  try {
    const connection = await network.create({ network: "devnetArbitrum", override: { url: nodes[0].url } });
    const signers = (await connection.ethers.getSigners()) as unknown as JsonRpcSigner[];
    const verifierKeys = sampleVerifierKeys("gateway-test");
    const accounts = { treasury: signers[1], approver: signers[2], arbitrator: signers[3], guardian: signers[4] };
    const collateralToken =
      options.blacklistableCollateral === true
        ? await (
            await (await new MockBlacklistStablecoin__factory(signers[0]).deploy()).waitForDeployment()
          ).getAddress()
        : undefined;
    const collateral = collateralToken === undefined ? {} : { collateralToken };
    let d: PrimaryDeployment;
    if (chains.length > 1) {
      // the primary and a satellite as the devnet deploys them: bridges, routes and the hand-off
      const satellite = await network.create({ network: "devnetEthereum", override: { url: nodes[1].url } });
      const deployed = await deployLocalNetwork(
        { chain: "arbitrum", connection, deploymentId: ids[0] },
        [{ chain: "ethereum", connection: satellite, deploymentId: ids[1] }],
        {
          accounts,
          verifierKeys,
          relayer: signers[8].address,
          transportFee: DEVNET_TRANSPORT_FEE,
          limits: DEVNET_LIMITS,
          ...collateral,
        },
      );
      // the deployment's contracts, without the chain name and CCIP selector the network adds
      const { chain: _chain, selector: _selector, ...primary } = deployed.primary;
      d = primary;
      await satellite.close();
    } else {
      d = await deployPrimary(
        connection,
        localDeployOptions(accounts, verifierKeys, { deploymentId: ids[0], ...collateral }),
      );
    }
    await addressesOf(d);
    const record = await gatherDeployment(
      chains.map((c, i) => ({ chain: c.chain, deploymentId: ids[i] })),
      ignitionDir,
    );
    const deploymentFile = await writeDeploymentFile(
      "devnet",
      record,
      dir,
      Object.fromEntries(chains.map((c, i) => [c.chain, { chainId: c.chainId, rpcUrl: nodes[i].url }])),
    );
    const rpc = new JsonRpcProvider(nodes[0].url, 42161, { staticNetwork: true, cacheTimeout: -1 });
    rpc.pollingInterval = 50;
    return {
      nodes,
      rpc,
      d,
      signers,
      verifierKeys,
      deploymentFile,
      dir,
      async stop() {
        rpc.destroy();
        await connection.close();
        await Promise.all(nodes.map((n) => n.stop()));
        for (const id of ids) await rm(path.join(ignitionDir, id), { recursive: true, force: true });
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await Promise.all(nodes.map((n) => n.stop()));
    for (const id of ids) await rm(path.join(ignitionDir, id), { recursive: true, force: true });
    throw error;
  }
}

/** Account indexes of the node's test accounts in a live deployment. */
export const ROLE = {
  approver: 2,
  arbitrator: 3,
  providerA: 5,
  user: 6,
  keeper: 7,
  providerB: 8,
  /** The devnet routers' relayer (also provider B: relaying is only router calls). */
  relayer: 8,
  providerC: 9,
  providerD: 10,
  user2: 11,
} as const;

/**
 * An SDK client on the live deployment's primary chain for the account of `role`: the contracts the
 * redemption actions use (the manager, its views, sSTB), as a holder's or a provider's program makes one.
 */
export async function protocolClientOf(live: LiveDeployment, role: keyof typeof ROLE): Promise<ProtocolClient> {
  const deployment = {
    RedemptionManager: await live.d.redemptionManager.getAddress(),
    RedemptionViews: await live.d.redemptionViews.getAddress(),
    SSTB: await live.d.sstb.getAddress(),
  };
  return createProtocolClient({ runner: live.signers[ROLE[role]], deployment, chainId: 42161n });
}

/** Registers a provider with a profile of its own and, unless `pending`, has it approved. */
export async function registerProvider(
  live: LiveDeployment,
  signer: JsonRpcSigner,
  profile: ReturnType<typeof sampleProfile>,
  tier: number,
  approve = true,
): Promise<void> {
  const { registry } = live.d;
  await (await registry.connect(signer).register(profile, tier)).wait();
  if (approve) {
    await (
      await registry
        .connect(live.signers[ROLE.approver])
        .approveProvider(signer.address, hashReviewedProfile(profile, tier))
    ).wait();
  }
}

/** Deposits the collateral a mint of `value` needs and mints a verified unit of that value (2-of-3 attestation). */
export async function mintUnit(
  live: LiveDeployment,
  signer: JsonRpcSigner,
  value: bigint,
  specs = SAMPLE_SPECS,
): Promise<void> {
  const { registry, collateral, mintingAgent, verifier } = live.d;
  const needed = await registry.requiredCollateral(value);
  await (await collateral.connect(signer).mint(signer.address, needed)).wait();
  await (await collateral.connect(signer).approve(await registry.getAddress(), needed)).wait();
  await (await registry.connect(signer).depositCollateral(needed)).wait();
  const now = BigInt((await live.rpc.getBlock("latest"))!.timestamp);
  const proof = await buildProof(
    {
      provider: signer.address,
      cuHash: cuHashOf({ provider: signer.address, value: value.toString(), nonce: randomNonce().toString() }),
      cuValue: value,
      specs,
      expiry: now + DAY,
      nonce: randomNonce(),
    },
    attestationDomain(42161n, await verifier.getAddress()),
    live.verifierKeys.slice(0, 2),
  );
  await (await mintingAgent.connect(signer).verifyAndMintSSTB(proof, 0n, 30n * DAY)).wait();
}

/**
 * The demo scenario (`npm start`'s) on a live deployment, with the devnet's accounts: approver #2,
 * provider A #5, user #6, keeper #7. Leaves provider A active with unit 1, redemptions 1 (confirmed)
 * and 2 (expired), listings 1-3, and the user holding sSTB.
 */
export async function runLiveScenario(live: LiveDeployment): Promise<void> {
  const s = live.signers;
  await runScenario(
    live.rpc,
    live.d,
    { approver: s[ROLE.approver], provider: s[ROLE.providerA], user: s[ROLE.user], keeper: s[ROLE.keeper] },
    live.verifierKeys,
    () => {},
  );
}

/**
 * The data every route is tested against: the demo scenario (provider A, unit 1, redemptions 1
 * confirmed and 2 expired), provider B (active, units 2 and 3), C (pending), D (active, unit 4,
 * then suspended), redemptions 3 pending, 4 disputed and 5 fulfilled with provider B, and market
 * listings 1-7 (the scenario's 1-3, B's spot 4, future 5, call 6, cancelled spot 7).
 */
export async function populate(live: LiveDeployment): Promise<void> {
  const s = live.signers;
  await runLiveScenario(live);
  await registerProvider(
    live,
    s[ROLE.providerB],
    { ...sampleProfile("Borealis Cloud"), country: "CA", region: "na-east" },
    0,
  );
  await mintUnit(live, s[ROLE.providerB], parseEther("40"), { ...SAMPLE_SPECS, cpuCores: 16, ramGb: 64 });
  await mintUnit(live, s[ROLE.providerB], parseEther("250.5"), { ...SAMPLE_SPECS, cpuCores: 128, ramGb: 1024 });
  await registerProvider(
    live,
    s[ROLE.providerC],
    { ...sampleProfile("Cirrus Labs"), country: "SG", region: "ap-southeast" },
    2,
    false,
  );
  await registerProvider(
    live,
    s[ROLE.providerD],
    { ...sampleProfile("Delta Hosting"), country: "DE", region: "eu-west" },
    0,
  );
  await mintUnit(live, s[ROLE.providerD], parseEther("10"));
  await (await live.d.registry.connect(s[ROLE.arbitrator]).suspendProvider(s[ROLE.providerD].address)).wait();

  const { sstb, redemptionManager: manager } = live.d;
  const user = s[ROLE.user];
  const B = s[ROLE.providerB];
  await (await sstb.connect(B).transfer(user.address, parseEther("30"))).wait();
  const addresses = await addressesOf(live.d);
  const clientOf = (runner: JsonRpcSigner): ProtocolClient => ({ runner, chainId: 42161n, addresses });
  const redeem = async (amount: bigint) => {
    await approveRedemptionSync(clientOf(user), { amount });
    return (await initiateRedemptionSync(clientOf(user), { amount, provider: B.address })).redemptionId;
  };
  const keys = generateAccessKeyPair();
  const fulfil = (redemptionId: bigint) =>
    fulfilRedemptionSync(clientOf(B), {
      redemptionId,
      details: sampleAccessDetails(redemptionId),
      userPublicKey: keys.publicKey,
    });
  await redeem(parseEther("3")); // 3: pending
  const disputed = await redeem(parseEther("4")); // 4: disputed
  await fulfil(disputed);
  await (
    await manager.connect(user).openDispute(disputed, IssueType.ResourceMismatch, keccak256(toUtf8Bytes("evidence")))
  ).wait();
  await fulfil(await redeem(parseEther("2"))); // 5: fulfilled

  // markets (the scenario left spot #1 active, future #2 settled, call #3 exercised): provider B
  // lists spot #4, offers future #5, writes call #6, lists spot #7 and cancels it
  const { spotMarket: spot, futuresMarket: futures, optionsMarket: options } = live.d;
  for (const market of [spot, futures, options]) {
    await (await sstb.connect(B).approve(await market.getAddress(), parseEther("1000"))).wait();
  }
  const now = BigInt((await live.rpc.getBlock("latest"))!.timestamp);
  await (await spot.connect(B).createListing(parseEther("30"), parseUnits("2.25", 6), now + 2n * DAY)).wait();
  await (await futures.connect(B).offerToSell(parseEther("8"), parseUnits("1.9", 6), now + 7n * DAY)).wait();
  await (
    await options.connect(B).writeCall(parseEther("4"), parseUnits("2.5", 6), parseUnits("0.2", 6), now + 30n * DAY)
  ).wait();
  await (await spot.connect(B).createListing(parseEther("5"), parseUnits("3", 6), now + 2n * DAY)).wait();
  await (await spot.connect(B).cancel(7)).wait();
}

/**
 * The master key of every test gateway, in process or spawned (`GATEWAY_ACCOUNT_KEY`): gateways of one
 * test that share a PostgreSQL database share it, as an operator's instances do (decision 0167), while
 * each keeps a data folder of its own.
 */
export const TEST_ACCOUNT_KEY = "7e57".repeat(16);

/**
 * Where test gateways keep the migrated, empty PGlite database their folders start from (the devnet's
 * default folder: `.gateway/pglite-templates`, decision 0177).
 */
export const TEST_PGLITE_TEMPLATES = path.resolve(import.meta.dirname, "..", ".gateway", "pglite-templates");

/**
 * Gateway configuration for a test: a free port, PGlite in a temporary folder (a copy of the migrated
 * template) unless DATABASE_URL is set.
 */
export function testConfig(live: LiveDeployment, overrides: Partial<GatewayConfig> = {}): GatewayConfig {
  return {
    accountKey: TEST_ACCOUNT_KEY,
    host: "127.0.0.1",
    port: 0,
    environment: "devnet",
    deploymentFile: live.deploymentFile,
    ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
    dataDir: path.join(live.dir, "gateway"),
    pgliteTemplates: TEST_PGLITE_TEMPLATES,
    jwtSecret: "test-secret-of-at-least-thirty-two-characters",
    confirmations: {},
    defaultConfirmations: 0,
    rpcUrls: {},
    pollIntervalMs: 50,
    batchBlocks: 500,
    ...overrides,
  };
}

/** A fresh database for a test on PostgreSQL: drops the gateway's tables. */
export async function resetDatabase(): Promise<void> {
  if (!process.env.DATABASE_URL) return;
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(
      "DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public; DROP SCHEMA IF EXISTS drizzle CASCADE;",
    );
  } finally {
    await client.end();
  }
}

/** Starts a gateway on a fresh database and waits until it has indexed the chains. */
export async function startTestGateway(
  live: LiveDeployment,
  overrides: Partial<GatewayConfig> = {},
  options: StartOptions = {},
): Promise<Gateway> {
  await resetDatabase();
  const gateway = await startGateway(testConfig(live, overrides), options);
  if (options.index !== false) {
    try {
      await gateway.synced();
    } catch (error) {
      // not left running (its indexers polling) behind the file's failed `before`
      await gateway.close();
      throw error;
    }
  }
  return gateway;
}

/** A bridge transfer of the live deployment: `amount` sSTB from `from` on arbitrum to the same address on ethereum, fee in the stablecoin. */
export async function bridgeSstbToEthereum(
  live: LiveDeployment,
  from: JsonRpcSigner,
  amount: bigint,
): Promise<{ messageId: string; txHash: string }> {
  const { bridge, sstb, collateral } = live.d;
  const destination = chainSelectorOf(1n);
  const quote = await bridge.quoteFee(destination, await sstb.getAddress(), amount);
  await (await collateral.connect(from).mint(from.address, quote.defaultFee)).wait();
  await (await collateral.connect(from).approve(await bridge.getAddress(), quote.defaultFee)).wait();
  await (await sstb.connect(from).approve(await bridge.getAddress(), amount)).wait();
  const receipt = await (
    await bridge.connect(from).send(destination, from.address, await sstb.getAddress(), amount, FeeOption.default, {
      value: quote.transportFee,
    })
  ).wait();
  const sent = receipt!.logs
    .map((log) => bridge.interface.parseLog(log))
    .find((parsed) => parsed?.name === "MessageSent");
  return { messageId: sent!.args.messageId as string, txHash: receipt!.hash };
}

/** Delivers every CCIP message sent so far between the live deployment's chains (the devnet relayer, one pass). */
export async function relayMessages(live: LiveDeployment): Promise<RelayedMessage[]> {
  const chains = await readDeploymentFile(live.deploymentFile);
  const relayer = new Relayer(
    await Promise.all(
      chains.map(async (c, i) => {
        const provider = new JsonRpcProvider(live.nodes[i].url, c.chainId, { staticNetwork: true, cacheTimeout: -1 });
        const signer = await provider.getSigner(live.signers[ROLE.relayer].address);
        return {
          name: c.chain,
          selector: chainSelectorOf(c.chainId!),
          router: DevnetCCIPRouter__factory.connect(c.contracts.DevnetCCIPRouter, signer),
        };
      }),
    ),
  );
  return relayer.poll();
}

/** A gateway started as its own process (`gateway/cli.ts`), up and serving. */
export interface GatewayProcess {
  /** Where it listens (from its start line). */
  url: string;
  pid: number;
  /** Everything it printed so far. */
  output(): string;
  /**
   * Resolves once `/readyz` answers 200 (the database answers and every indexer has caught up), as
   * a load balancer would wait before it routes traffic; throws with the last report after `timeoutMs`.
   */
  ready(timeoutMs?: number): Promise<void>;
  /** SIGKILL, then resolves once it is gone. */
  kill(): Promise<void>;
  /** Sends `signal` (SIGTERM: a graceful stop) and resolves with how it exited and when. */
  terminate(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
}

/**
 * Starts the gateway command as a node process (node itself, not the tsx wrapper, so a signal
 * reaches the process that serves) and resolves once it says it is up.
 */
export async function spawnGatewayProcess(
  env: NodeJS.ProcessEnv,
  options: { args?: string[]; cwd?: string } = {},
): Promise<GatewayProcess> {
  // the start line ("Gateway on <url>") is logged at info: a quieter level would hide it
  if (["warn", "error", "fatal", "silent"].includes(env.GATEWAY_LOG_LEVEL ?? "info")) {
    throw new Error(`spawnGatewayProcess needs GATEWAY_LOG_LEVEL info or lower (not ${env.GATEWAY_LOG_LEVEL})`);
  }
  // `args`: Node's arguments (default: the CLI's TypeScript source under tsx, from this repository)
  const child = spawn(process.execPath, options.args ?? ["--import", "tsx", "gateway/cli.ts", "serve"], {
    // the tests' one master key unless the test names another (or none: an empty value)
    env: { GATEWAY_ACCOUNT_KEY: TEST_ACCOUNT_KEY, ...env },
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // not left running behind a failed test
      child.kill("SIGKILL");
      reject(new Error(`the gateway did not start within 60 s: ${output}`));
    }, 60_000);
    const onData = (c: Buffer) => {
      output += c.toString();
      const started = /Gateway on (https?:\/\/[^\s"]+)/.exec(output);
      if (started !== null) {
        clearTimeout(timer);
        resolve(started[1]);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    void exited.then(() => reject(new Error(`the gateway exited before it started: ${output}`)));
  });
  return {
    url,
    pid: child.pid!,
    output: () => output,
    async ready(timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs;
      let last = "no answer";
      for (;;) {
        const answer = await fetch(`${url}/readyz`).then(
          async (r) => ({ status: r.status, text: await r.text() }),
          (error: Error) => ({ status: 0, text: error.message }),
        );
        if (answer.status === 200) return;
        last = `${answer.status} ${answer.text}`;
        if (Date.now() > until) throw new Error(`the gateway was not ready after ${timeoutMs} ms: ${last}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async kill() {
      child.kill("SIGKILL");
      await exited;
    },
    async terminate(signal = "SIGTERM") {
      const sent = Date.now();
      child.kill(signal);
      const how = await exited;
      return { ...how, ms: Date.now() - sent };
    },
  };
}

/**
 * The integration tier's one live deployment per run (docs/testing.md, decision 0120): the devnet's
 * primary and satellite with a blacklistable stablecoin as collateral (as native USDC is), deployed once
 * by the root hook (testing/root-hooks.ts) when the run holds an integration test file, and handed to
 * each file by {@link sharedLiveDeployment}.
 */
interface SharedDeployment {
  live: LiveDeployment;
  /** `devnet.json` with the primary alone, for a file that asks for no satellite. */
  primaryOnlyFile: string;
  /** Per node, the `evm_snapshot` of the chain as the deployment left it (a revert consumes it). */
  snapshots: string[];
}

let shared: Promise<SharedDeployment> | undefined;

/** A JSON-RPC call to a node outside any provider (nothing caches, polls or batches it). */
async function nodeCall<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.error !== undefined) throw new Error(`${method} on ${url}: ${body.error.message}`);
  return body.result as T;
}

/** Starts the run's shared deployment once; later calls (and a failed start's retry) share the promise. */
export function startSharedDeployment(): Promise<SharedDeployment> {
  shared ??= (async () => {
    const live = await startLiveDeployment("shared", { blacklistableCollateral: true });
    try {
      const chains = JSON.parse(await readFile(live.deploymentFile, "utf8")) as Record<string, unknown>;
      const primaryOnlyFile = path.join(live.dir, "primary-only.json");
      await writeFile(primaryOnlyFile, JSON.stringify({ arbitrum: chains.arbitrum }, null, 2) + "\n");
      const snapshots = await Promise.all(live.nodes.map((n) => nodeCall<string>(n.url, "evm_snapshot")));
      return { live, primaryOnlyFile, snapshots };
    } catch (error) {
      await live.stop();
      throw error;
    }
  })();
  shared.catch(() => (shared = undefined));
  return shared;
}

/** Stops the shared deployment if this run started one (the root hook's `afterAll`). */
export async function stopSharedDeployment(): Promise<void> {
  const started = shared;
  shared = undefined;
  const deployment = await started?.catch(() => undefined);
  await deployment?.live.stop();
}

/**
 * The run's shared deployment for one test file, its chains back where the deployment left them
 * (`evm_revert` to the snapshot taken after it, then a new snapshot, automining on again: a mining
 * mode is not part of a snapshot), so that what an earlier file did on chain is gone, as if the file
 * had deployed its own. The file gets a folder of its own (`dir`, where {@link testConfig} puts a
 * PGlite database) with its own copy of `devnet.json`; `satellite: false` gives it the primary alone
 * (a gateway on it indexes one chain). `stop()` removes the folder; the nodes stay up for the next
 * file and stop with the run. Outside a run with the root hook (a script), the first call deploys.
 */
export async function sharedLiveDeployment(
  label: string,
  options: { satellite?: boolean } = {},
): Promise<LiveDeployment> {
  const deployment = await startSharedDeployment();
  const { live } = deployment;
  for (const [i, node] of live.nodes.entries()) {
    if (!(await nodeCall<boolean>(node.url, "evm_revert", [deployment.snapshots[i]]))) {
      throw new Error(`could not revert ${node.url} to the shared deployment's snapshot`);
    }
    deployment.snapshots[i] = await nodeCall<string>(node.url, "evm_snapshot");
    await nodeCall(node.url, "evm_setAutomine", [true]);
  }
  const satellite = options.satellite !== false;
  const dir = await mkdtemp(path.join(tmpdir(), `gateway-${label}-`));
  const deploymentFile = path.join(dir, "devnet.json");
  await writeFile(deploymentFile, await readFile(satellite ? live.deploymentFile : deployment.primaryOnlyFile));
  return {
    ...live,
    nodes: satellite ? live.nodes : live.nodes.slice(0, 1),
    deploymentFile,
    dir,
    async stop() {
      await rm(dir, { recursive: true, force: true });
    },
  };
}
