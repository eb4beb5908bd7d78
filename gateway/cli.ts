// `npm run gateway` (serve) and its commands: keys, accounts, webhooks. Thin: the logic is in
// gateway/server.ts and the modules of each command. The commands import nothing of the protocol's
// contracts and build nothing: only `serve` loads the server (and, unless `--no-build`, runs the
// Hardhat build first so that the TypeChain bindings it decodes with match the contracts).
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { parseArgs } from "node:util";

import { accountsCommand } from "./accounts/command.js";
import { adminRequest, runningGatewayUrl } from "./auth/admin-client.js";
import { KeyInputError, KeyService } from "./auth/keys.js";
import type { CreateKeyOptions, Scope, Tier } from "./auth/keys.js";
import { ConfigError, loadConfig } from "./config.js";
import type { GatewayConfig } from "./config.js";
import { StoreError, openStore } from "./store/db.js";
import { WEBHOOK_ACTIONS, WebhookCommandError, webhooksCommand } from "./webhooks/command.js";
import type { WebhookAction } from "./webhooks/command.js";

/** The usage of each command (printed whole by `--help`, by command with an input error). */
export const USAGE = {
  serve: `  npm run gateway [-- --gateway-port 8080 --host 127.0.0.1 --environment devnet --deployment FILE
                     --data-dir DIR --confirmations N|chain=N,... --poll-ms MS --tls-cert PEM --tls-key PEM
                     --trusted-proxies ADDR,CIDR,... --require-https true|false --portal-origin URL
                     --no-build]
      (serve; --no-build skips the Hardhat build of the contracts' bindings, for a tree built ahead)`,
  keys: `  npm run gateway -- keys create [--tier standard|premium|enterprise] [--scopes read,write] [--account 0x...]
                                 [--label TEXT] [--expires-in SECONDS] [--rate-limit PER_MINUTE] [--quiet]
      (tier standard and scope read by default; --account is required with the write scope, a read-only
       key without it gets a fresh account that owns nothing; --quiet prints only the key)
  npm run gateway -- keys list
  npm run gateway -- keys revoke KEY_ID`,
  accounts: `  npm run gateway -- accounts create [--label TEXT]    (a managed account: the gateway holds its key sealed)
  npm run gateway -- accounts list`,
  webhooks: `  npm run gateway -- webhooks create --account 0x... --url URL --events a,b [--timestamp-format unix|iso8601]
                                     [--own-events-only]
  npm run gateway -- webhooks list|delete|rotate|test|deliveries|redeliver --account 0x...
                                     [SUBSCRIPTION_ID [DELIVERY_ID]]
                                     [--status pending|delivered|failed|cancelled] [--page N --limit N]
                                     [--window SECONDS]   (rotate: how long the old secret stays valid, up to 86400)`,
} as const;
type Command = keyof typeof USAGE;

const ENVIRONMENT = `Environment: GATEWAY_PORT, GATEWAY_HOST, GATEWAY_ENVIRONMENT, GATEWAY_DEPLOYMENT_FILE, GATEWAY_DATA_DIR,
GATEWAY_CONFIRMATIONS, DATABASE_URL (PostgreSQL; PGlite in the data folder otherwise), REDIS_URL,
GATEWAY_JWT_SECRET or GATEWAY_JWT_SECRET_FILE (required outside the devnet), <CHAIN>_RPC_URL,
GATEWAY_TLS_CERT_FILE and GATEWAY_TLS_KEY_FILE, GATEWAY_TRUSTED_PROXIES, GATEWAY_REQUIRE_HTTPS (outside the
devnet HTTPS is required: serve TLS or name the TLS-terminating proxy),
GATEWAY_VERIFIER_KEYS or GATEWAY_VERIFIER_KEYS_FILE (verifier keys; the devnet's by default on the devnet),
GATEWAY_VERIFICATION_TTL (seconds an attestation stays mintable, default 86400),
GATEWAY_ACCOUNT_KEY or GATEWAY_ACCOUNT_KEY_FILE (managed accounts' master key, 64 hex digits),
GATEWAY_WEBHOOK_WORKERS, GATEWAY_WEBHOOK_TIMEOUT_MS, SMTP_URL and SMTP_FROM (provider e-mail alerts),
GATEWAY_PORTAL_ORIGIN (the portal's scheme://host[:port]; the devnet: the gateway's URL), GATEWAY_SESSION_TTL
(seconds, default 28800), GATEWAY_PORTAL_DIR (default portal/dist), GATEWAY_WALLET_RPC_URLS (for wallets to add).`;

const usageOf = (commands: readonly Command[]) => `Usage:\n${commands.map((c) => USAGE[c]).join("\n")}`;
const FULL_USAGE = `${usageOf(["serve", "keys", "accounts", "webhooks"])}\n\n${ENVIRONMENT}`;

/** A command line that does not say what to do: reported with the command's usage, status 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: Command,
  ) {
    super(message);
  }
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        "gateway-port": { type: "string" },
        port: { type: "string" }, // deprecated name of --gateway-port
        host: { type: "string" },
        environment: { type: "string" },
        deployment: { type: "string" },
        "data-dir": { type: "string" },
        confirmations: { type: "string" },
        "poll-ms": { type: "string" },
        "tls-cert": { type: "string" },
        "tls-key": { type: "string" },
        "trusted-proxies": { type: "string" },
        "require-https": { type: "string" },
        "portal-origin": { type: "string" },
        "no-build": { type: "boolean" },
        tier: { type: "string" },
        account: { type: "string" },
        scopes: { type: "string" },
        label: { type: "string" },
        "expires-in": { type: "string" },
        "rate-limit": { type: "string" },
        quiet: { type: "boolean" },
        url: { type: "string" },
        events: { type: "string" },
        "timestamp-format": { type: "string" },
        "own-events-only": { type: "boolean" },
        window: { type: "string" },
        status: { type: "string" },
        page: { type: "string" },
        limit: { type: "string" },
        help: { type: "boolean" },
      },
    });
  } catch (error) {
    // an unknown flag, or a flag without its value
    throw new UsageError((error as Error).message.split("\n")[0], commandOf(argv.find((a) => !a.startsWith("-"))));
  }
  const { values, positionals } = parsed;
  const [command, sub, arg] = positionals;
  if (values.help) {
    console.log(FULL_USAGE);
    return 0;
  }
  if (values.port !== undefined) console.error("gateway: --port is deprecated; use --gateway-port (as npm start does)");
  if (values.quiet && !(command === "keys" && sub === "create")) {
    throw new UsageError("--quiet is for keys create (it prints only the key)", commandOf(command));
  }
  const config = loadConfig(values as Record<string, string | undefined>);
  if (command === undefined || command === "serve") return serve(config, values["no-build"] !== true);
  if (command === "keys") {
    if (sub === "create") {
      const created = (await keysCommand(config, {
        action: "create",
        options: {
          ...(values.tier === undefined ? {} : { tier: values.tier as Tier }),
          ...(values.account === undefined ? {} : { account: values.account }),
          ...(values.scopes === undefined ? {} : { scopes: values.scopes.split(",").map((s) => s.trim()) as Scope[] }),
          ...(values.label === undefined ? {} : { label: values.label }),
          ...(values["expires-in"] === undefined ? {} : { expiresIn: Number(values["expires-in"]) }),
          ...(values["rate-limit"] === undefined ? {} : { rateLimit: Number(values["rate-limit"]) }),
        },
      })) as { token: string };
      console.log(values.quiet ? created.token : JSON.stringify(created, null, 2));
      return 0;
    }
    if (sub === "list") {
      console.log(JSON.stringify(await keysCommand(config, { action: "list" }), null, 2));
      return 0;
    }
    if (sub === "revoke") {
      if (arg === undefined) throw new UsageError("keys revoke needs the KEY_ID (see keys list)", "keys");
      console.log(JSON.stringify(await keysCommand(config, { action: "revoke", keyId: arg }), null, 2));
      return 0;
    }
    throw new UsageError(sub === undefined ? "keys needs an action" : `unknown keys action ${sub}`, "keys");
  }
  if (command === "accounts") {
    if (sub !== "create" && sub !== "list") {
      throw new UsageError(
        sub === undefined ? "accounts needs an action" : `unknown accounts action ${sub}`,
        "accounts",
      );
    }
    const request = sub === "create" ? { action: "create" as const, label: values.label } : { action: "list" as const };
    console.log(JSON.stringify(await accountsCommand(config, request), null, 2));
    return 0;
  }
  if (command === "webhooks") {
    if (!(WEBHOOK_ACTIONS as readonly string[]).includes(sub ?? "")) {
      throw new UsageError(
        sub === undefined ? "webhooks needs an action" : `unknown webhooks action ${sub}`,
        "webhooks",
      );
    }
    if (values.account === undefined) {
      throw new UsageError("--account is required: the account that owns the subscriptions", "webhooks");
    }
    const result = await webhooksCommand(config, sub as WebhookAction, {
      account: values.account,
      url: values.url,
      events: values.events,
      timestampFormat: values["timestamp-format"],
      ownEventsOnly: values["own-events-only"],
      window: values.window === undefined ? undefined : Number(values.window),
      ids: positionals.slice(2),
      status: values.status,
      page: values.page === undefined ? undefined : Number(values.page),
      limit: values.limit === undefined ? undefined : Number(values.limit),
    });
    console.log(JSON.stringify(result, null, 2));
    return 0;
  }
  throw new UsageError(`unknown command ${command}`);
}

function commandOf(name: string | undefined): Command | undefined {
  return name !== undefined && Object.hasOwn(USAGE, name) ? (name as Command) : undefined;
}

/**
 * Builds the contracts' TypeChain bindings with Hardhat (incremental: a few seconds when nothing
 * changed), so that the indexer decodes with the ABIs of the sources it runs beside.
 */
function buildContracts(): void {
  const hardhat = path.join(
    path.dirname(createRequire(import.meta.url).resolve("hardhat/package.json")),
    "dist/src/cli.js",
  );
  console.log("Building the contracts' bindings (hardhat build; --no-build skips it)...");
  const run = spawnSync(process.execPath, [hardhat, "build", "--quiet", "--no-tests"], { stdio: "inherit" });
  if (run.status !== 0) throw new ConfigError(`hardhat build failed (status ${run.status ?? run.signal})`);
}

async function serve(config: GatewayConfig, build: boolean): Promise<number> {
  if (build) buildContracts();
  // loaded only here: the server imports the contracts' bindings, which the other commands do not need
  const { startGateway } = await import("./server.js");
  const log = (line: string) => console.log(line);
  const gateway = await startGateway(config, { log, requestLog: log });
  console.log(`Gateway on ${gateway.url} (${gateway.store.kind}: ${gateway.store.location})`);
  console.log(`  chains: ${gateway.chains.map((c) => `${c.chain} (${c.chainId}) ${c.rpcUrl}`).join(", ")}`);
  console.log(`  docs: ${gateway.url}/docs   OpenAPI: ${gateway.url}/api/v1/openapi.json`);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  console.log("Stopping the gateway...");
  await gateway.close();
  return 0;
}

type KeyRequest =
  { action: "create"; options: CreateKeyOptions } | { action: "list" } | { action: "revoke"; keyId: string };

/**
 * Runs a key command against the store, or, when a gateway holds the PGlite folder, through that
 * gateway's admin route (authorized by a one-minute token signed with the same secret).
 */
export async function keysCommand(config: GatewayConfig, request: KeyRequest): Promise<unknown> {
  const url = runningGatewayUrl(config);
  if (url !== undefined) {
    if (request.action === "create") return adminRequest(url, config, "POST", "/admin/keys", request.options);
    if (request.action === "revoke") {
      return adminRequest(url, config, "DELETE", `/admin/keys/${encodeURIComponent(request.keyId)}`);
    }
    return adminRequest(url, config, "GET", "/admin/keys");
  }
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const keys = new KeyService(store.db, config.jwtSecret);
    if (request.action === "create") return await keys.create(request.options);
    if (request.action === "list") return { keys: await keys.list() };
    if (!(await keys.revoke(request.keyId))) throw new KeyInputError(`no API key ${request.keyId}`);
    return { key_id: request.keyId, revoked: true };
  } finally {
    await store.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("gateway/cli.ts")) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      if (error instanceof UsageError) {
        console.error(
          `gateway: ${error.message}\n\n${usageOf(error.command === undefined ? ["serve", "keys", "accounts", "webhooks"] : [error.command])}`,
        );
        process.exit(2);
      }
      // a refused input names its flag: show the command's usage with it
      if (error instanceof KeyInputError && error.flag !== undefined) {
        console.error(`gateway: ${error.message}\n\n${usageOf(["keys"])}`);
        process.exit(2);
      }
      if (error instanceof WebhookCommandError && error.flag !== undefined) {
        console.error(`gateway: ${error.message}\n\n${usageOf(["webhooks"])}`);
        process.exit(2);
      }
      const known =
        error instanceof ConfigError ||
        error instanceof StoreError ||
        error instanceof KeyInputError ||
        error instanceof WebhookCommandError;
      console.error(
        `gateway: ${known ? (error as Error).message : error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      process.exit(1);
    },
  );
}
