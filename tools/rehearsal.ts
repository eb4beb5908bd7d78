import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";

import { JsonRpcProvider, JsonRpcSigner, Network, Wallet, parseEther, parseUnits } from "ethers";
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

import { CHAINS, chainSelectorOf } from "@compute-capacity/sdk";
import type { ChainName } from "@compute-capacity/sdk";
import { checkEnvironment, formatReport } from "../deploy/check-deployment.js";
import type { CheckReport } from "../deploy/check-deployment.js";
import { chainsOf, deploymentIdOf, parameterFileOf } from "../deploy/environments.js";
import { isPlaceholder } from "../deploy/parameter-overrides.js";
import type { ParameterOverrides } from "../deploy/parameter-overrides.js";
import { bridgeTransfer } from "../devnet/bridge-demo.js";
import type { BridgeHop } from "../devnet/bridge-demo.js";
import { startLocalNode } from "../devnet/local-node.js";
import type { LocalNode } from "../devnet/local-node.js";
import { Relayer } from "../devnet/relayer.js";
import { placeStandIn } from "../devnet/stand-ins.js";
import {
  Bridge__factory,
  DevnetCCIPRouter__factory,
  GovernanceToken__factory,
  MockBlacklistStablecoin__factory,
  SSTB__factory,
} from "../typechain-types/index.js";

import { everyRouteOnce } from "./rehearsal-routes.js";

/**
 * A rehearsal of a real environment's deployment on local chains (`npm run rehearse:mainnet`):
 *
 * 1. a `hardhat node` per chain, with the chain's real id;
 * 2. stand-ins at every address the committed parameter files name (USDC: a 6-decimal token with
 *    a blacklist; the CCIP router: the devnet's router, which the devnet's relayer drives), put there
 *    with `hardhat_setCode` and `hardhat_setStorageAt` ({@link placeStandIn});
 * 3. the real deployment command (`npm run deploy`, the `deploy-protocol` task) as a child process,
 *    pointed at the nodes by the networks' RPC variables (`ARBITRUM_RPC_URL`, …), with a fresh
 *    deployer key in `DEPLOYER_PRIVATE_KEY` and the placeholders filled by an overrides file, as a
 *    deployer runs it; recorded under a name of its own, so it never touches a real deployment's
 *    journals or deployments file;
 * 4. the post-deployment check ({@link checkEnvironment}), as deployers run it afterwards;
 * 5. a transfer of each token across every directed route, carried by the devnet's relayer through
 *    the stand-in routers, paying the protocol fee in the stand-in USDC.
 */

/** What a rehearsal stands in for a parameter file's address field: a contract, and its constructor's arguments. */
interface StandInContext {
  chain: ChainName;
  /** The relayer that executes messages on the stand-in routers. */
  relayer: string;
  /** The CCIP selectors of the environment's other chains. */
  remoteSelectors: bigint[];
}

/** Native fee per message on the stand-in routers (CCIP's real fee is quoted by its router; any positive one exercises the path). */
export const REHEARSAL_TRANSPORT_FEE = parseEther("0.0001");

/**
 * The stand-in of each address field a committed parameter file may name. A field not listed here
 * makes the rehearsal refuse the file, so a new dependency of the deployment is never left out.
 */
export const STAND_INS: Record<string, { contract: string; args(context: StandInContext): unknown[] }> = {
  // Circle's native USDC: 6 decimals and a blacklist (its transfers revert for blacklisted accounts)
  collateralToken: { contract: "MockBlacklistStablecoin", args: () => [] },
  // Chainlink's CCIP router: the devnet router, on the chain's real selector, driven by the relayer
  ccipRouter: {
    contract: "DevnetCCIPRouter",
    args: ({ chain, relayer, remoteSelectors }) => [
      chainSelectorOf(CHAINS[chain].chainId),
      relayer,
      REHEARSAL_TRANSPORT_FEE,
      remoteSelectors,
    ],
  },
};

/** The accounts a deployer would bring: a fresh deployer key and the multisigs and verifier keys of the overrides file. */
export interface RehearsalAccounts {
  deployer: Wallet;
  treasury: Wallet;
  approver: Wallet;
  arbitrator: Wallet;
  guardian: Wallet;
  verifiers: Wallet[];
  /** Runs the stand-ins' deployments (the blacklister of the USDC stand-in). */
  standIns: Wallet;
  /** Executes messages on the stand-in routers. */
  relayer: Wallet;
  /** Moves tokens across the routes. */
  user: Wallet;
}

/** How long each part took, in seconds. */
export interface RehearsalTimings {
  nodes: number;
  standIns: number;
  deployment: number;
  check: number;
  transfers: number;
  total: number;
}

export interface RehearsalOptions {
  /** The environment to rehearse (default mainnet). */
  environment?: string;
  /** Progress lines; the deployment command's own output is passed through with a prefix. */
  log?: (line: string) => void;
  /** Leave the nodes running and the records in place (for a test that goes on); call `stop()` after. */
  keepRunning?: boolean;
}

/** A rehearsal that ran: its chains, records, the check's report, the transfers, the timings. */
export interface Rehearsal {
  environment: string;
  /** The name the deployment is recorded under (journals `ignition/deployments/<name>-<chain>`). */
  recordAs: string;
  nodes: Record<string, LocalNode>;
  accounts: RehearsalAccounts;
  overridesFile: string;
  deploymentFile: string;
  /** The post-deployment check right after the deployment. */
  report: CheckReport;
  hops: BridgeHop[];
  timings: RehearsalTimings;
  /** Runs the post-deployment check again (e.g. after changing something on the chains). */
  check(): Promise<CheckReport>;
  /** The RPC variables and deployer key the deployment command ran with (to run another command the same way). */
  commandEnv: Record<string, string>;
  /** Stops the nodes and removes the records (journals, deployments file, overrides). */
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);

/** Runs a rehearsal of `environment` (default mainnet) on local nodes; see the module's comment. */
export async function rehearse(hre: HardhatRuntimeEnvironment, options: RehearsalOptions = {}): Promise<Rehearsal> {
  const environment = options.environment ?? "mainnet";
  const log = options.log ?? (() => {});
  const chains = chainsOf(environment);
  const root = hre.config.paths.root;
  const recordAs = `rehearsal-${environment}-${process.pid}-${Date.now()}`;
  const work = await mkdtemp(path.join(tmpdir(), `${recordAs}-`));
  const started = performance.now();
  const seconds = (from: number) => (performance.now() - from) / 1000;
  const nodes: Record<string, LocalNode> = {};
  const providers: JsonRpcProvider[] = [];

  const cleanUp = async () => {
    for (const provider of providers) provider.destroy();
    await Promise.all(Object.values(nodes).map((n) => n.stop()));
    for (const { chain } of chains) {
      await rm(path.join(hre.config.paths.ignition, "deployments", deploymentIdOf(recordAs, chain)), {
        recursive: true,
        force: true,
      });
    }
    await rm(path.join(root, "deployments", `${recordAs}.json`), { force: true });
    await rm(work, { recursive: true, force: true });
  };

  try {
    // 1. the chains, with their real ids
    let from = performance.now();
    const startedNodes = await Promise.allSettled(
      // a generous wait: on a busy shared machine a node has taken over 30 s to answer
      chains.map(({ chain }) => startLocalNode({ chainId: CHAINS[chain].chainId, cwd: root, readyTimeoutMs: 180_000 })),
    );
    startedNodes.forEach((s, i) => s.status === "fulfilled" && (nodes[chains[i].chain] = s.value));
    const failed = startedNodes.find((s) => s.status === "rejected");
    if (failed !== undefined) throw (failed as PromiseRejectedResult).reason;
    const nodesSeconds = seconds(from);
    for (const { chain } of chains) {
      log(`${chain.padEnd(16)} chain id ${String(CHAINS[chain].chainId).padEnd(8)} ${nodes[chain].url}`);
    }
    const rpc = Object.fromEntries(
      chains.map(({ chain }) => {
        // a network without ethers' plugins (for 137 it would ask Polygon's gas station for fees)
        const network = new Network(chain, CHAINS[chain].chainId);
        const provider = new JsonRpcProvider(nodes[chain].url, network, { staticNetwork: network, cacheTimeout: -1 });
        providers.push(provider);
        return [chain, provider];
      }),
    ) as Record<string, JsonRpcProvider>;

    // the accounts a deployer brings: none of Hardhat's well-known ones
    const fresh = () => Wallet.createRandom() as unknown as Wallet;
    const accounts: RehearsalAccounts = {
      deployer: fresh(),
      treasury: fresh(),
      approver: fresh(),
      arbitrator: fresh(),
      guardian: fresh(),
      verifiers: [fresh(), fresh(), fresh()],
      standIns: fresh(),
      relayer: fresh(),
      user: fresh(),
    };
    for (const { chain } of chains) {
      for (const wallet of [accounts.deployer, accounts.treasury, accounts.standIns, accounts.relayer, accounts.user]) {
        await rpc[chain].send("hardhat_setBalance", [wallet.address, `0x${parseEther("1000").toString(16)}`]);
      }
    }

    // 2. stand-ins at the addresses the committed files name
    from = performance.now();
    const committed = Object.fromEntries(
      await Promise.all(
        chains.map(async ({ chain }) => {
          const json = JSON.parse(await readFile(path.join(root, parameterFileOf(chain)), "utf8"));
          return [chain, json.$global as Record<string, unknown>];
        }),
      ),
    );
    for (const { chain } of chains) {
      const context: StandInContext = {
        chain,
        relayer: accounts.relayer.address,
        remoteSelectors: chains.filter((c) => c.chain !== chain).map((c) => chainSelectorOf(CHAINS[c.chain].chainId)),
      };
      for (const [field, value] of Object.entries(committed[chain])) {
        if (!isAddressValue(value) || isPlaceholder(value)) continue;
        const standIn = STAND_INS[field];
        if (standIn === undefined) {
          throw new Error(
            `${parameterFileOf(chain)} names ${field} ${String(value)}: the rehearsal has no stand-in for it ` +
              `(add one to STAND_INS in tools/rehearsal.ts)`,
          );
        }
        const artifact = await hre.artifacts.readArtifact(standIn.contract);
        const placed = await placeStandIn(rpc[chain], accounts.standIns.connect(rpc[chain]), String(value), {
          abi: artifact.abi,
          bytecode: artifact.bytecode,
          args: standIn.args(context),
        });
        log(
          `${chain.padEnd(16)} ${field.padEnd(16)} ${placed.address}: ${standIn.contract} ` +
            `(code and ${placed.slots.length} storage slot${placed.slots.length === 1 ? "" : "s"} from ${placed.deployedAt})`,
        );
      }
    }
    const standInsSeconds = seconds(from);

    // 3. the deployment command, as a deployer runs it: RPC variables, the key, an overrides file
    const overrides: ParameterOverrides = {};
    for (const { chain } of chains) {
      const fill: Record<string, unknown> = {};
      for (const [field, value] of Object.entries(committed[chain])) {
        if (!isPlaceholder(value)) continue;
        if (field === "verifiers") fill[field] = accounts.verifiers.map((w) => w.address);
        else if (field in accounts) fill[field] = (accounts[field as keyof RehearsalAccounts] as Wallet).address;
        else throw new Error(`${parameterFileOf(chain)}: the rehearsal does not know how to fill ${field}`);
      }
      overrides[chain] = fill;
    }
    const overridesFile = path.join(work, "overrides.json");
    await writeFile(overridesFile, JSON.stringify(overrides, null, 2) + "\n");
    const commandEnv: Record<string, string> = { DEPLOYER_PRIVATE_KEY: accounts.deployer.privateKey };
    for (const { chain } of chains) commandEnv[rpcVariableOf(hre, chain)] = nodes[chain].url;

    from = performance.now();
    log(`npm run deploy -- --environment ${environment} --overrides ${overridesFile} --record-as ${recordAs}`);
    const deployment = await runHardhat(
      root,
      ["deploy-protocol", "--environment", environment, "--overrides", overridesFile, "--record-as", recordAs],
      commandEnv,
      (line) => log(`  | ${line}`),
    );
    if (deployment.code !== 0) {
      throw new Error(
        `the deployment command exited with ${deployment.code}:\n${deployment.output.split("\n").slice(-15).join("\n")}`,
      );
    }
    const deploymentSeconds = seconds(from);
    const deploymentFile = path.join(root, "deployments", `${recordAs}.json`);
    const record = JSON.parse(await readFile(deploymentFile, "utf8")) as Record<string, Record<string, string>>;

    // 4. the post-deployment check
    const check = () =>
      checkEnvironment(hre, {
        environment,
        recordAs,
        overrides,
        rpcUrls: Object.fromEntries(chains.map(({ chain }) => [chain, nodes[chain].url])),
      });
    from = performance.now();
    const report = await check();
    const checkSeconds = seconds(from);
    for (const line of formatReport(report)) log(line);

    // 5. a transfer of each token across every directed route, through the relayer
    from = performance.now();
    const hops = await transferAcrossEveryRoute(
      chains.map((c) => c.chain),
      record,
      rpc,
      accounts,
      log,
    );
    const transfersSeconds = seconds(from);

    const timings: RehearsalTimings = {
      nodes: nodesSeconds,
      standIns: standInsSeconds,
      deployment: deploymentSeconds,
      check: checkSeconds,
      transfers: transfersSeconds,
      total: seconds(started),
    };
    log(
      `Rehearsal of ${environment}: nodes ${timings.nodes.toFixed(1)} s, stand-ins ${timings.standIns.toFixed(1)} s, ` +
        `deployment ${timings.deployment.toFixed(1)} s, check ${timings.check.toFixed(1)} s, ` +
        `${hops.length} transfers ${timings.transfers.toFixed(1)} s, total ${timings.total.toFixed(1)} s`,
    );
    const rehearsal: Rehearsal = {
      environment,
      recordAs,
      nodes,
      accounts,
      overridesFile,
      deploymentFile,
      report,
      hops,
      timings,
      check,
      commandEnv,
      stop: cleanUp,
    };
    if (!options.keepRunning) await cleanUp();
    return rehearsal;
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

/** The configuration variable a network's URL is read from (`ARBITRUM_RPC_URL`, …), from the Hardhat config. */
function rpcVariableOf(hre: HardhatRuntimeEnvironment, chain: string): string {
  const network = hre.config.networks[chain];
  const url = network?.type === "http" ? (network.url as unknown) : undefined;
  const name = typeof url === "object" && url !== null ? (url as { name?: unknown }).name : undefined;
  if (typeof name !== "string") {
    throw new Error(`network ${chain} does not read its URL from a configuration variable: nothing to point at a node`);
  }
  return name;
}

function isAddressValue(value: unknown): boolean {
  return typeof value === "string" && /^0x[0-9a-fA-F]{40}$/.test(value);
}

/** Runs a Hardhat task in a child process, as `npm run …` does (the same CLI): its output and exit code. */
export async function runHardhat(
  root: string,
  args: string[],
  env: Record<string, string>,
  onLine: (line: string) => void = () => {},
): Promise<{ output: string; code: number | null }> {
  const cli = path.join(path.dirname(require.resolve("hardhat/package.json", { paths: [root] })), "dist/src/cli.js");
  const child = spawn(process.execPath, [cli, ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let pending = "";
  const take = (chunk: Buffer) => {
    output += chunk.toString("utf8");
    pending += chunk.toString("utf8");
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) if (line.trim() !== "") onLine(line);
  };
  child.stdout.on("data", take);
  child.stderr.on("data", take);
  // "close", not "exit": the output is complete only once the pipes are
  const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
  if (pending.trim() !== "") onLine(pending);
  return { output, code };
}

/**
 * Moves STBGOV and sSTB around every directed route (arbitrum -> ethereum -> polygon -> arbitrum ->
 * polygon -> ethereum -> arbitrum, with the environment's chains), each hop a CCIP message the
 * relayer delivers through the stand-in routers, the fee paid in the stand-in USDC.
 */
async function transferAcrossEveryRoute(
  chains: string[],
  record: Record<string, Record<string, string>>,
  rpc: Record<string, JsonRpcProvider>,
  accounts: RehearsalAccounts,
  log: (line: string) => void,
): Promise<BridgeHop[]> {
  const [primary] = chains;
  const user = accounts.user.address;
  const sides = await Promise.all(
    chains.map(async (chain) => {
      const signer = accounts.user.connect(rpc[chain]);
      const bridge = Bridge__factory.connect(record[chain].Bridge, signer);
      const stablecoin = MockBlacklistStablecoin__factory.connect(await bridge.stablecoin(), signer);
      const router = DevnetCCIPRouter__factory.connect(await bridge.getRouter(), accounts.relayer.connect(rpc[chain]));
      return { chain, selector: await bridge.localChainSelector(), bridge, signer, stablecoin, router };
    }),
  );
  const relayer = new Relayer(
    sides.map((s) => ({ name: s.chain, selector: s.selector, router: s.router })),
    { log: (line) => log(`  ${line}`) },
  );
  relayer.start(100);
  try {
    // the user: 1,000 STBGOV from the treasury and 1,000 sSTB on arbitrum (minted as the minting
    // agent would, impersonated: a provider's attestation flow is not what is rehearsed here), and
    // USDC from each stand-in's faucet for the fees
    const arbitrum = rpc[primary];
    const governanceToken = GovernanceToken__factory.connect(
      record[primary].GovernanceToken,
      accounts.treasury.connect(arbitrum),
    );
    await (await governanceToken.transfer(user, parseEther("1000"))).wait();
    const mintingAgent = record[primary].MintingAgent;
    await arbitrum.send("hardhat_impersonateAccount", [mintingAgent]);
    await arbitrum.send("hardhat_setBalance", [mintingAgent, `0x${parseEther("1").toString(16)}`]);
    const sstb = SSTB__factory.connect(record[primary].SSTB, new JsonRpcSigner(arbitrum, mintingAgent));
    await (await sstb.mint(user, parseEther("1000"))).wait();
    await arbitrum.send("hardhat_stopImpersonatingAccount", [mintingAgent]);
    for (const side of sides) {
      await (await side.stablecoin.mint(user, parseUnits("1000", 6))).wait();
      await (await side.stablecoin.approve(await side.bridge.getAddress(), 2n ** 256n - 1n)).wait();
      for (const token of [record[side.chain].SSTB, record[side.chain].GovernanceToken]) {
        const erc20 = SSTB__factory.connect(token, side.signer);
        await (await erc20.approve(await side.bridge.getAddress(), 2n ** 256n - 1n)).wait();
      }
    }

    // every directed route once per token: a walk through all of them, starting where the tokens are
    const walk = everyRouteOnce(chains);
    const hops: BridgeHop[] = [];
    for (const token of ["STBGOV", "sSTB"] as const) {
      let amount = parseEther("100");
      for (const [from, to] of walk) {
        const source = sides.find((s) => s.chain === from)!;
        const destination = sides.find((s) => s.chain === to)!;
        const tokenAddress = token === "sSTB" ? record[from].SSTB : record[from].GovernanceToken;
        const hop = await bridgeTransfer(
          { chain: from, selector: source.selector, bridge: source.bridge },
          { chain: to, selector: destination.selector, bridge: destination.bridge },
          { token, address: tokenAddress, amount, recipient: user, feeOption: "default" },
          relayer,
        );
        log(
          `  ${String(hops.length + 1).padStart(2)}. ${token} ${from} -> ${to}: message ${hop.messageId} ` +
            `${hop.status} in ${hop.seconds.toFixed(2)} s (fee ${Number(hop.fee) / 1e6} USDC)`,
        );
        if (hop.status !== "completed") throw new Error(`${token} ${from} -> ${to} ended ${hop.status}`);
        hops.push(hop);
        amount -= parseEther("1");
      }
    }
    return hops;
  } finally {
    await relayer.stop();
  }
}
