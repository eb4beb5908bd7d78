import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { connect } from "node:net";

import { freePort } from "../../devnet/local-node.js";

/** Where Debian (and a source install) put redis-server; undefined when it is not installed. */
export const REDIS_SERVER = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].find((p) => existsSync(p));

/**
 * A redis-server of a test's own on a free port, in memory only (no snapshot, no append-only file),
 * for the tests of instances that share rate-limit counters. `.ci/run` installs redis-server.
 */
export class LocalRedis {
  private constructor(
    private readonly server: ChildProcess,
    readonly port: number,
  ) {}

  /** `redis://127.0.0.1:<port>`. */
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /**
   * Starts it and resolves once it answers PING (throws after `timeoutMs`, the server stopped). The
   * port was free a moment before: a server that exits because another process took it in between
   * is started again on another port, up to three times.
   */
  static async start(timeoutMs = 10_000): Promise<LocalRedis> {
    if (REDIS_SERVER === undefined) {
      throw new Error("redis-server is needed for this test (apt-get install redis-server)");
    }
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const server = spawn(
        REDIS_SERVER,
        ["--bind", "127.0.0.1", "--port", String(port), "--save", "", "--appendonly", "no"],
        { stdio: "ignore" },
      );
      const redis = new LocalRedis(server, port);
      const until = Date.now() + timeoutMs;
      while (server.exitCode === null && !(await answersPing(port))) {
        if (Date.now() > until) {
          redis.stop();
          throw new Error(`redis-server did not answer on port ${port} within ${timeoutMs} ms`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // answering while exited: another process holds the port
      if (server.exitCode === null) return redis;
      if (attempt === 3) throw new Error(`redis-server exited with code ${server.exitCode} on port ${port}`);
    }
  }

  stop(): void {
    this.server.kill();
  }
}

/** One PING over a fresh connection (a client library would keep reconnecting on its own). */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (chunk: Buffer) => done(chunk.toString().startsWith("+PONG")));
  });
}
