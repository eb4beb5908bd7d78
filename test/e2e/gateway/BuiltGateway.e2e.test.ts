import { spawn } from "node:child_process";
import { cp, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { expect } from "chai";

import { sampleProfile } from "../../../devnet/samples.js";
import {
  ROLE,
  registerProvider,
  resetDatabase,
  runLiveScenario,
  spawnGatewayProcess,
  startLiveDeployment,
} from "../../../testing/fixtures.js";
import type { GatewayProcess, LiveDeployment } from "../../../testing/fixtures.js";
import { ROOT, buildGateway } from "../../../tools/gateway-build.js";
import type { GatewayBuild } from "../../../tools/gateway-build.js";

/**
 * A module-resolution hook for the built gateway's process: any module resolved inside the
 * repository but outside its installed packages (node_modules/) and the SDK's build (sdk/dist/),
 * any TypeScript file, and Hardhat, tsx or TypeChain anywhere fail the import.
 */
const guard = (root: string): string => {
  const hooks = String.raw`
const ROOT = ROOT_URL;
const ALLOWED = [ROOT + "node_modules/", ROOT + "sdk/dist/"];
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const url = resolved.url;
  const outside = url.startsWith(ROOT) && !ALLOWED.some((a) => url.startsWith(a));
  if (outside || /[.][cm]?tsx?$/.test(url) || /\/(typechain-types|artifacts)\//.test(url) ||
      /\/node_modules\/(hardhat|tsx|@nomicfoundation)\//.test(url)) {
    throw new Error("built-guard: the built gateway loaded " + url);
  }
  return resolved;
}`.replace("ROOT_URL", JSON.stringify(`${pathToFileURL(root).href}/`));
  return [
    'import { register } from "node:module";',
    `register("data:text/javascript," + encodeURIComponent(${JSON.stringify(hooks)}));`,
    "",
  ].join("\n");
};

/** Runs the copied CLI with plain Node (no loader but the guard) and resolves with its output. */
function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "./guard.mjs", "gateway/cli.js", ...args], { cwd, env });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, out }));
  });
}

/**
 * Issue 26's "built once, started plainly", from outside: `buildGateway` (npm run build:gateway),
 * dist/ copied out of the repository beside a link to its node_modules, then started with `node`
 * alone, every setting from the environment, against a live deployment. The process's imports are
 * guarded: nothing of the repository's sources, artifacts or TypeChain bindings, no tsx, no Hardhat.
 */
describe(`The built gateway (dist/) under plain Node, outside the repository, on ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"}`, function () {
  this.timeout(600_000);

  let build: GatewayBuild;
  let copy: string;
  let live: LiveDeployment;
  let env: NodeJS.ProcessEnv;
  let gateway: GatewayProcess | undefined;
  let token: string;

  before(async function () {
    build = await buildGateway({ log: () => {} });
    copy = await mkdtemp(path.join(tmpdir(), "built-gateway-"));
    await cp(build.outDir, copy, { recursive: true });
    await symlink(path.join(ROOT, "node_modules"), path.join(copy, "node_modules"), "dir");
    await writeFile(path.join(copy, "guard.mjs"), guard(ROOT));
    await writeFile(path.join(copy, "jwt-secret"), "a-production-secret-of-more-than-32-characters\n");

    await resetDatabase();
    live = await startLiveDeployment("built", { satellite: false });
    await runLiveScenario(live);
    // outside the devnet, as an operator runs it; only Node's own folder on PATH, no NODE_OPTIONS
    env = {
      PATH: path.dirname(process.execPath),
      HOME: copy,
      GATEWAY_ENVIRONMENT: "testnet",
      GATEWAY_DEPLOYMENT_FILE: live.deploymentFile,
      GATEWAY_DATA_DIR: path.join(copy, "data"),
      GATEWAY_PORT: "0",
      GATEWAY_JWT_SECRET_FILE: path.join(copy, "jwt-secret"),
      GATEWAY_METRICS_TOKEN: "metrics-token",
      GATEWAY_REQUIRE_HTTPS: "false",
      GATEWAY_CONFIRMATIONS: "0",
      GATEWAY_POLL_MS: "100",
      GATEWAY_LOG_LEVEL: "info", // the start line says where it listens
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    };
  });
  after(async function () {
    await gateway?.kill();
    await live?.stop();
    if (copy !== undefined) await rm(copy, { recursive: true, force: true });
  });

  it("builds dist/: the gateway's JavaScript, its migrations, the portal and an ES-module package.json", async function () {
    const { readFile, readdir } = await import("node:fs/promises");
    const manifest = JSON.parse(await readFile(path.join(copy, "package.json"), "utf8")) as Record<string, any>;
    expect(manifest.type).to.equal("module");
    expect(Object.keys(manifest.dependencies)).to.include.members(["ethers", "fastify", "@compute-capacity/sdk"]);
    expect(Object.keys(manifest.dependencies)).not.to.include.members(["hardhat", "tsx"]);
    expect(
      (await readdir(path.join(copy, "gateway", "drizzle"))).filter((f) => f.endsWith(".sql")),
    ).to.have.length.above(0);
    expect(await readdir(path.join(copy, "portal", "dist"))).to.include("index.html");
    console.log(
      `      build: ${(build.ms.total / 1000).toFixed(1)} s (SDK ${(build.ms.sdk / 1000).toFixed(1)} s, gateway ` +
        `${(build.ms.gateway / 1000).toFixed(1)} s, portal ${(build.ms.portal / 1000).toFixed(1)} s); dist/gateway ` +
        `${(build.bytes.gateway / 1024).toFixed(0)} kB, dist ${(build.bytes.total / 1024).toFixed(0)} kB`,
    );
  });

  it("creates an API key with the built CLI (the same binary's keys command)", async function () {
    const created = await cli(["keys", "create", "--quiet"], copy, env);
    expect(created.code, created.out).to.equal(0);
    token = created.out.trim();
    expect(token).to.match(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it("serves: /livez, an authenticated read, the portal, and the indexer follows the chain", async function () {
    gateway = await spawnGatewayProcess(env, {
      args: ["--import", "./guard.mjs", "gateway/cli.js", "serve"],
      cwd: copy,
    });
    const get = (route: string, headers: Record<string, string> = {}) => fetch(`${gateway!.url}${route}`, { headers });
    const auth = { authorization: `Bearer ${token}` };

    expect((await get("/livez")).status).to.equal(200);
    expect((await get("/v1/providers/list")).status, "a read without a key").to.equal(401);
    const portal = await get("/portal/");
    expect(portal.status, "the portal from dist/portal/dist").to.equal(200);
    expect(await portal.text()).to.contain("<html");

    const providers = async () =>
      ((await (await get("/v1/providers/list", auth)).json()) as { data: { providers: unknown[] } }).data.providers;
    const until = async (check: () => Promise<boolean>, what: string) => {
      const deadline = Date.now() + 60_000;
      while (!(await check())) {
        if (Date.now() > deadline) throw new Error(`${what} within 60 s\n${gateway!.output()}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    // the scenario's provider, indexed from the chain's history
    await until(async () => (await providers()).length === 1, "the scenario's provider indexed");
    await until(async () => (await get("/readyz")).status === 200, "/readyz 200");
    // and one registered while it runs
    await registerProvider(live, live.signers[ROLE.providerB], sampleProfile("Borealis Cloud"), 0);
    await until(async () => (await providers()).length === 2, "a provider registered while serving indexed");

    expect(gateway.output(), "the guard refused no import").not.to.contain("built-guard");
    const stopped = await gateway.terminate();
    gateway = undefined;
    expect(stopped.code, "a graceful stop").to.equal(0);
  });
});
