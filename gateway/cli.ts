// `npm run gateway` (serve, under tsx) and `npm run gateway:start` (the build, dist/gateway/cli.js,
// under plain Node) and their commands: keys, accounts, webhooks. Thin: the logic is in
// gateway/server.ts and the modules of each command. Nothing is built at start: the contracts'
// ABIs come from the SDK package; only `serve` loads the server.
import { parseArgs } from "node:util";

import { accountsCommand } from "./accounts/command.js";
import { adminRequest, runningGatewayUrl } from "./auth/admin-client.js";
import { KeyInputError, KeyService } from "./auth/keys.js";
import type { CreateKeyOptions, Scope, Tier } from "./auth/keys.js";
import { ConfigError, loadConfig } from "./config.js";
import type { GatewayConfig } from "./config.js";
import { SETTING_FLAGS, settingsHelp } from "./settings.js";
import { StoreError, openStore, pendingMigrations } from "./store/db.js";
import { WEBHOOK_ACTIONS, WebhookCommandError, webhooksCommand } from "./webhooks/command.js";
import type { WebhookAction } from "./webhooks/command.js";

/** The usage of each command (printed whole by `--help`, by command with an input error). */
export const USAGE = {
  serve: `  npm run gateway [-- --gateway-port 8080 --host 127.0.0.1 --environment devnet --deployment FILE
                     --data-dir DIR --confirmations N|chain=N,... --poll-ms MS --batch-blocks N
                     --tls-cert PEM --tls-key PEM --trusted-proxies ADDR,CIDR,... --require-https true|false
                     --portal-origin URL --log-level info --ready-max-lag N|chain=N,... --migrate true|false]
      (serve, from the TypeScript source; the build: npm run build:gateway, then
       npm run gateway:start -- serve ..., or node dist/gateway/cli.js serve ...)`,
  migrate: `  npm run gateway -- migrate    (applies the committed migrations and exits: a release step before
                                  serving with --migrate false)`,
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

const ENVIRONMENT = `Settings (a flag wins over its variable; docs/gateway.md has the same table):
${settingsHelp()}`;

const usageOf = (commands: readonly Command[]) => `Usage:\n${commands.map((c) => USAGE[c]).join("\n")}`;
const FULL_USAGE = `${usageOf(["serve", "migrate", "keys", "accounts", "webhooks"])}\n\n${ENVIRONMENT}`;

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
        // the settings' flags (settings.ts), then the commands' own
        ...SETTING_FLAGS,
        port: { type: "string" }, // deprecated name of --gateway-port
        "no-build": { type: "boolean" }, // accepted and ignored: nothing is built at start any more
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
  if (command === undefined || command === "serve") return serve(config);
  if (command === "migrate") {
    const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, migrate: true });
    try {
      const pending = await pendingMigrations(store.db);
      if (pending.length > 0) throw new StoreError(`migrations still pending after applying: ${pending.join(", ")}`);
      console.log(`Migrations applied (${store.kind}: ${store.location}); none pending.`);
    } finally {
      await store.close();
    }
    return 0;
  }
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

async function serve(config: GatewayConfig): Promise<number> {
  // loaded only here: the server (the indexer, the chains' clients) is what the other commands do not need
  const { startGateway } = await import("./server.js");
  const { createLogger } = await import("./observability/log.js");
  const { default: closeWithGrace } = await import("close-with-grace");
  const logger = createLogger({ level: config.logLevel ?? "info" });
  const gateway = await startGateway(config, { logger });
  logger.info(
    {
      url: gateway.url,
      database: gateway.store.kind,
      location: gateway.store.location,
      chains: gateway.chains.map((c) => ({ chain: c.chain, chainId: c.chainId })),
      docs: `${gateway.url}/docs`,
      openapi: `${gateway.url}/api/v1/openapi.json`,
    },
    `Gateway on ${gateway.url} (${gateway.store.kind}: ${gateway.store.location})`,
  );
  // the start line at once (a process manager or a test waits for it), not with the next chunk
  logger.flush();
  const delayMs = config.shutdownDelayMs ?? 0;
  const timeoutMs = config.shutdownTimeoutMs ?? 30_000;
  // SIGTERM or SIGINT: the graceful stop, bounded (past the bound the process exits with status 1);
  // an uncaught error: logged, the same stop, status 1
  await new Promise<never>(() => {
    closeWithGrace(
      {
        delay: delayMs + timeoutMs + 2_000,
        // past the bound: what held it (the oldest requests, the indexers' steps, PGlite's operations)
        logger: {
          error: (message: unknown) => logger.error({ err: message, ...gateway.inFlight() }, "shutdown"),
        },
      },
      async ({ signal, err }) => {
        if (err !== undefined) logger.fatal({ err }, `stopping after an uncaught error: ${err.message}`);
        else logger.info({ signal }, `${signal ?? "exit"}: stopping the gateway`);
        await gateway.shutdown({ delayMs, timeoutMs });
        logger.flush();
      },
    );
  });
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

if (
  import.meta.url === `file://${process.argv[1]}` ||
  process.argv[1]?.endsWith("gateway/cli.ts") ||
  process.argv[1]?.endsWith("gateway/cli.js")
) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      if (error instanceof UsageError) {
        console.error(
          `gateway: ${error.message}\n\n${usageOf(error.command === undefined ? ["serve", "migrate", "keys", "accounts", "webhooks"] : [error.command])}`,
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
