import { rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";

import { HDNodeWallet, JsonRpcProvider, Network, formatEther, parseEther } from "ethers";
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";

import { createApiClient, unwrap } from "@compute-capacity/sdk";
import { sampleVerifierKeys } from "../gateway/verification/keys.js";
import type { RouteLimits } from "@compute-capacity/sdk";
import { runBridgeScenario } from "./bridge-demo.js";
import { runScenario } from "./demo.js";
import { checkDeployment, buildReader, formatReport, loadRecordedChain } from "../deploy/check-deployment.js";
import type { CheckReport } from "../deploy/check-deployment.js";
import { gatherDeployment, writeDeploymentFile } from "../deploy/environments.js";
import { runHttpRedemption, subscribeDemoReceiver } from "./http-demo.js";
import { runLeaseDemo } from "./lease-demo.js";
import { startLocalNode } from "./local-node.js";
import type { LocalNode } from "./local-node.js";
import { deployLocalNetwork, localNetworkParameters } from "./network.js";
import type { LocalNetworkOptions } from "./network.js";
import { Relayer } from "./relayer.js";

/** The devnet's chains: the primary chain and the two satellites, as on mainnet. */
export const DEVNET_CHAINS = [
  { chain: "arbitrum", network: "devnetArbitrum", chainId: 42161n, role: "primary" },
  { chain: "ethereum", network: "devnetEthereum", chainId: 1n, role: "satellite" },
  { chain: "polygon", network: "devnetPolygon", chainId: 137n, role: "satellite" },
] as const;

/** The node accounts that play each role (the well-known Hardhat test accounts). */
export const DEVNET_ROLES = [
  "deployer",
  "treasury",
  "approver",
  "arbitrator",
  "guardian",
  "provider",
  "user",
  "keeper",
  "relayer",
] as const;

/** CCIP transport fee of the devnet routers, per message, in native gas. */
export const DEVNET_TRANSPORT_FEE = parseEther("0.0001");
/** Rate limits of every devnet route: 100,000 tokens per bucket, refilling about 100,000 a day. */
export const DEVNET_LIMITS: RouteLimits = {
  sstb: { enabled: true, capacity: parseEther("100000"), rate: parseEther("1.15") },
  governance: { enabled: true, capacity: parseEther("100000"), rate: parseEther("1.15") },
};

export interface DevnetOptions {
  /** Port of the arbitrum node; ethereum and polygon take the next two. */
  basePort: number;
  /** Port of the gateway (default 8080). */
  gatewayPort?: number;
  /** Stop after the scenario instead of staying up until SIGINT/SIGTERM. */
  once: boolean;
  log: (line: string) => void;
  /** Where `devnet.json` and the relayer's cursor go (default `deployments/`). */
  deploymentsDir?: string;
  /** Resolves when the devnet should stop (default: SIGINT or SIGTERM). */
  stopSignal?: Promise<void>;
}

export interface DevnetResult {
  /** Seconds from start to ready (nodes up, contracts deployed, summary printed). */
  readySeconds: number;
  /** Seconds the scenario took. */
  scenarioSeconds: number;
  deploymentFile: string;
  addresses: Record<string, Record<string, string>>;
  /** Process ids of the nodes (all stopped when `runDevnet` returns). */
  nodePids: number[];
  /** The gateway's URL and the devnet API key it issued. */
  gateway: { url: string; apiKey: string };
}

/** A failure in a named step, so the reader learns what failed and why, not a stack trace alone. */
export class DevnetStepError extends Error {
  constructor(step: string, cause: unknown) {
    super(`step "${step}" failed: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = "DevnetStepError";
  }
}

/**
 * `npm start`: three `hardhat node`s (chain ids 42161, 1, 137), the primary module on arbitrum
 * and the satellite module on ethereum and polygon (Ignition, journals under
 * `ignition/deployments/devnet-<chain>/`, reset at every start since the chains are new),
 * `deployments/devnet.json` (with chain ids and RPC URLs), the gateway on the three chains with a
 * devnet API key, a summary, then the demo scenario on arbitrum. Stays up until
 * Ctrl-C unless `once`; every node is stopped on the way out, also on failure.
 */
export async function runDevnet(hre: HardhatRuntimeEnvironment, options: DevnetOptions): Promise<DevnetResult> {
  const { log } = options;
  const started = performance.now();
  const nodes: LocalNode[] = [];
  // Ctrl-C while starting stops the nodes and exits; once up, it ends the wait below.
  let up = false;
  let requestStop: () => void = () => {};
  const stopRequested = new Promise<void>((resolve) => (requestStop = resolve));
  const onSignal = () => {
    if (up) return requestStop();
    log("Interrupted while starting: stopping the nodes...");
    void Promise.all(nodes.map((n) => n.stop())).finally(() => process.exit(130));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const closers: Array<() => Promise<void>> = [];
  const step = async <T>(name: string, action: () => Promise<T>): Promise<T> => {
    log(`... ${name}`);
    try {
      return await action();
    } catch (error) {
      throw new DevnetStepError(name, error);
    }
  };

  try {
    const ports = DEVNET_CHAINS.map((_, i) => options.basePort + i);
    const gatewayPort = options.gatewayPort ?? 8080;
    await step(`check ports ${ports.join(", ")} are free`, async () => {
      for (const port of ports) await assertPortFree(port);
    });
    await step(`check the gateway port ${gatewayPort} is free`, () =>
      assertPortFree(gatewayPort, "--gateway-port or GATEWAY_PORT"),
    );
    await step("start three hardhat nodes", async () => {
      const started = await Promise.allSettled(
        DEVNET_CHAINS.map((c, i) => startLocalNode({ chainId: c.chainId, port: ports[i], cwd: hre.config.paths.root })),
      );
      for (const s of started) if (s.status === "fulfilled") nodes.push(s.value);
      const failed = started.find((s) => s.status === "rejected");
      if (failed) throw (failed as PromiseRejectedResult).reason;
    });
    DEVNET_CHAINS.forEach((c, i) =>
      log(`    ${c.chain.padEnd(9)} chain id ${c.chainId}  ${nodes[i].url}  (pid ${nodes[i].pid})`),
    );

    const ignitionDir = path.join(hre.config.paths.ignition, "deployments");
    for (const c of DEVNET_CHAINS) {
      await rm(path.join(ignitionDir, `devnet-${c.chain}`), { recursive: true, force: true });
    }

    const verifierKeys = sampleVerifierKeys("devnet-verifier");
    const connections = await Promise.all(
      DEVNET_CHAINS.map((c, i) => hre.network.create({ network: c.network, override: { url: nodes[i].url } })),
    );
    for (const connection of connections) closers.push(() => connection.close());
    const signersOf = await Promise.all(connections.map((c) => c.ethers.getSigners()));
    const roleOn = (i: number, name: (typeof DEVNET_ROLES)[number]) => signersOf[i][DEVNET_ROLES.indexOf(name)];
    const role = (name: (typeof DEVNET_ROLES)[number]) => roleOn(0, name);
    const userAddress = role("user").address;
    const chains = DEVNET_CHAINS.map((c, i) => ({
      chain: c.chain,
      connection: connections[i],
      deploymentId: `devnet-${c.chain}`,
    }));
    const network = await step(
      "deploy the primary module to arbitrum and the satellite module to ethereum and polygon",
      () =>
        deployLocalNetwork(chains[0], chains.slice(1), {
          accounts: {
            treasury: role("treasury"),
            approver: role("approver"),
            arbitrator: role("arbitrator"),
            guardian: role("guardian"),
          },
          verifierKeys,
          relayer: role("relayer").address,
          transportFee: DEVNET_TRANSPORT_FEE,
          limits: DEVNET_LIMITS,
          onStep: (chain, s) => log(`    ${chain}: ${s}`),
        }),
    );

    const addresses = await step("write deployments/devnet.json", () =>
      gatherDeployment(
        DEVNET_CHAINS.map((c) => ({ chain: c.chain, deploymentId: `devnet-${c.chain}` })),
        ignitionDir,
      ),
    );
    const deploymentFile = await writeDeploymentFile(
      "devnet",
      addresses,
      options.deploymentsDir,
      Object.fromEntries(DEVNET_CHAINS.map((c, i) => [c.chain, { chainId: c.chainId, rpcUrl: nodes[i].url }])),
    );

    const check = await step("check the deployment (as npm run check:deployment does after a real one)", () =>
      checkLocalNetwork(hre, DEVNET_CHAINS, nodes, addresses, ignitionDir, {
        accounts: {
          treasury: role("treasury"),
          approver: role("approver"),
          arbitrator: role("arbitrator"),
          guardian: role("guardian"),
        },
        verifierKeys,
        limits: DEVNET_LIMITS,
        relayer: role("relayer").address,
      }),
    );
    const checkFile = path.join(options.deploymentsDir ?? "deployments", "devnet-check.txt");
    await writeFile(checkFile, formatReport(check).join("\n") + "\n");
    if (check.ok) {
      log(
        `    all ${check.lines.length} checks passed: code, proxies, roles, wiring, parameters, routes, governance (${checkFile})`,
      );
    } else {
      // the devnet still comes up, to look into it; its end-to-end test requires every check to pass
      log(`    WARNING: ${check.failures.length} of ${check.lines.length} checks failed (${checkFile}):`);
      for (const f of check.failures) log(`    FAIL  ${f.chain}  ${f.section}  ${f.message}`);
    }

    const gateway = await step("start the gateway (indexer, HTTP API, GraphQL)", () =>
      startDevnetGateway(hre.config.paths.root, deploymentFile, gatewayPort, log),
    );
    closers.push(() => gateway.close());
    const { token: apiKey, key: devnetKey } = await step("issue a devnet API key", () =>
      gateway.keys.create({ tier: "premium", account: userAddress, scopes: ["read", "write"], label: "devnet" }),
    );
    // the key works while the devnet is up, and no longer after it (with DATABASE_URL the database,
    // and with it the key, outlives the devnet: a later devnet's gateway would otherwise accept it)
    closers.push(async () => void (await gateway.keys.revoke(devnetKey.keyId)));
    const readySeconds = (performance.now() - started) / 1000;

    const cursorFile = path.join(options.deploymentsDir ?? "deployments", "devnet-relayer.json");
    await rm(cursorFile, { force: true }); // new chains: the last run's cursor means nothing
    const relayer = await new Relayer(
      DEVNET_CHAINS.map((c, i) => {
        const d = i === 0 ? network.primary : network.satellites[i - 1];
        return { name: c.chain, selector: d.selector, router: d.router!.connect(roleOn(i, "relayer")) };
      }),
      { cursorFile, log: (line) => log(`    ${line}`) },
    ).load();
    relayer.start(200);
    // closers run last to first: the relayer stops before the gateway and the connections it polls
    closers.push(() => relayer.stop());

    await printSummary(hre, nodes, addresses, deploymentFile, log);
    log(
      `Relayer (devnet only; CCIP delivers on real chains): account #${DEVNET_ROLES.indexOf("relayer")}, cursor ${cursorFile}`,
    );
    printGateway(gateway.url, apiKey, gateway.store.location, log);
    printPortal(gateway.url, nodes[0].url, log);
    log(`Ready in ${readySeconds.toFixed(1)} s.`);
    log("");
    log("Demo scenario on arbitrum:");
    const scenarioStart = performance.now();
    await step("run the demo scenario on arbitrum", () =>
      runScenario(
        connections[0].ethers.provider,
        network.primary,
        { approver: role("approver"), provider: role("provider"), user: role("user"), keeper: role("keeper") },
        verifierKeys,
        (line) => log(`  ${line}`),
      ),
    );
    log("");
    log("Bridge scenario (CCIP messages through the devnet routers and the relayer):");
    const hops = await step("run the bridge scenario", () =>
      runBridgeScenario(
        network,
        (chain, name) =>
          roleOn(
            DEVNET_CHAINS.findIndex((c) => c.chain === chain),
            name === "funder" ? "provider" : name,
          ),
        relayer,
        (line) => log(`  ${line}`),
      ),
    );
    log("");
    log("Redemption through the gateway's HTTP API (the user's API key; the user's wallet signs):");
    await step("redeem through the HTTP API", async () => {
      await gateway.synced();
      const receiver = await subscribeDemoReceiver(gateway.url, apiKey, [
        "sstb.transferred",
        "redemption.initiated",
        "redemption.fulfilled",
        "redemption.confirmed",
      ]);
      log(`  POST /api/v1/webhooks: the user's events go to a receiver at ${receiver.url}`);
      try {
        const id = await runHttpRedemption(
          gateway.url,
          apiKey,
          { user: role("user"), provider: role("provider") },
          network.primary,
          DEVNET_CHAINS[0].chainId,
          (line) => log(`  ${line}`),
        );
        await gateway.synced();
        const api = createApiClient({ baseUrl: gateway.url, apiKey });
        const data = unwrap(
          await api.GET("/v1/redemptions/{redemptionId}", { params: { path: { redemptionId: Number(id) } } }),
        );
        log(`    GET /v1/redemptions/${id}: status ${data.status}`);
        await receiver.waitFor((w) => w.event === "redemption.confirmed" && w.data.redemption_id === String(id));
        log(`  Webhooks received (X-SERVICE-Signature checked by gateway/webhooks/receiver.ts):`);
        for (const w of receiver.received) {
          const what = w.data.redemption_id === undefined ? `${w.data.sstb_amount} sSTB` : `#${w.data.redemption_id}`;
          log(`    ${w.event.padEnd(21)} ${what}  delivery ${w.deliveryId}`);
        }
      } finally {
        // the demo leaves nothing behind: its subscription goes with its receiver
        await receiver.remove();
        log(`  DELETE /api/v1/webhooks/${receiver.subscriptionId}: the demo's subscription and receiver are gone`);
      }
    });
    log("");
    log("Leases (issue 19): the wallet-derived access key, the provider agent, a renewal, a termination, an end:");
    await step("run the lease demo", async () => {
      await gateway.synced();
      const providerWallet = HDNodeWallet.fromPhrase(
        DEVNET_MNEMONIC,
        undefined,
        `m/44'/60'/0'/0/${DEVNET_ROLES.indexOf("provider")}`,
      );
      await runLeaseDemo(
        gateway,
        apiKey,
        { user: role("user"), provider: role("provider"), providerKey: providerWallet.privateKey },
        network.primary,
        connections[0].ethers.provider,
        nodes[0].url,
        (line) => log(`  ${line}`),
      );
    });
    const scenarioSeconds = (performance.now() - scenarioStart) / 1000;
    log(`Scenario done in ${scenarioSeconds.toFixed(1)} s.`);
    await step("let the gateway index the scenario", () => gateway.synced());
    log(`The gateway has indexed it: try the curl example above, or a bridge transfer's status:`);
    log(`  curl -s -H "Authorization: Bearer ${apiKey}" ${gateway.url}/api/v1/bridge/status/${hops[0].messageId}`);

    if (!options.once) {
      up = true;
      log("");
      log("The devnet is up. Press Ctrl-C to stop it.");
      await Promise.race([stopRequested, ...(options.stopSignal ? [options.stopSignal] : [])]);
      log("Stopping...");
    }
    return {
      readySeconds,
      scenarioSeconds,
      deploymentFile,
      addresses,
      nodePids: nodes.map((n) => n.pid),
      gateway: { url: gateway.url, apiKey },
    };
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    for (const close of closers.reverse()) await close().catch(() => {});
    await Promise.all(nodes.map((n) => n.stop()));
  }
}

/**
 * The post-deployment check on a local network deployed by {@link deployLocalNetwork}: its
 * deployments record, its Ignition journals, and the settings it was deployed with in place of
 * parameter files (the relayer is the one account the routers name that no parameter does).
 */
export async function checkLocalNetwork(
  hre: HardhatRuntimeEnvironment,
  chains: ReadonlyArray<{ chain: string; chainId: bigint; role: "primary" | "satellite" }>,
  nodes: readonly LocalNode[],
  addresses: Record<string, Record<string, string>>,
  ignitionDir: string,
  options: Pick<LocalNetworkOptions, "accounts" | "verifierKeys" | "limits"> & { relayer: string },
  deploymentIdOf = (chain: string) => `devnet-${chain}`,
): Promise<CheckReport> {
  const parameters = localNetworkParameters(options, chains, addresses);
  const providers = chains.map(
    (c, i) => new JsonRpcProvider(nodes[i].url, new Network(c.chain, c.chainId), { staticNetwork: true }),
  );
  try {
    const loaded = await Promise.all(
      chains.map((c, i) =>
        loadRecordedChain({
          chain: c.chain,
          role: c.role,
          chainId: c.chainId,
          provider: providers[i],
          record: addresses[c.chain],
          ignitionDir,
          deploymentId: deploymentIdOf(c.chain),
          parameters: parameters[c.chain],
          parameterSource: "the devnet's settings (devnet/samples.ts)",
          knownAccounts: { relayer: options.relayer },
        }),
      ),
    );
    return await checkDeployment("devnet", loaded, buildReader(hre.artifacts));
  } finally {
    for (const provider of providers) provider.destroy();
  }
}

async function printSummary(
  hre: HardhatRuntimeEnvironment,
  nodes: LocalNode[],
  addresses: Record<string, Record<string, string>>,
  deploymentFile: string,
  log: (line: string) => void,
): Promise<void> {
  log("");
  log("Chains:");
  DEVNET_CHAINS.forEach((c, i) =>
    log(`  ${c.chain.padEnd(9)} chain id ${String(c.chainId).padEnd(6)} ${nodes[i].url}`),
  );
  for (const c of DEVNET_CHAINS) {
    log("");
    log(`Contracts on ${c.chain}:`);
    for (const [name, address] of Object.entries(addresses[c.chain])) {
      if (!name.endsWith("Implementation")) log(`  ${name.padEnd(20)} ${address}`);
    }
  }
  log(`  (all addresses, implementations included: ${deploymentFile})`);
  log("");
  log("Funded test accounts (Hardhat's well-known keys; never use them on a real chain):");
  const connection = await hre.network.create({ network: DEVNET_CHAINS[0].network, override: { url: nodes[0].url } });
  const signers = await connection.ethers.getSigners();
  for (const [i, role] of DEVNET_ROLES.entries()) {
    const balance = await connection.ethers.provider.getBalance(signers[i].address);
    log(`  #${i} ${signers[i].address}  ${role.padEnd(10)} ${Number(formatEther(balance)).toFixed(2)} ETH`);
  }
  log(`  #9..#19 unassigned, 10000 ETH each on every chain`);
  await connection.close();
  log("");
}

/**
 * The devnet's gateway: a fresh PGlite folder (the chains are new at every start) unless
 * DATABASE_URL points at PostgreSQL, confirmation depth 0, on 127.0.0.1.
 */
async function startDevnetGateway(root: string, deploymentFile: string, port: number, log: (line: string) => void) {
  const { loadConfig } = await import("../gateway/config.js");
  const { startGateway } = await import("../gateway/server.js");
  const config = loadConfig(
    { environment: "devnet", deployment: deploymentFile, "gateway-port": String(port) },
    process.env,
    root,
  );
  if (config.databaseUrl === undefined) {
    await rm(path.join(config.dataDir, "pgdata"), { recursive: true, force: true });
  }
  const gatewayLog = (line: string) => log(`  gateway: ${line}`);
  return startGateway(config, { log: gatewayLog });
}

/** Hardhat's well-known test mnemonic: the devnet's accounts (never use them on a real chain). */
const DEVNET_MNEMONIC = "test test test test test test test test test test test junk";

/** The portal's URL and the demo's accounts to sign in with, with their keys to import into a wallet. */
function printPortal(url: string, rpcUrl: string, log: (line: string) => void): void {
  const keyOf = (i: number) => HDNodeWallet.fromPhrase(DEVNET_MNEMONIC, undefined, `m/44'/60'/0'/0/${i}`);
  log("Portal (the web interface, served by the gateway):");
  log(`  URL        ${url}/portal/   (sign in there; the portal accepts only this origin)`);
  log("  Sign in with the demo's accounts (import a key into your wallet: MetaMask > Add account > Import):");
  for (const role of ["user", "provider"] as const) {
    const wallet = keyOf(DEVNET_ROLES.indexOf(role));
    log(`    ${role.padEnd(9)} ${wallet.address}  private key ${wallet.privateKey}`);
  }
  log(`  The wallet needs the devnet's arbitrum: chain id 42161, RPC ${rpcUrl} (the portal offers to add it).`);
  log("");
}

function printGateway(url: string, apiKey: string, location: string, log: (line: string) => void): void {
  log("Gateway (HTTP API under /api/v1 and /v1, GraphQL at /graphql):");
  log(`  URL        ${url}   (docs ${url}/docs, OpenAPI ${url}/api/v1/openapi.json)`);
  log(`  database   ${location}`);
  log(`  API key    ${apiKey}`);
  log("             (premium tier, scopes read and write, bound to the user account #6)");
  log("  Try:");
  log(`  curl -s -H "Authorization: Bearer ${apiKey}" ${url}/api/v1/providers/list`);
  log("");
}

async function assertPortFree(port: number, flag = "--base-port"): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const server = createServer();
    server.once("error", () =>
      reject(new Error(`port ${port} is in use (another devnet or node?); stop it or pass ${flag}`)),
    );
    server.listen(port, "127.0.0.1", () => server.close(() => resolve()));
  });
}
