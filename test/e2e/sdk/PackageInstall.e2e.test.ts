import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import { expect } from "chai";
import { Wallet, keccak256, toUtf8Bytes } from "ethers";

import * as root from "@compute-capacity/sdk";
import { deriveAccessKeyPair, redemptionManagerAbi, signBody } from "@compute-capacity/sdk";
import * as abisEntry from "@compute-capacity/sdk/abis";
import * as actionsEntry from "@compute-capacity/sdk/actions";
import * as apiEntry from "@compute-capacity/sdk/api";
import * as constantsEntry from "@compute-capacity/sdk/constants";
import * as webhooksEntry from "@compute-capacity/sdk/webhooks";
import { ROLE, runLiveScenario, startLiveDeployment, startTestGateway } from "../../../testing/fixtures.js";
import type { LiveDeployment } from "../../../testing/fixtures.js";
import type { Gateway } from "../../../gateway/server.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const SDK = path.join(ROOT, "sdk");
const TSC = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");

/**
 * What an outside project runs, in TypeScript: it reads a provider and a redemption from a running
 * gateway with its API key (and every page of its redemptions, and a typed refusal), a redemption
 * from the chain with the actions, verifies a webhook signature and derives an access key. The
 * project type-checks it with the strictest common settings, compiles it, and runs the JavaScript
 * with plain Node.
 */
const PROGRAM = `import { readFile } from "node:fs/promises";

import { JsonRpcProvider, Wallet } from "ethers";
import { createProtocolClient, deriveAccessKeyPair, parseDeploymentFile } from "@compute-capacity/sdk";
import type { AccessKeyPair } from "@compute-capacity/sdk";
import { redemptionManagerAbi } from "@compute-capacity/sdk/abis";
import { getRedemption } from "@compute-capacity/sdk/actions";
import type { GetRedemptionReturnType } from "@compute-capacity/sdk/actions";
import { ApiNotFoundError, createApiClient, paginate, unwrap } from "@compute-capacity/sdk/api";
import type { ApiErrorCode } from "@compute-capacity/sdk/api";
import { CHAINS, Roles } from "@compute-capacity/sdk/constants";
import { SIGNATURE_HEADER, verifyWebhook } from "@compute-capacity/sdk/webhooks";

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(\`\${name} is not set\`);
  return value;
};

// the gateway's HTTP API with an API key
const api = createApiClient({ baseUrl: env("GATEWAY_URL"), apiKey: env("API_KEY"), maxRetries: 1 });
const provider = unwrap(await api.GET("/v1/providers/{providerId}", { params: { path: { providerId: env("PROVIDER") } } }));
const redemption = unwrap(await api.GET("/v1/redemptions/{redemptionId}", { params: { path: { redemptionId: 1 } } }));
const ids: string[] = [];
for await (const r of paginate(api, "/v1/redemptions", { params: { query: { limit: 1 } } })) ids.push(r.redemption_id);
let refusal: ApiErrorCode | undefined;
try {
  unwrap(await api.GET("/v1/redemptions/{redemptionId}", { params: { path: { redemptionId: 999 } } }));
} catch (error) {
  if (error instanceof ApiNotFoundError) refusal = error.code;
}

// the chain, through the actions
const [arbitrum] = parseDeploymentFile(await readFile(env("DEPLOYMENT_FILE"), "utf8"));
if (arbitrum?.rpcUrl === undefined) throw new Error("no chain in the deployments file");
const rpc = new JsonRpcProvider(arbitrum.rpcUrl);
const client = await createProtocolClient({ runner: rpc, deployment: arbitrum });
const onChain: GetRedemptionReturnType = await getRedemption(client, { redemptionId: 1n });
rpc.destroy();

// a webhook, as a receiver checks it
const body = env("WEBHOOK_BODY");
const headers: Record<string, string> = { [SIGNATURE_HEADER]: env("WEBHOOK_SIGNATURE") };
const genuine = verifyWebhook(body, (name) => headers[name], env("WEBHOOK_SECRET"));
const forged = verifyWebhook(body.replace("1", "2"), (name) => headers[name], env("WEBHOOK_SECRET"));

// the access key a wallet derives
const keys: AccessKeyPair = await deriveAccessKeyPair(new Wallet(env("WALLET_KEY")), {
  domain: "portal.example",
  uri: "https://portal.example",
  chainId: CHAINS.arbitrum.chainId,
  redemptionManager: client.addresses.RedemptionManager ?? "",
});

console.log(
  JSON.stringify({
    provider: { id: provider.provider_id, status: provider.status },
    redemption: { id: redemption.redemption_id, status: redemption.status },
    ids,
    refusal,
    onChain: { status: onChain.status, user: onChain.user, amount: onChain.amount.toString() },
    webhook: { genuine: genuine.ok, event: genuine.ok ? genuine.webhook.event : null, forged: forged.ok },
    publicKey: keys.publicKey,
    governanceRole: Roles.GOVERNANCE,
    abiEvents: redemptionManagerAbi.filter((item) => item.type === "event").length,
  }),
);
`;

const TSCONFIG = {
  compilerOptions: {
    target: "es2022",
    lib: ["es2023"],
    module: "nodenext",
    moduleResolution: "nodenext",
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    types: ["node"],
    outDir: "dist",
    rootDir: "src",
  },
  include: ["src"],
};

/**
 * The machine's environment (its network settings, certificates, npm's own configuration) without
 * anything of this repository: no npm script variables, no NODE_OPTIONS or loader, nothing whose
 * value points into the repository, and on PATH only the pinned Node binary's folder from it.
 */
function outsideEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || name === "PATH") continue;
    if (/^(npm_|NODE_OPTIONS$|INIT_CWD$|TSX_|HARDHAT_)/i.test(name) || value.includes(ROOT)) continue;
    env[name] = value;
  }
  const outside = (process.env.PATH ?? "").split(path.delimiter).filter((dir) => !dir.startsWith(ROOT));
  env.PATH = [path.dirname(process.execPath), ...outside].join(path.delimiter);
  return { ...env, ...extra };
}

const execFileAsync = promisify(execFile);

/**
 * Runs a command in the outside environment, without blocking this process: the gateway under test
 * answers from this process's event loop.
 */
async function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  try {
    const { stdout } = await execFileAsync(command, args, {
      cwd,
      env: outsideEnv(env),
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(" ")} failed in ${cwd}:\n${e.stdout ?? ""}\n${e.stderr ?? e.message}`);
  }
}

describe("the SDK from outside: npm pack, installed in a fresh project, run with plain Node", function () {
  this.timeout(900_000);
  let live: LiveDeployment;
  let gateway: Gateway;
  let project: string;
  let tarball: string;
  let packed: { size: number; unpackedSize: number; entryCount: number; files: Array<{ path: string }> };

  before(async function () {
    live = await startLiveDeployment("sdk-package", { satellite: false });
    await runLiveScenario(live); // provider #5 active; redemption 1 confirmed and 2 expired, by the user (#6)
    gateway = await startTestGateway(live);
    project = await mkdtemp(path.join(tmpdir(), "sdk-consumer-"));
    // npm pack builds the package first (prepack: tsc to dist/; its lines come before the JSON)
    const output = await run("npm", ["pack", "--json", "--pack-destination", project], SDK);
    const [info] = JSON.parse(output.slice(output.indexOf("[\n"))) as [typeof packed & { filename: string }];
    packed = info;
    tarball = path.join(project, info.filename);
    // nothing of the repository above the project: no workspace, no node_modules, no package.json
    for (let dir = path.dirname(project); dir !== path.dirname(dir); dir = path.dirname(dir)) {
      expect(existsSync(path.join(dir, "node_modules")), dir).to.equal(false);
      expect(existsSync(path.join(dir, "package.json")), dir).to.equal(false);
    }
    expect(path.relative(ROOT, project).startsWith("..")).to.equal(true);
    const pkg = JSON.parse(await readFile(path.join(SDK, "package.json"), "utf8")) as {
      peerDependencies: { ethers: string };
    };
    const ethersFloor = /\d+\.\d+\.\d+/.exec(pkg.peerDependencies.ethers)![0];
    const typesNode = (
      JSON.parse(await readFile(path.join(ROOT, "node_modules/@types/node/package.json"), "utf8")) as {
        version: string;
      }
    ).version;
    await writeFile(
      path.join(project, "package.json"),
      JSON.stringify({ name: "sdk-consumer", private: true, type: "module" }, null, 2),
    );
    // the SDK from its tarball, ethers at the lowest version the peer range allows (the repository tests the highest)
    await run(
      "npm",
      ["install", "--no-audit", "--no-fund", tarball, `ethers@${ethersFloor}`, `@types/node@${typesNode}`],
      project,
    );
    const installed = JSON.parse(await readFile(path.join(project, "node_modules/ethers/package.json"), "utf8")) as {
      version: string;
    };
    expect(installed.version).to.equal(ethersFloor);
    expect(existsSync(path.join(project, "node_modules/@compute-capacity/sdk/dist/index.js"))).to.equal(true);
  });

  after(async function () {
    await gateway?.close();
    await live?.stop();
    if (project !== undefined) await rm(project, { recursive: true, force: true });
  });

  it("packs the build alone: ESM, declarations and maps, no source, no bytecode, no test or server code", async function () {
    const files = packed.files.map((f) => f.path).sort();
    console.log(
      `      ${path.basename(tarball)}: ${(packed.size / 1000).toFixed(1)} kB packed, ` +
        `${(packed.unpackedSize / 1000).toFixed(1)} kB unpacked, ${packed.entryCount} files`,
    );
    for (const file of files)
      expect(file).to.match(/^(dist\/.+\.(js|d\.ts|js\.map)|package\.json|README\.md|CHANGELOG\.md)$/);
    expect(files).to.include.members(["package.json", "README.md", "CHANGELOG.md", "dist/index.js", "dist/index.d.ts"]);
    const unpacked = path.join(project, "unpacked");
    await mkdir(unpacked);
    await run("tar", ["-xzf", tarball, "-C", unpacked], project);
    for (const file of files) {
      const text = await readFile(path.join(unpacked, "package", file), "utf8");
      expect(text, file).to.not.match(/0x60806040|typechain-types|\.\.\/(devnet|gateway|testing)\//);
    }
    expect(packed.size).to.be.below(400_000);
  });

  it("imports every entry of its exports map under plain Node 22, each exporting what the source does", async function () {
    const pkg = JSON.parse(await readFile(path.join(SDK, "package.json"), "utf8")) as {
      exports: Record<string, unknown>;
    };
    const entries = Object.keys(pkg.exports).filter((subpath) => subpath !== "./package.json");
    expect(entries).to.have.length(6);
    const script = `const names = {};
for (const entry of ${JSON.stringify(entries)}) {
  const specifier = "@compute-capacity/sdk" + entry.slice(1);
  names[entry] = Object.keys(await import(specifier)).sort();
}
console.log(JSON.stringify(names));`;
    const built = JSON.parse(await run(process.execPath, ["--input-type=module", "-e", script], project)) as Record<
      string,
      string[]
    >;
    // the repository's source of the same entries, through tsconfig.sdk.json's paths
    const source: Record<string, string[]> = {
      ".": Object.keys(root).sort(),
      "./actions": Object.keys(actionsEntry).sort(),
      "./api": Object.keys(apiEntry).sort(),
      "./webhooks": Object.keys(webhooksEntry).sort(),
      "./constants": Object.keys(constantsEntry).sort(),
      "./abis": Object.keys(abisEntry).sort(),
    };
    expect(built).to.deep.equal(source);
    for (const entry of entries) expect(built[entry], entry).to.not.be.empty;
    console.log(`      ${entries.map((entry) => `${entry} ${built[entry]!.length}`).join(", ")} runtime names`);
  });

  it("type-checks in that project with strict, noUncheckedIndexedAccess and exactOptionalPropertyTypes, and runs as JavaScript", async function () {
    await mkdir(path.join(project, "src"));
    await writeFile(path.join(project, "src", "program.ts"), PROGRAM);
    await writeFile(path.join(project, "tsconfig.json"), JSON.stringify(TSCONFIG, null, 2));
    // type-checked (the SDK's declarations included: no skipLibCheck) and compiled by TypeScript
    await run(process.execPath, [TSC, "-p", "tsconfig.json"], project);

    const user = live.signers[ROLE.user]!;
    const provider = live.signers[ROLE.providerA]!.address;
    const { token } = await gateway.keys.create({ tier: "standard", account: user.address, scopes: ["read"] });
    const secret = "whsec-test-secret";
    const body = JSON.stringify({ id: "evt_1", event: "sstb.minted", timestamp: 1, data: { amount: 1 } });
    const walletKey = keccak256(toUtf8Bytes("outside-wallet"));
    const printed = await run(process.execPath, [path.join("dist", "program.js")], project, {
      GATEWAY_URL: gateway.url,
      API_KEY: token,
      PROVIDER: provider,
      DEPLOYMENT_FILE: live.deploymentFile,
      WEBHOOK_BODY: body,
      WEBHOOK_SIGNATURE: signBody(body, secret),
      WEBHOOK_SECRET: secret,
      WALLET_KEY: walletKey,
    });
    const out = JSON.parse(printed) as Record<string, unknown>;

    // what the repository's own SDK (its TypeScript source) says of the same things
    const manager = await live.d.redemptionManager.getAddress();
    const expectedKey = await deriveAccessKeyPair(new Wallet(walletKey), {
      domain: "portal.example",
      uri: "https://portal.example",
      chainId: 42161n,
      redemptionManager: manager,
    });
    const record = await live.d.redemptionManager.redemptions(1n);
    expect(out).to.deep.equal({
      provider: { id: provider, status: "active" },
      redemption: { id: "1", status: "confirmed" },
      ids: ["2", "1"],
      refusal: "resource_not_found",
      onChain: { status: "confirmed", user: user.address, amount: record.amount.toString() },
      webhook: { genuine: true, event: "sstb.minted", forged: false },
      publicKey: expectedKey.publicKey,
      governanceRole: keccak256(toUtf8Bytes("GOVERNANCE_ROLE")),
      abiEvents: redemptionManagerAbi.filter((item) => item.type === "event").length,
    });
  });
});
