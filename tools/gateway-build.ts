import { spawnSync } from "node:child_process";
import { cp, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * The gateway's build (`npm run build:gateway`): the SDK package (`sdk/dist`, what the gateway's
 * imports of `@compute-capacity/sdk` resolve to under plain Node), the gateway's TypeScript as ESM
 * JavaScript (`gateway/tsconfig.build.json`), its migrations and the portal's static files, and a
 * `package.json` that makes `dist/` an ES-module package with the gateway's runtime dependencies.
 * The result runs with `node dist/gateway/cli.js serve`: no tsx, no Hardhat, no Solidity build.
 *
 * dist/
 *   package.json          type: module, the version GATEWAY_VERSION reads, the dependencies
 *   gateway/**.js         the gateway (cli.js is the entry)
 *   gateway/drizzle/      the committed migrations (store/db.ts finds them beside its code)
 *   portal/dist/          the built portal (the default GATEWAY_PORTAL_DIR, beside the code)
 */

export const ROOT = path.resolve(import.meta.dirname, "..");

export interface GatewayBuildOptions {
  /** The repository (default: this one). */
  root?: string;
  /** Build the portal too (Vite; default true). Without it the gateway serves no portal unless GATEWAY_PORTAL_DIR names one. */
  portal?: boolean;
  /** Progress lines (default: console.log). */
  log?: (line: string) => void;
}

export interface GatewayBuild {
  /** dist/ */
  outDir: string;
  /** dist/gateway/cli.js */
  entry: string;
  /** Milliseconds per step. */
  ms: Record<"sdk" | "gateway" | "portal" | "total", number>;
  /** Bytes of dist/gateway (JavaScript, source maps, migrations) and of dist/ as a whole. */
  bytes: { gateway: number; total: number };
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): void {
  const result = spawnSync(command, args, { cwd, env, stdio: "inherit" });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} failed (status ${result.status ?? result.signal})`);
  }
}

async function sizeOf(target: string): Promise<number> {
  const info = await stat(target);
  if (!info.isDirectory()) return info.size;
  const { readdir } = await import("node:fs/promises");
  let total = 0;
  for (const entry of await readdir(target)) total += await sizeOf(path.join(target, entry));
  return total;
}

export async function buildGateway(options: GatewayBuildOptions = {}): Promise<GatewayBuild> {
  const root = options.root ?? ROOT;
  const log = options.log ?? ((line: string) => console.log(line));
  const outDir = path.join(root, "dist");
  const node = process.execPath;
  const bin = (file: string) => path.join(root, "node_modules", file);
  const started = performance.now();
  const ms = { sdk: 0, gateway: 0, portal: 0, total: 0 };

  let t = performance.now();
  log("Building the SDK package (sdk/dist)...");
  run("npm", ["run", "--silent", "build", "-w", "@compute-capacity/sdk"], root);
  ms.sdk = performance.now() - t;

  t = performance.now();
  log("Building the gateway (dist/gateway)...");
  await rm(path.join(outDir, "gateway"), { recursive: true, force: true });
  run(node, [bin("typescript/bin/tsc"), "-p", "gateway/tsconfig.build.json"], root);
  await cp(path.join(root, "gateway", "drizzle"), path.join(outDir, "gateway", "drizzle"), { recursive: true });
  const manifest = JSON.parse(await readFile(path.join(root, "package.json"), "utf8")) as {
    version: string;
    engines: Record<string, string>;
    dependencies: Record<string, string>;
  };
  const sdk = JSON.parse(await readFile(path.join(root, "sdk", "package.json"), "utf8")) as { version: string };
  await writeFile(
    path.join(outDir, "package.json"),
    `${JSON.stringify(
      {
        name: "compute-capacity-gateway",
        version: manifest.version,
        private: true,
        description: "The compute-capacity gateway, built (npm run build:gateway): node gateway/cli.js serve",
        type: "module",
        engines: manifest.engines,
        dependencies: { ...manifest.dependencies, "@compute-capacity/sdk": sdk.version },
      },
      null,
      2,
    )}\n`,
  );
  ms.gateway = performance.now() - t;

  if (options.portal !== false) {
    t = performance.now();
    log("Building the portal (dist/portal/dist)...");
    await rm(path.join(outDir, "portal"), { recursive: true, force: true });
    run(
      node,
      [
        bin("vite/bin/vite.js"),
        "build",
        "-c",
        "portal/vite.config.ts",
        "--outDir",
        path.join(outDir, "portal", "dist"),
      ],
      root,
      // a production bundle whatever the caller's NODE_ENV (a test runner's `test` gives React's development build)
      { ...process.env, NODE_ENV: "production" },
    );
    ms.portal = performance.now() - t;
  }
  ms.total = performance.now() - started;
  const bytes = { gateway: await sizeOf(path.join(outDir, "gateway")), total: await sizeOf(outDir) };
  return { outDir, entry: path.join(outDir, "gateway", "cli.js"), ms, bytes };
}
