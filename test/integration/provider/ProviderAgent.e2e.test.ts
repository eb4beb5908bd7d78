import { spawn, spawnSync } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { HDNodeWallet, parseEther } from "ethers";
import type { JsonRpcSigner } from "ethers";

import {
  acceptRenewalSync,
  approveRedemptionSync,
  getAccessDetails,
  getLease,
  getRedemption,
  initiateRedemptionSync,
  registerDerivedAccessKey,
  terminateLeaseSync,
} from "@compute-capacity/sdk";
import type { ProtocolClient } from "@compute-capacity/sdk";
import { freePort } from "../../../devnet/local-node.js";
import { startGateway } from "../../../gateway/server.js";
import type { Gateway } from "../../../gateway/server.js";
import { sampleProfile } from "../../../devnet/samples.js";
import {
  ROLE,
  mintUnit,
  registerProvider,
  resetDatabase,
  sharedLiveDeployment,
  testConfig,
  protocolClientOf,
} from "../../../testing/fixtures.js";
import type { LiveDeployment } from "../../../testing/fixtures.js";
import { eventually } from "../../../testing/local-servers.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");
/** The agent's command as one process (no wrapper around it: SIGKILL kills the agent itself). */
const AGENT = ["--import", "tsx", path.join(ROOT, "scripts", "provider.ts")];
const DAY = 86_400;
const MNEMONIC = "test test test test test test test test test test test junk";
const database = process.env.DATABASE_URL ? "PostgreSQL" : "PGlite";

/** The provisioning command: records each run, writes a fake host, prints the access details (fails while `fail` exists). */
const PROVISION = `import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
const dir = process.env.HOSTS_DIR;
const r = JSON.parse(readFileSync(0, "utf8"));
appendFileSync(dir + "/provision.log", r.redemption_id + "\\n");
if (existsSync(dir + "/fail")) { console.error("no capacity left in rack 7"); process.exit(3); }
writeFileSync(dir + "/host-" + r.redemption_id + ".json", JSON.stringify({ user: r.user, key: r.access_public_key }));
console.log(JSON.stringify({
  redemption_id: r.redemption_id, access_type: "ssh", hostname: "host-" + r.redemption_id + ".fake.example", port: 22,
  username: "u" + r.redemption_id, ssh_key: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHRlc3Q= agent@fake",
  resources: { cpu_cores: 4, memory_gb: 16, storage_gb: 100, bandwidth_mbps: 100 },
  documentation_url: "https://docs.fake.example/ssh",
}));
`;
/**
 * The deprovisioning command: removes the fake host, then records the lease and why (in that order:
 * the tests wait for the line, then look for the host).
 */
const DEPROVISION = `import { appendFileSync, readFileSync, rmSync } from "node:fs";
const dir = process.env.HOSTS_DIR;
const r = JSON.parse(readFileSync(0, "utf8"));
rmSync(dir + "/host-" + r.redemption_id + ".json", { force: true });
appendFileSync(dir + "/deprovision.log", r.redemption_id + " " + process.env.LEASE_END_REASON + "\\n");
`;

/**
 * A JSON-RPC proxy in front of the node, so a test can stop a transaction on its way: `hold` keeps
 * `eth_sendRawTransaction` from the node and never answers it; `forward-then-hold` lets it reach
 * the node (it is mined) and never answers. Everything else passes.
 */
class RpcProxy {
  mode: "pass" | "hold" | "forward-then-hold" = "pass";
  held = 0;
  private server: Server | undefined;
  url = "";

  constructor(private readonly target: string) {}

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (c: Buffer) => chunks.push(c));
      request.on("end", async () => {
        const body = Buffer.concat(chunks).toString("utf8");
        const calls = [JSON.parse(body)].flat() as Array<{ method: string }>;
        const sends = calls.some((c) => c.method === "eth_sendRawTransaction");
        if (sends && this.mode === "hold") {
          this.held++;
          return; // never forwarded, never answered
        }
        let answer: Response;
        let text: string;
        try {
          answer = await fetch(this.target, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body,
          });
          text = await answer.text();
        } catch (error) {
          // the node dropped a kept-alive connection (seen on a loaded machine): the agent's next
          // pass asks again, as it would of a real RPC endpoint that failed once
          response.writeHead(502).end(String(error));
          return;
        }
        if (sends && this.mode === "forward-then-hold") {
          this.held++;
          return; // mined, never answered
        }
        response.writeHead(answer.status, { "content-type": "application/json" }).end(text);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server === undefined ? resolve() : this.server.close(() => resolve())));
  }
}

/** The agent as a child process (`npm run provider -- serve` runs the same entry point). */
class AgentProcess {
  output = "";
  exit: Promise<number | null>;
  constructor(readonly child: ChildProcess) {
    child.stdout!.on("data", (c: Buffer) => (this.output += c.toString("utf8")));
    child.stderr!.on("data", (c: Buffer) => (this.output += c.toString("utf8")));
    this.exit = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  }
  lines(pattern: RegExp): string[] {
    return this.output.split("\n").filter((l) => pattern.test(l));
  }
}

describe(`The provider agent as a child process on ${database} (real hardhat node, real gateway, real HTTP)`, function () {
  this.timeout(600_000);
  let live: LiveDeployment;
  let gw: Gateway;
  let proxy: RpcProxy;
  let dir: string;
  let apiKey: string;
  const client: Record<string, ProtocolClient> = {};
  const agents: AgentProcess[] = [];
  const signer = (role: keyof typeof ROLE): JsonRpcSigner => live.signers[ROLE[role]];
  const providerKey = HDNodeWallet.fromPhrase(MNEMONIC, undefined, `m/44'/60'/0'/0/${ROLE.providerA}`).privateKey;
  const stateFile = () => path.join(dir, "state.json");
  const state = () => JSON.parse(readFileSync(stateFile(), "utf8")) as { redemptions: Record<string, any> };
  const recordOf = (id: bigint) => (existsSync(stateFile()) ? state().redemptions[String(id)] : undefined);
  const logOf = (name: string) =>
    existsSync(path.join(dir, name)) ? readFileSync(path.join(dir, name), "utf8").trim().split("\n") : [];
  const chainNow = async () => BigInt((await live.rpc.getBlock("latest"))!.timestamp);
  const jump = async (seconds: number) => {
    await live.rpc.send("evm_increaseTime", [seconds]);
    await live.rpc.send("evm_mine", []);
  };
  const env = (extra: Record<string, string> = {}) => ({
    ...process.env,
    PROVIDER_PRIVATE_KEY: providerKey,
    PROVIDER_API_KEY: apiKey,
    HOSTS_DIR: dir,
    ...extra,
  });
  const baseArgs = () => [
    "serve",
    "--gateway",
    gw.url,
    "--rpc",
    proxy.url,
    "--provision",
    `node ${path.join(dir, "provision.mjs")}`,
    "--deprovision",
    `node ${path.join(dir, "deprovision.mjs")}`,
    "--state",
    stateFile(),
    "--lease-days",
    "3",
    "--renew-price",
    "1",
    "--renew-days",
    "10",
    "--renew-before-hours",
    "48",
    "--attempts",
    "3",
    "--backoff-ms",
    "100",
  ];
  const startAgent = async (args: string[] = [], extraEnv: Record<string, string> = {}) => {
    const child = spawn(process.execPath, [...AGENT, ...baseArgs(), "--poll-seconds", "0.3", ...args], {
      cwd: ROOT,
      env: env(extraEnv),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const agent = new AgentProcess(child);
    agents.push(agent);
    await eventually(
      async () => (/serving/.test(agent.output) ? true : undefined),
      60_000,
      `the agent's start\n${agent.output}`,
    );
    return agent;
  };
  const kill = async (agent: AgentProcess) => {
    agent.child.kill("SIGKILL");
    await agent.exit;
    expect(() => process.kill(agent.child.pid!, 0), "the agent's process is gone").to.throw();
  };
  const redeemAs = async (role: "user" | "user2", amount = "1") => {
    await approveRedemptionSync(client[role], { amount: parseEther(amount) });
    const { redemptionId } = await initiateRedemptionSync(client[role], {
      amount: parseEther(amount),
      provider: signer("providerA").address,
    });
    return redemptionId;
  };
  const until = <T>(what: string, read: () => Promise<T | undefined> | T | undefined, ms = 60_000) =>
    eventually(async () => read(), ms, what);
  const fulfilled = (id: bigint) =>
    until(`redemption ${id} fulfilled`, () => (recordOf(id)?.status === "fulfilled" ? true : undefined));
  const fulfilments = async (id: bigint) =>
    (await live.d.redemptionManager.queryFilter(live.d.redemptionManager.filters.RedemptionFulfilled(id))).length;

  before(async function () {
    live = await sharedLiveDeployment("provider-agent", { satellite: false });
    await registerProvider(live, signer("providerA"), sampleProfile("Acme Compute"), 0);
    await mintUnit(live, signer("providerA"), parseEther("100"));
    for (const role of ["user", "user2"] as const) {
      await (await live.d.sstb.connect(signer("providerA")).transfer(signer(role).address, parseEther("30"))).wait();
    }
    for (const role of ["user", "user2"] as const) client[role] = await protocolClientOf(live, role);
    await resetDatabase();
    gw = await startGateway(testConfig(live), { log: () => {} });
    await gw.synced();
    apiKey = (await gw.keys.create({ tier: "premium", account: signer("providerA").address, scopes: ["read"] })).token;
    proxy = new RpcProxy(live.nodes[0].url);
    await proxy.start();
    dir = mkdtempSync(path.join(tmpdir(), "provider-agent-"));
    writeFileSync(path.join(dir, "provision.mjs"), PROVISION);
    writeFileSync(path.join(dir, "deprovision.mjs"), DEPROVISION);
  });

  afterEach(async function () {
    for (const agent of agents.splice(0)) {
      if (agent.child.exitCode === null && agent.child.signalCode === null) {
        agent.child.kill("SIGTERM");
        await agent.exit;
      }
    }
    proxy.mode = "pass";
  });

  after(async function () {
    await proxy?.stop();
    await gw?.close();
    await live?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it("refuses to start, naming everything missing, without the key, the API key or the commands", function () {
    const result = spawnSync(process.execPath, [...AGENT, "serve", "--gateway", "ftp://x"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH },
      encoding: "utf8",
    });
    expect(result.status).to.equal(2);
    expect(result.stderr).to.include("the provider agent cannot start:");
    for (const problem of [
      "missing PROVIDER_PRIVATE_KEY",
      "missing PROVIDER_API_KEY",
      "missing the provisioning command: --provision",
      "missing the deprovisioning command: --deprovision",
      "missing the primary chain's RPC URL: --rpc or PROVIDER_RPC_URL",
      `the gateway's URL must be an http(s) URL (got "ftp://x")`,
    ]) {
      expect(result.stderr).to.include(problem);
    }
  });

  it("waits for a user without an access key, then fulfils; the user opens the details with the wallet-derived key", async function () {
    const agent = await startAgent();
    const id = await redeemAs("user2");
    await until("the wait", () => (recordOf(id)?.status === "waiting_for_key" ? true : undefined));
    await until("the log line", () =>
      agent.lines(new RegExp(`redemption ${id} waits: user ${signer("user2").address} has registered no access key`))
        .length === 1
        ? true
        : undefined,
    );
    expect(logOf("provision.log")).to.not.include(String(id)); // nothing provisioned for a key that is not there
    expect((await getRedemption(client.user2, { redemptionId: id })).status).to.equal("pending");

    const { keys } = await registerDerivedAccessKey(client.user2, {
      domain: "portal.test",
      uri: "https://portal.test",
    });
    await fulfilled(id);
    const details = await getAccessDetails(client.user2, { redemptionId: id, privateKey: keys.privateKey });
    expect(details.hostname).to.equal(`host-${id}.fake.example`);
    const lease = (await getLease(client.user2, { leaseId: id }))!;
    expect(details.expiration).to.equal(new Date(Number(lease.end) * 1000).toISOString());
    expect(Number(lease.end) - Number(await chainNow())).to.be.within(3 * DAY - 60, 3 * DAY);
    expect(JSON.parse(readFileSync(path.join(dir, `host-${id}.json`), "utf8"))).to.deep.equal({
      user: signer("user2").address,
      key: keys.publicKey.toLowerCase(),
    });
    expect(logOf("provision.log").filter((x) => x === String(id))).to.have.length(1);
    const line = new RegExp(`fulfilled redemption ${id}, lease until`);
    await until("the agent's line", () => (agent.lines(line).length > 0 ? true : undefined));
    expect(agent.lines(line)).to.have.length(1);
  });

  it("killed between provisioning and fulfilment, fulfils exactly once after a restart, without provisioning again", async function () {
    proxy.mode = "hold";
    const first = await startAgent();
    const id = await redeemAs("user2");
    await until("the held fulfilment", () =>
      recordOf(id)?.status === "provisioned" && proxy.held > 0 ? true : undefined,
    );
    await kill(first);
    expect((await getRedemption(client.user2, { redemptionId: id })).status).to.equal("pending");

    proxy.mode = "pass";
    const second = await startAgent();
    await fulfilled(id);
    expect(await fulfilments(id)).to.equal(1);
    expect(logOf("provision.log").filter((x) => x === String(id))).to.have.length(1);
    expect(second.lines(/provisioned redemption/).filter((l) => l.includes(` ${id} `))).to.deep.equal([]);
  });

  it("killed after its fulfilment was mined but before it heard back, records it after a restart and sends nothing again", async function () {
    proxy.mode = "forward-then-hold";
    const first = await startAgent();
    const id = await redeemAs("user2");
    await until("the mined fulfilment", async () => ((await fulfilments(id)) === 1 ? true : undefined));
    await kill(first);
    expect(recordOf(id)?.status).to.equal("provisioned");

    proxy.mode = "pass";
    const second = await startAgent();
    await fulfilled(id);
    // the agent writes its state file before its log line reaches the test through the child's stdout
    const recorded = new RegExp(`redemption ${id} already fulfilled on-chain: recorded, not sent again`);
    await until("the agent's line", () => (second.lines(recorded).length > 0 ? true : undefined));
    expect(second.lines(recorded)).to.have.length(1);
    expect(await fulfilments(id)).to.equal(1);
    expect(logOf("provision.log").filter((x) => x === String(id))).to.have.length(1);
  });

  /** `npm run provider -- <args>` against the test's state file, while the agent runs. */
  const command = (...args: string[]) =>
    spawnSync(process.execPath, [...AGENT, ...args, "--state", stateFile()], { cwd: ROOT, encoding: "utf8" });
  const provisionRuns = (id: bigint) => logOf("provision.log").filter((x) => x === String(id)).length;

  it("retries a failing provisioning command with backoff, reports it, and retries it again on the provider's word while it runs", async function () {
    writeFileSync(path.join(dir, "fail"), "");
    let failing = true;
    try {
      const agent = await startAgent();
      const id = await redeemAs("user2");
      await until("the alert", () =>
        agent.lines(new RegExp(`ALERT redemption ${id} not provisioned`)).length > 0 ? true : undefined,
      );
      expect(provisionRuns(id)).to.equal(3);
      expect(agent.lines(new RegExp(`provisioning redemption ${id} failed \\(attempt [123]/3\\)`))).to.have.length(3);
      expect(
        agent.lines(new RegExp(`ALERT redemption ${id} .*\\(npm run provider -- retry ${id}, or abandon ${id}\\)`)),
      ).to.have.length(1);
      expect(recordOf(id)).to.deep.include({ status: "failed", error: "exit status 3: no capacity left in rack 7" });
      const status = command("status");
      expect(status.stdout).to.include(
        `redemption ${id}: failed, error: exit status 3: no capacity left in rack 7  <- needs a decision: npm run provider -- retry ${id}, or abandon ${id}`,
      );
      expect(status.stdout).to.match(new RegExp(`^1 redemption needs a decision \\(retry or abandon\\): ${id}$`, "m"));
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // passes later: not run again
      expect(provisionRuns(id)).to.equal(3);
      expect((await getRedemption(client.user2, { redemptionId: id })).status).to.equal("pending");

      // the rack has room again: the provider asks for a retry, the running agent takes it at its next pass
      rmSync(path.join(dir, "fail"));
      failing = false;
      const retry = command("retry", String(id));
      expect(retry.status).to.equal(0);
      expect(retry.stdout).to.include(`redemption ${id}: retry 1 requested`);
      await fulfilled(id);
      expect(provisionRuns(id)).to.equal(4);
      expect(agent.lines(new RegExp(`retrying redemption ${id} as the provider asked \\(retry 1\\)`))).to.have.length(
        1,
      );
      expect(await fulfilments(id)).to.equal(1);
      expect(recordOf(id)).to.deep.include({ status: "fulfilled", retries: 1 });
      expect(command("status").stdout).to.include("No redemption needs a decision.");
      // a retry of a fulfilled redemption is refused, naming its status
      const again = command("retry", String(id));
      expect(again.status).to.equal(1);
      expect(again.stderr).to.include(`redemption ${id} is fulfilled: retry applies to failed, abandoned redemptions`);
    } finally {
      if (failing) rmSync(path.join(dir, "fail"));
    }
  });

  it("abandons a failed redemption on the provider's word, while it runs: nothing more is run or sent for it", async function () {
    writeFileSync(path.join(dir, "fail"), "");
    try {
      await startAgent();
      const id = await redeemAs("user2");
      await until("the failure", () => (recordOf(id)?.status === "failed" ? true : undefined));
      const abandon = command("abandon", String(id));
      expect(abandon.status).to.equal(0);
      expect(abandon.stdout).to.include(`redemption ${id}: abandoned; the agent leaves it alone`);
      rmSync(path.join(dir, "fail")); // the command would work now: the agent must still leave it alone
      await new Promise((resolve) => setTimeout(resolve, 1_500)); // five passes at 0.3 s
      expect(provisionRuns(id)).to.equal(3);
      expect(recordOf(id)?.status).to.equal("abandoned");
      expect(await fulfilments(id)).to.equal(0);
      expect((await getRedemption(client.user2, { redemptionId: id })).status).to.equal("pending");
      const status = command("status").stdout;
      expect(status).to.include(`redemption ${id}: abandoned, error: exit status 3: no capacity left in rack 7`);
      expect(status).to.not.include(`retry ${id}, or abandon ${id}`);
    } finally {
      rmSync(path.join(dir, "fail"), { force: true });
    }
  });

  it("is woken by its webhook subscription (signatures verified), not only by polling", async function () {
    const port = await freePort();
    const sub = await gw.webhooks.subscriptions.create(signer("providerA").address, {
      url: `http://127.0.0.1:${port}/`,
      events: ["redemption.initiated"],
      own_events_only: true,
    });
    try {
      const agent = await startAgent(["--poll-seconds", "600", "--webhook-port", String(port)], {
        PROVIDER_WEBHOOK_SECRET: sub.secret,
      });
      const id = await redeemAs("user2");
      await fulfilled(id); // a pass every 10 minutes: only the webhook can have started this one
      expect(agent.lines(new RegExp(`webhook redemption.initiated ${id}$`))).to.have.length(1);
      const forged = await fetch(`http://127.0.0.1:${port}/`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-service-signature": "0".repeat(64) },
        body: "{}",
      });
      expect(forged.status).to.equal(401);
    } finally {
      await gw.webhooks.subscriptions.remove(signer("providerA").address, sub.subscription_id);
    }
  });

  it("offers a renewal by its rule, and reclaims the resources on a termination and at the lease's end", async function () {
    const agent = await startAgent();
    await registerDerivedAccessKey(client.user, { domain: "portal.test", uri: "https://portal.test" });
    const renewed = await redeemAs("user");
    const terminated = await redeemAs("user");
    await fulfilled(renewed);
    await fulfilled(terminated);
    // 3-day leases, renewals offered 48 h before the end
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect((await getLease(client.user, { leaseId: renewed }))!.offer).to.equal(null);
    await jump(DAY + 3_600);
    await gw.synced();
    const offer = await until(
      "the offer",
      async () => (await getLease(client.user, { leaseId: renewed }))!.offer ?? undefined,
    );
    expect(offer.price).to.equal(parseEther("1"));
    expect(offer.extension).to.equal(BigInt(10 * DAY));
    const endBefore = (await getLease(client.user, { leaseId: renewed }))!.end!;
    await approveRedemptionSync(client.user, { amount: parseEther("1") });
    const renewal = await acceptRenewalSync(client.user, {
      leaseId: renewed,
      price: offer.price,
      extension: offer.extension,
    });
    expect(renewal.end).to.equal(endBefore + BigInt(10 * DAY));

    await terminateLeaseSync(client.user, { leaseId: terminated });
    await until("the termination's reclaim", () =>
      logOf("deprovision.log").includes(`${terminated} terminated`) ? true : undefined,
    );
    expect(existsSync(path.join(dir, `host-${terminated}.json`))).to.equal(false);
    expect(existsSync(path.join(dir, `host-${renewed}.json`))).to.equal(true);

    await jump(13 * DAY);
    await gw.synced();
    await until("the end's reclaim", () => (logOf("deprovision.log").includes(`${renewed} ended`) ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 800));
    const log = logOf("deprovision.log");
    expect(log.filter((l) => l.startsWith(`${renewed} `))).to.deep.equal([`${renewed} ended`]);
    expect(log.filter((l) => l.startsWith(`${terminated} `))).to.deep.equal([`${terminated} terminated`]);
    expect(agent.lines(new RegExp(`offered lease ${renewed} a renewal`))).to.have.length(1);
  });
});
