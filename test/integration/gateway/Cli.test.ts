import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { expect } from "chai";
import { getAddress } from "ethers";
import type { FastifyInstance } from "fastify";

import { KeyService } from "../../../gateway/auth/keys.js";
import { loadConfig, urlFileOf } from "../../../gateway/config.js";
import { buildApp } from "../../../gateway/http/app.js";
import { openStore } from "../../../gateway/store/db.js";
import type { Store } from "../../../gateway/store/db.js";
import { resetDatabase } from "../../../testing/fixtures.js";

/** Fails any import of the compiled contracts (TypeChain bindings, artifacts) in the child process. */
const NO_CONTRACTS = "./test/helpers/no-contracts.mjs";
const JWT = /^[\w-]+\.[\w-]+\.[\w-]+$/;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** `npm run gateway -- <args>` as the script runs it (tsx gateway/cli.ts), without the compiled contracts. */
function gateway(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--import", NO_CONTRACTS, "gateway/cli.ts", ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
  });
}

/** The claims of a JWT (not verified: the gateway's own tests verify keys). */
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8")) as Record<string, unknown>;

describe(`The gateway command (npm run gateway) as a child process, on ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"}`, function () {
  this.timeout(120_000);
  let dir: string;
  let env: NodeJS.ProcessEnv;

  before(async function () {
    await resetDatabase();
    dir = await mkdtemp(path.join(tmpdir(), "gateway-cli-"));
    env = { GATEWAY_DATA_DIR: dir };
  });
  after(async function () {
    await rm(dir, { recursive: true, force: true });
  });

  it("runs from the source under tsx (npm run gateway) or built under plain Node (npm run gateway:start)", function () {
    const scripts = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts;
    expect(scripts.gateway).to.equal("tsx gateway/cli.ts");
    // the build and its start: test/e2e/gateway/BuiltGateway.e2e.test.ts runs them
    expect(scripts["gateway:start"]).to.equal("node dist/gateway/cli.js");
    expect(scripts["build:gateway"]).to.equal("tsx scripts/build-gateway.ts");
  });

  describe("keys create", function () {
    it("--quiet prints only the key; a read-only key needs no --account (a fresh one that owns nothing)", async function () {
      const run = await gateway(["keys", "create", "--quiet"], env);
      expect(run.code, run.stderr).to.equal(0);
      const lines = run.stdout.trim().split("\n");
      expect(lines, run.stdout).to.have.length(1);
      expect(lines[0]).to.match(JWT);
      const claims = claimsOf(lines[0]);
      expect(claims).to.include({ tier: "standard", scope: "read" });
      expect(claims.sub).to.equal(getAddress(claims.sub as string));
      console.log(`      keys create --quiet: ${(run.ms / 1000).toFixed(1)} s, contracts never loaded`);

      const named = await gateway(
        [
          "keys",
          "create",
          "--quiet",
          "--tier",
          "premium",
          "--scopes",
          "read,write",
          "--account",
          "0x" + "ab".repeat(20),
        ],
        env,
      );
      expect(named.code, named.stderr).to.equal(0);
      expect(claimsOf(named.stdout.trim())).to.include({
        tier: "premium",
        scope: "read write",
        sub: getAddress("0x" + "ab".repeat(20)),
      });
    });

    it("names a missing or bad flag and shows the usage (exit 2), never 'invalid body'", async function () {
      const missing = await gateway(["keys", "create", "--scopes", "read,write"], env);
      expect(missing.code).to.equal(2);
      expect(missing.stdout).to.equal("");
      expect(missing.stderr).to.contain("--account is required for a key with the write scope");
      expect(missing.stderr).to.contain("Usage:");
      expect(missing.stderr).to.contain("npm run gateway -- keys create");
      expect(missing.stderr).to.not.contain("invalid body");
      const tier = await gateway(["keys", "create", "--tier", "gold"], env);
      expect(tier.code).to.equal(2);
      expect(tier.stderr).to.contain("--tier must be one of standard, premium, enterprise");
      const revoke = await gateway(["keys", "revoke"], env);
      expect(revoke.code).to.equal(2);
      expect(revoke.stderr).to.contain("keys revoke needs the KEY_ID");
      const unknown = await gateway(["keys", "create", "--acount", "0x1"], env);
      expect(unknown.code).to.equal(2);
      expect(unknown.stderr).to.contain("--acount");
      expect(unknown.stderr).to.contain("Usage:");
    });

    it("lists and revokes keys; --port still works but is deprecated for --gateway-port", async function () {
      const listed = await gateway(["keys", "list", "--port", "8081"], env);
      expect(listed.code, listed.stderr).to.equal(0);
      expect(listed.stderr).to.contain("--port is deprecated; use --gateway-port");
      const keys = (JSON.parse(listed.stdout) as { keys: Array<{ keyId: string; tier: string }> }).keys;
      expect(keys.map((k) => k.tier).sort()).to.deep.equal(["premium", "standard"]); // the refused creates made none
      const revoked = await gateway(["keys", "revoke", keys[0].keyId], env);
      expect(revoked.stderr).to.equal("");
      expect(revoked.code, revoked.stderr).to.equal(0);
      expect(JSON.parse(revoked.stdout)).to.deep.equal({ key_id: keys[0].keyId, revoked: true });
    });
  });

  describe("accounts and webhooks", function () {
    it("run without the contracts, and a missing --account or id is named with the usage", async function () {
      const accounts = await gateway(["accounts", "list"], env);
      expect(accounts.code, accounts.stderr).to.equal(0);
      expect(JSON.parse(accounts.stdout)).to.deep.equal({ accounts: [] });
      const owner = "0x" + "cd".repeat(20);
      const list = await gateway(["webhooks", "list", "--account", owner], env);
      expect(list.code, list.stderr).to.equal(0);
      expect(JSON.parse(list.stdout)).to.include({ total: 0 });
      const noAccount = await gateway(["webhooks", "list"], env);
      expect(noAccount.code).to.equal(2);
      expect(noAccount.stderr).to.contain("--account is required");
      expect(noAccount.stderr).to.contain("npm run gateway -- webhooks create");
      const noId = await gateway(["webhooks", "test", "--account", owner], env);
      expect(noId.code).to.equal(2);
      expect(noId.stderr).to.contain("webhooks test needs a SUBSCRIPTION_ID");
      expect(noId.stderr).to.contain("Usage:");
    });
  });

  describe("serve", function () {
    it("loads no compiled contract either (the ABIs come from the SDK): it gets as far as the deployment file", async function () {
      const missing = path.join(dir, "no-such-deployment.json");
      const run = await gateway(["serve"], { ...env, GATEWAY_DEPLOYMENT_FILE: missing });
      expect(run.code, run.stderr).to.equal(1);
      expect(run.stderr).not.to.contain("no-contracts");
      expect(run.stderr).to.contain("no-such-deployment.json");
    });
  });

  describe("--gateway-port, and --port as its deprecated name", function () {
    it("reads the port from --gateway-port, then --port, then GATEWAY_PORT", function () {
      expect(loadConfig({ "gateway-port": "9002", port: "9001" }, { GATEWAY_PORT: "9000" }, dir).port).to.equal(9002);
      expect(loadConfig({ port: "9001" }, { GATEWAY_PORT: "9000" }, dir).port).to.equal(9001);
      expect(loadConfig({}, { GATEWAY_PORT: "9000" }, dir).port).to.equal(9000);
      expect(() => loadConfig({ "gateway-port": "70000" }, {}, dir)).to.throw("--gateway-port / GATEWAY_PORT");
    });
  });

  // PGlite admits one process per folder: with a gateway holding it, the command goes through the
  // gateway's admin route, and must say the same as when it opens the store itself
  const pglite = process.env.DATABASE_URL ? [] : ["PGlite"];
  for (const _ of pglite)
    describe("through a running gateway that holds the PGlite folder", function () {
      let store: Store;
      let app: FastifyInstance;
      let folder: string;

      before(async function () {
        folder = path.join(dir, "held");
        const config = loadConfig({ "data-dir": folder }, {}, dir);
        store = await openStore({ dataDir: folder });
        const absent = {} as never;
        app = await buildApp({
          keys: new KeyService(store.db, config.jwtSecret),
          activity: absent,
          model: absent,
          chains: [],
          chainLabels: {},
          bridges: absent,
          health: () => ({}),
        });
        writeFileSync(urlFileOf(config), await app.listen({ host: "127.0.0.1", port: 0 }));
      });
      after(async function () {
        await app?.close();
        await store?.close();
      });

      it("creates keys through it and reports a missing flag by name, with the usage", async function () {
        const heldEnv = { GATEWAY_DATA_DIR: folder };
        const missing = await gateway(["keys", "create", "--scopes", "write"], heldEnv);
        expect(missing.code).to.equal(2);
        expect(missing.stderr).to.contain("--account is required for a key with the write scope");
        expect(missing.stderr).to.contain("Usage:");
        expect(missing.stderr).to.not.contain("invalid body");
        const created = await gateway(["keys", "create", "--quiet"], heldEnv);
        expect(created.code, created.stderr).to.equal(0);
        expect(created.stdout.trim()).to.match(JWT);
        const [row] = await new KeyService(store.db, "x".repeat(32)).list();
        expect(row.keyId).to.equal(claimsOf(created.stdout.trim()).jti);
      });
    });
});
