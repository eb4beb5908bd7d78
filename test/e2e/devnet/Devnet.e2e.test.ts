import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import path from "node:path";

import { expect } from "chai";

import { freePort, isProcessAlive } from "../../../devnet/local-node.js";
import { KeyService } from "../../../gateway/auth/keys.js";
import { openStore } from "../../../gateway/store/db.js";

const cli = path.join(path.dirname(createRequire(import.meta.url).resolve("hardhat/package.json")), "dist/src/cli.js");

/** Runs `hardhat devnet` (what `npm start` runs) and collects its output; `untilUp` runs once it is up, then Ctrl-C. */
function runDevnet(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  untilUp?: (output: string) => Promise<void>,
): Promise<{ code: number | null; output: string; checked: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, "devnet", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env },
    });
    let output = "";
    let checked = false;
    let checking = false;
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (untilUp !== undefined && !checking && output.includes("Press Ctrl-C to stop it")) {
        checking = true;
        untilUp(output).then(
          () => ((checked = true), child.kill("SIGINT")),
          (error: unknown) => {
            output += `\ncheck failed: ${String(error)}`;
            child.kill("SIGINT");
          },
        );
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, output, checked }));
  });
}

const runDevnetOnce = (basePort: number) => runDevnet(["--once", "--base-port", String(basePort)]);

describe("npm start (the devnet, end to end)", function () {
  this.timeout(240_000); // the post-deployment check adds its reads of the three chains: 172.5 s of 180 on the shared 2-core machine

  it("starts three chains, deploys, starts the gateway, runs the scenario, writes devnet.json, and leaves no node behind", async function () {
    const basePort = await freePort();
    const gatewayPort = await freePort();
    const dataDir = await mkdtemp(path.join(tmpdir(), "devnet-gateway-"));
    let curlResult = "";
    let bridgeCurlResult = "";
    let subscriptionsWhileUp: unknown;
    const { code, output, checked } = await runDevnet(
      ["--base-port", String(basePort), "--gateway-port", String(gatewayPort)],
      { GATEWAY_DATA_DIR: dataDir },
      async (upOutput) => {
        // the summary's curl example, run as printed
        const curl = upOutput.split("\n").find((line) => line.trim().startsWith("curl "));
        expect(curl, upOutput).to.not.equal(undefined);
        curlResult = execFileSync("sh", ["-c", curl!.trim()], { encoding: "utf8" });
        // the bridge transfer's status, as printed after the scenario
        const bridgeCurl = upOutput.split("\n").find((line) => line.includes("/bridge/status/"));
        expect(bridgeCurl, upOutput).to.not.equal(undefined);
        bridgeCurlResult = execFileSync("sh", ["-c", bridgeCurl!.trim()], { encoding: "utf8" });
        // the demo removed the webhook subscription it made (its receiver is gone)
        const apiKey = /^\s+API key\s+(\S+)$/m.exec(upOutput)![1];
        const answer = await fetch(`http://127.0.0.1:${gatewayPort}/api/v1/webhooks`, {
          headers: { authorization: `Bearer ${apiKey}` },
        });
        subscriptionsWhileUp = ((await answer.json()) as { data: { total: number } }).data.total;
      },
    );
    // ... and the devnet's API key stops working with the devnet (revoked in its database)
    const store = await openStore({ databaseUrl: process.env.DATABASE_URL, dataDir });
    const keys = await new KeyService(store.db, "x".repeat(32)).list().finally(() => store.close());
    await rm(dataDir, { recursive: true, force: true });
    expect(subscriptionsWhileUp, output).to.equal(0);
    expect(output).to.match(/DELETE \/api\/v1\/webhooks\/[0-9a-f-]{36}: the demo's subscription and receiver are gone/);
    // the lease demo's provider key is revoked too
    const leaseKeys = keys.filter((k) => k.label === "devnet lease demo (provider agent)");
    expect(leaseKeys).to.have.length(1);
    expect(leaseKeys[0].revokedAt, JSON.stringify(leaseKeys)).to.not.equal(null);
    const devnetKeys = keys.filter((k) => k.label === "devnet");
    expect(devnetKeys).to.not.have.length(0);
    expect(
      devnetKeys.every((k) => k.revokedAt !== null),
      JSON.stringify(devnetKeys),
    ).to.equal(true);
    expect(code, output).to.equal(0);
    expect(checked, output).to.equal(true);
    const answer = JSON.parse(curlResult) as {
      success: boolean;
      data: { providers: Array<{ name: string }>; total: number };
    };
    expect(answer.success).to.equal(true);
    expect(answer.data.total).to.equal(1);
    expect(answer.data.providers[0].name).to.equal("Acme Compute");
    const transfer = JSON.parse(bridgeCurlResult) as { data: Record<string, unknown> };
    expect(transfer.data, bridgeCurlResult).to.include({
      source_chain: "arbitrum",
      destination_chain: "polygon",
      token: "sSTB",
      status: "completed",
      fee_option: "default",
    });
    expect(output).to.contain(`http://127.0.0.1:${gatewayPort}`);
    expect(output).to.contain("The gateway has indexed it");
    // the post-deployment check ran on the devnet's deployment, and every check passed
    expect(output).to.match(
      /all \d+ checks passed: code, proxies, roles, wiring, parameters, routes, governance \(deployments\/devnet-check\.txt\)/,
    );
    expect(output).to.not.contain("checks failed");
    // the redemption once more through the HTTP API, signed by the user's wallet, confirmed
    expect(output).to.match(/GET \/v1\/redemptions\/\d+: status confirmed/);
    // leases: the derived key, the agent's fulfilments, a renewal, a termination, an end, both reclaimed
    const [, renewed, ended] = /the user redeemed 2 and 1 sSTB: redemptions #(\d+) and #(\d+)/.exec(output) ?? [];
    expect(renewed, output).to.not.equal(undefined);
    for (const pattern of [
      /the user registered its access key, derived from its wallet's signature: 0x[0-9a-f]{64}/,
      new RegExp(`\\[agent\\] fulfilled redemption ${renewed}, lease until`),
      new RegExp(`\\[agent\\] fulfilled redemption ${ended}, lease until`),
      new RegExp(`the user opened #${renewed} with the derived key: lease${renewed}@vm-${renewed}\\.devnet\\.example`),
      new RegExp(`the user accepted on #${renewed}: renewal #\\d+, the lease now ends`),
      new RegExp(`\\[agent\\] deprovisioned lease ${renewed} \\(terminated\\)`),
      new RegExp(`\\[agent\\] deprovisioned lease ${ended} \\(ended\\)`),
      /the agent stopped; its state, both subscriptions and the provider's API key are gone/,
    ]) {
      expect(output).to.match(pattern);
    }
    for (const [event, lease] of [
      ["redemption.renewal_offered", renewed],
      ["redemption.renewed", renewed],
      ["redemption.terminated", renewed],
      ["redemption.lease_ended", ended],
    ]) {
      // each shown in both parties' lists
      const shown = output.match(new RegExp(`^\\s+${event.replace(".", "\\.")}\\s+#${lease}\\s+delivery`, "gm")) ?? [];
      expect(shown, event).to.have.length(2);
    }
    // ... and its webhooks, received and signature-checked by the demo's receiver
    const id = /GET \/v1\/redemptions\/(\d+): status confirmed/.exec(output)![1];
    for (const event of ["sstb.transferred", "redemption.initiated", "redemption.fulfilled", "redemption.confirmed"]) {
      expect(output).to.match(
        new RegExp(`^\\s+${event.replace(".", "\\.")}\\s+(#${id}|[\\d.]+ sSTB)\\s+delivery [0-9a-f-]{36}$`, "m"),
      );
    }

    const pids = [...output.matchAll(/\(pid (\d+)\)/g)].map((m) => Number(m[1]));
    expect(pids, output).to.have.length(3);
    for (const pid of pids) expect(isProcessAlive(pid), `node ${pid}`).to.equal(false);
    for (const [i, chain] of ["arbitrum", "ethereum", "polygon"].entries()) {
      expect(output).to.contain(`http://127.0.0.1:${basePort + i}`);
      expect(output).to.match(new RegExp(`${chain}\\s+chain id ${[42161, 1, 137][i]}`));
    }
    for (const line of [
      "registered (tier premium)",
      "verified by a 2-of-3 attestation",
      "listed 20 sSTB on the spot market at 1.5 mUSDC each for a day: listing #1",
      "bought 10 sSTB of listing #1 for 15.0 mUSDC (fee 0.045 mUSDC to the treasury)",
      "user decrypted it: ssh",
      "user confirmed: status confirmed",
      "expired by a keeper, user compensated with 2.0 mUSDC (the early-exit penalty of 0.4 mUSDC",
      "the user took it and escrowed 8.0 mUSDC",
      "a keeper settled future #2: user received 5.0 sSTB, status settled",
      "the provider wrote a covered call on 5 sSTB, strike 1.8 mUSDC",
      "user bought the call for 0.5 mUSDC",
      "user exercised the call: paid 9.0 mUSDC for 5 sSTB, status exercised",
      "Ready in ",
      "Relayer (devnet only; CCIP delivers on real chains)",
      "sSTB supply per chain: arbitrum 92.0, ethereum 0.0, polygon 1.0",
      "STBGOV escrowed on arbitrum 1.0 = bridged supply on the satellites 1.0",
    ]) {
      expect(output, line).to.contain(line);
    }
    // the bridge scenario: five hops, each a CCIP message id delivered by the relayer, with its time
    const hops = [
      ...output.matchAll(
        /^\s+\d\. ([\d.]+) (sSTB|STBGOV) (\w+) -> (\w+): message (0x[0-9a-f]{64}), fee .* \((\w+)\), completed in [\d.]+ s$/gm,
      ),
    ];
    expect(
      hops.map((m) => `${m[2]} ${m[3]} -> ${m[4]} (${m[6]})`),
      output,
    ).to.deep.equal([
      "sSTB arbitrum -> polygon (default)",
      "sSTB polygon -> ethereum (service)",
      "sSTB ethereum -> arbitrum (default)",
      "STBGOV arbitrum -> polygon (stb_gov)",
      "STBGOV polygon -> arbitrum (stb_gov)",
    ]);
    for (const m of hops) expect(output).to.contain(`relayer: delivered ${m[5].slice(0, 10)}`);

    const devnet = JSON.parse(await readFile(path.join("deployments", "devnet.json"), "utf8")) as Record<
      string,
      Record<string, string | number>
    >;
    expect(Object.keys(devnet)).to.deep.equal(["arbitrum", "ethereum", "polygon"]);
    for (const [i, chain] of ["arbitrum", "ethereum", "polygon"].entries()) {
      expect(devnet[chain].chainId).to.equal([42161, 1, 137][i]);
      expect(devnet[chain].rpcUrl).to.equal(`http://127.0.0.1:${basePort + i}`);
    }
    for (const name of [
      "CollateralToken",
      "CUToken",
      "SSTB",
      "GovernanceToken",
      "ProviderRegistry",
      "AttestationVerifier",
      "MintingAgent",
      "RedemptionManager",
      "SpotMarket",
      "FuturesMarket",
      "OptionsMarket",
      "ProtocolTimelock",
      "ProtocolGovernor",
      "Bridge",
      "DevnetCCIPRouter",
    ]) {
      expect(devnet.arbitrum[name], name).to.match(/^0x[0-9a-fA-F]{40}$/);
      expect(output).to.contain(devnet.arbitrum[name]);
    }
    for (const chain of ["ethereum", "polygon"]) {
      expect(Object.keys(devnet[chain]).sort()).to.deep.equal([
        "Bridge",
        "BridgeImplementation",
        "CUToken",
        "CollateralToken",
        "DevnetCCIPRouter",
        "GovernanceChannel",
        "GovernanceChannelImplementation",
        "GovernanceToken",
        "SSTB",
        "SSTBImplementation",
        "SatelliteExecutor",
        "chainId",
        "rpcUrl",
      ]);
    }
  });

  it("fails with the step that failed and why when a port is taken, and stops what it started", async function () {
    const { createServer } = await import("node:net");
    // a base port whose next port this test can take (another process may hold it: pick again)
    let basePort = 0;
    const blocker = createServer();
    for (let attempt = 0; basePort === 0; attempt++) {
      const candidate = await freePort();
      const taken = await new Promise<boolean>((resolve) => {
        blocker.once("error", () => resolve(false));
        blocker.listen(candidate + 1, "127.0.0.1", () => resolve(true));
      });
      if (taken) basePort = candidate;
      else if (attempt === 20) throw new Error("no port pair free after 20 tries");
    }
    try {
      const { code, output } = await runDevnetOnce(basePort);
      expect(code).to.equal(1);
      expect(output).to.contain(`step "check ports ${basePort}, ${basePort + 1}, ${basePort + 2} are free" failed`);
      expect(output).to.contain(`port ${basePort + 1} is in use`);
    } finally {
      blocker.close();
    }
  });
});
