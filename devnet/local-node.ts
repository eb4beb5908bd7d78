import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import path from "node:path";

/** A `hardhat node` JSON-RPC server running as a child process. */
export interface LocalNode {
  url: string;
  port: number;
  chainId: bigint;
  pid: number;
  /** Stops the node and waits for it to exit. Safe to call twice. */
  stop(): Promise<void>;
}

export interface LocalNodeOptions {
  chainId: bigint;
  /**
   * A fixed port. When omitted the node listens on port 0, so the operating system gives it a free
   * port as it binds, and the port is read from the node's own announcement: no other process can
   * take it between a check and the bind.
   */
  port?: number;
  hostname?: string;
  /** Project directory the node runs in, whose `hardhat` package it runs (default: the current directory). */
  cwd?: string;
  /** How long to wait for the node to answer JSON-RPC. */
  readyTimeoutMs?: number;
}

/** Raised when a node does not start; carries the node's own output for the reader. */
export class LocalNodeError extends Error {
  constructor(message: string, output: string) {
    super(output.trim() === "" ? message : `${message}\n--- node output ---\n${output.trim()}`);
    this.name = "LocalNodeError";
  }
}

const require = createRequire(import.meta.url);

/**
 * The config every node loads: the built-in `node` network, no plugins, no artifacts
 * (`devnet/node.config.ts`: the project's config cost each start about 2.5 CPU s more).
 */
export const NODE_CONFIG = path.join(import.meta.dirname, "node.config.ts");

/** A TCP port that was free a moment ago. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `hardhat --config devnet/node.config.ts node --hostname --port --chain-id` with the Node.js
 * that runs this process (the project's Node 22), waits until it answers `eth_chainId` with the
 * expected id, and returns a handle. The node gets its own process group, and is stopped when this
 * process exits.
 */
export async function startLocalNode(options: LocalNodeOptions): Promise<LocalNode> {
  const hostname = options.hostname ?? "127.0.0.1";
  const requested = options.port ?? 0;
  let port = requested;
  const cwd = options.cwd ?? process.cwd();
  const cli = path.join(path.dirname(require.resolve("hardhat/package.json", { paths: [cwd] })), "dist/src/cli.js");
  const child = spawn(
    process.execPath,
    [
      cli,
      "--config",
      NODE_CONFIG,
      "node",
      "--hostname",
      hostname,
      "--port",
      String(requested),
      "--chain-id",
      options.chainId.toString(),
    ],
    { cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8_000);
    if (port === 0) port = announcedPort(output) ?? 0;
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const onExit = () => kill(child);
  process.once("exit", onExit);

  let stopped = false;
  const stop = async () => {
    if (stopped) return exited;
    stopped = true;
    process.removeListener("exit", onExit);
    kill(child);
    const timer = setTimeout(() => kill(child, "SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  const where = () => (port === 0 ? "on a port of the system's choosing" : `on port ${port}`);
  while (true) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new LocalNodeError(`hardhat node ${where()} exited before it was ready`, output);
    }
    if (port === 0) {
      if (Date.now() > deadline) {
        await stop();
        throw new LocalNodeError(`hardhat node did not announce its port within the timeout`, output);
      }
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    const url = `http://${hostname}:${port}`;
    const chainId = await rpcChainId(url);
    if (chainId !== undefined) {
      if (chainId !== options.chainId) {
        await stop();
        throw new LocalNodeError(`node on ${url} reports chain id ${chainId}, expected ${options.chainId}`, output);
      }
      break;
    }
    if (Date.now() > deadline) {
      await stop();
      throw new LocalNodeError(`hardhat node on ${url} did not answer within the timeout`, output);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url: `http://${hostname}:${port}`, port, chainId: options.chainId, pid: child.pid!, stop };
}

/**
 * The port in `hardhat node`'s "Started HTTP and WebSocket JSON-RPC server at http://host:port/"
 * line (colours stripped), or undefined before the line is printed.
 */
export function announcedPort(output: string): number | undefined {
  const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
  const match = /JSON-RPC server at http:\/\/[^\s/]+:(\d+)\//.exec(plain);
  return match === null ? undefined : Number(match[1]);
}

/** Whether a process with this id is alive. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function rpcChainId(url: string): Promise<bigint | undefined> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(1_000),
    });
    const body = (await response.json()) as { result?: string };
    return body.result === undefined ? undefined : BigInt(body.result);
  } catch {
    return undefined;
  }
}

function kill(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): void {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal); // the whole group: the node and anything it started
  } catch {
    child.kill(signal);
  }
}
