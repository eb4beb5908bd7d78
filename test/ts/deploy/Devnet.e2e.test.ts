import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

import { expect } from "chai";

import { freePort, isProcessAlive } from "../../../scripts/lib/local-node.js";

const cli = path.join(path.dirname(createRequire(import.meta.url).resolve("hardhat/package.json")), "dist/src/cli.js");

/** Runs `hardhat devnet --once` (what `npm start -- --once` runs) and collects its output. */
function runDevnetOnce(basePort: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, "devnet", "--once", "--base-port", String(basePort)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, output }));
  });
}

describe("npm start -- --once (the devnet, end to end)", function () {
  this.timeout(180_000);

  it("starts three chains, deploys, runs the scenario, writes devnet.json, and leaves no node behind", async function () {
    const basePort = await freePort();
    const { code, output } = await runDevnetOnce(basePort);
    expect(code, output).to.equal(0);

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
      Record<string, string>
    >;
    expect(Object.keys(devnet)).to.deep.equal(["arbitrum", "ethereum", "polygon"]);
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
        "GovernanceToken",
        "SSTB",
        "SSTBImplementation",
        "SatelliteExecutor",
      ]);
    }
  });

  it("fails with the step that failed and why when a port is taken, and stops what it started", async function () {
    const { createServer } = await import("node:net");
    const basePort = await freePort();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(basePort + 1, "127.0.0.1", () => resolve()));
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
