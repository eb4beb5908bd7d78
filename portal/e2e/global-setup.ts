import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

import { CHROMIUM } from "./chromium";
import { STATE_FILE, RESULTS_DIR } from "./devnet-state";
import type { DevnetState } from "./devnet-state";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** Chromium from Debian: installed with apt-get when missing and the process is root; otherwise the exact command. */
function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() === 0) {
    console.log("Chromium is missing: installing Debian's chromium (apt-get install -y chromium)...");
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
    execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    if (existsSync(CHROMIUM)) return;
  }
  throw new Error(
    `The browser tests need Chromium at ${CHROMIUM}. Install it with:\n  sudo apt-get install -y chromium\n` +
      "(or point PORTAL_CHROMIUM at a Chromium binary)",
  );
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Three free ports in a row for the nodes. */
async function freeRange(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 30_000);
    const ok = await Promise.all(
      [0, 1, 2].map(
        (i) =>
          new Promise<boolean>((resolve) => {
            const server = createServer();
            server.once("error", () => resolve(false));
            server.listen(base + i, "127.0.0.1", () => server.close(() => resolve(true)));
          }),
      ),
    );
    if (ok.every(Boolean)) return base;
  }
  throw new Error("no three free ports in a row");
}

/**
 * Starts the devnet as `npm start` does (`hardhat devnet`: it builds the portal, starts three nodes,
 * deploys, starts the gateway and runs the demo scenario) on free ports, with a deployments folder of
 * its own, and waits until it says it is up. The state (URLs, pid) goes to a file the tests read.
 */
export default async function globalSetup(): Promise<void> {
  ensureChromium();
  rmSync(RESULTS_DIR, { recursive: true, force: true });
  mkdirSync(RESULTS_DIR, { recursive: true });
  const basePort = await freeRange();
  const gatewayPort = await freePort();
  const child = spawn(
    path.join(ROOT, "node_modules", ".bin", "hardhat"),
    ["devnet", "--base-port", String(basePort), "--gateway-port", String(gatewayPort)],
    {
      cwd: ROOT,
      // a gateway folder of its own (a running `npm start` holds .gateway/devnet), PGlite
      env: { ...process.env, GATEWAY_DATA_DIR: path.join(RESULTS_DIR, "gateway"), DATABASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  let output = "";
  const started = Date.now();
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the devnet did not come up within 5 minutes:\n${output}`)),
      300_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("The devnet is up.")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the devnet exited with ${code} before it was up:\n${output}`));
    });
  });
  child.stdout.removeAllListeners("data");
  child.stderr.removeAllListeners("data");
  child.stdout.resume();
  child.stderr.resume();
  const gatewayUrl = /URL\s+(http:\/\/\S+?)\s/.exec(output)?.[1];
  if (gatewayUrl === undefined) throw new Error(`the devnet printed no gateway URL:\n${output}`);
  const portalLine = /URL\s+(http:\/\/\S+\/portal\/)/.exec(output)?.[1];
  const state: DevnetState = {
    pid: child.pid!,
    gatewayUrl,
    portalUrl: portalLine ?? `${gatewayUrl}/portal/`,
    rpcUrl: `http://127.0.0.1:${basePort}`,
    startSeconds: (Date.now() - started) / 1000,
    printed: output,
  };
  writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));
  process.env.PORTAL_DEVNET_STATE = STATE_FILE;
}
