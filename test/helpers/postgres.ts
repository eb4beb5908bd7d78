import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { freePort } from "../../devnet/local-node.js";

/**
 * A PostgreSQL server of a test's own (its own data folder, port and socket folder), so that a test
 * can stop and start it without touching the server other tests and people use. Built with the
 * installed PostgreSQL's `initdb` and `pg_ctl` (run as the `postgres` user when the test runs as
 * root, which `initdb` refuses to be); trust authentication on loopback, superuser `gateway`.
 */
export class PrivatePostgres {
  readonly port: number;
  private constructor(
    private readonly bin: string,
    private readonly dir: string,
    port: number,
  ) {
    this.port = port;
  }

  /** `postgres://gateway@127.0.0.1:<port>/<database>`. */
  url(database = "gateway"): string {
    return `postgres://gateway@127.0.0.1:${this.port}/${database}`;
  }

  /**
   * Initialises and starts a server on a port that was free a moment before. When another process
   * takes the port in between, `pg_ctl start` fails and the server is made again on another port,
   * up to three times.
   */
  static async create(): Promise<PrivatePostgres> {
    const bin = postgresBin();
    for (let attempt = 1; ; attempt++) {
      const dir = mkdtempSync(path.join(tmpdir(), "gateway-pg-"));
      chmodSync(dir, 0o777); // the postgres user writes here when the test runs as root
      const server = new PrivatePostgres(bin, dir, await freePort());
      try {
        server.run("initdb", ["-D", server.data, "-U", "gateway", "--auth=trust", "--no-sync", "-E", "UTF8"]);
        server.start();
        server.psql("postgres", "CREATE DATABASE gateway");
        return server;
      } catch (error) {
        try {
          server.destroy();
        } catch {
          // the start's error is the one to report
        }
        if (attempt === 3) throw error;
      }
    }
  }

  private get data(): string {
    return path.join(this.dir, "data");
  }

  /** Starts the server and waits until it accepts connections. */
  start(): void {
    const options = `-p ${this.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${this.dir} -c fsync=off`;
    this.run("pg_ctl", ["-D", this.data, "-o", options, "-l", path.join(this.dir, "server.log"), "-w", "start"]);
  }

  /** Stops the server now (`-m immediate`: connections are cut as in a crash). */
  stop(mode: "fast" | "immediate" = "immediate"): void {
    this.run("pg_ctl", ["-D", this.data, "-m", mode, "-w", "stop"]);
  }

  /** Stops it (if running) and deletes its folder. */
  destroy(): void {
    try {
      if (existsSync(path.join(this.data, "postmaster.pid"))) this.stop();
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
    }
  }

  /** A new empty database of the server; its URL. */
  createDatabase(name: string): string {
    this.psql("postgres", `CREATE DATABASE ${name}`);
    return this.url(name);
  }

  private psql(database: string, command: string): void {
    execFileSync(
      path.join(this.bin, "psql"),
      ["-h", "127.0.0.1", "-p", String(this.port), "-U", "gateway", "-d", database, "-c", command],
      {
        stdio: "pipe",
      },
    );
  }

  private run(tool: string, args: string[]): void {
    const command = path.join(this.bin, tool);
    const root = process.getuid?.() === 0;
    const [file, argv] = root ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
    execFileSync(file, argv, { stdio: "pipe", timeout: 120_000 });
  }
}

/** The installed PostgreSQL's programs (the newest version under /usr/lib/postgresql, or pg_config's). */
function postgresBin(): string {
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(path.join(root, v, "bin", "initdb")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length > 0) return path.join(root, versions[0], "bin");
  }
  try {
    return execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim();
  } catch {
    throw new Error("PostgreSQL's initdb and pg_ctl are needed for this test (apt-get install postgresql)");
  }
}
