// `npm run gateway` (serve) and its commands: keys, accounts, webhooks. Thin: the logic is in
// gateway/server.ts and the modules of each command.
import { parseArgs } from "node:util";

import { accountsCommand } from "./accounts/command.js";
import { adminRequest, runningGatewayUrl } from "./auth/admin-client.js";
import { KeyInputError, KeyService } from "./auth/keys.js";
import type { CreateKeyOptions, Scope, Tier } from "./auth/keys.js";
import { ConfigError, loadConfig } from "./config.js";
import type { GatewayConfig } from "./config.js";
import { startGateway } from "./server.js";
import { StoreError, openStore } from "./store/db.js";
import { WEBHOOK_ACTIONS, WebhookCommandError, webhooksCommand } from "./webhooks/command.js";
import type { WebhookAction } from "./webhooks/command.js";

const USAGE = `Usage:
  npm run gateway [-- --port 8080 --host 127.0.0.1 --environment devnet --deployment FILE --data-dir DIR
                     --confirmations N|chain=N,... --poll-ms MS --tls-cert PEM --tls-key PEM
                     --trusted-proxies ADDR,CIDR,... --require-https true|false --portal-origin URL]
  npm run gateway -- keys create --tier standard|premium|enterprise --account 0x... [--scopes read,write]
                                 [--label TEXT] [--expires-in SECONDS] [--rate-limit PER_MINUTE]
  npm run gateway -- keys list
  npm run gateway -- keys revoke KEY_ID
  npm run gateway -- accounts create [--label TEXT]    (a managed account: the gateway holds its key sealed)
  npm run gateway -- accounts list
  npm run gateway -- webhooks create --account 0x... --url URL --events a,b [--timestamp-format unix|iso8601]
                                     [--own-events-only]
  npm run gateway -- webhooks list|delete|rotate|deliveries|redeliver --account 0x... [SUBSCRIPTION_ID [DELIVERY_ID]]
                                     [--status pending|delivered|failed|cancelled] [--page N --limit N]

Environment: GATEWAY_PORT, GATEWAY_HOST, GATEWAY_ENVIRONMENT, GATEWAY_DEPLOYMENT_FILE, GATEWAY_DATA_DIR,
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

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: "string" },
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
      tier: { type: "string" },
      account: { type: "string" },
      scopes: { type: "string" },
      label: { type: "string" },
      "expires-in": { type: "string" },
      "rate-limit": { type: "string" },
      url: { type: "string" },
      events: { type: "string" },
      "timestamp-format": { type: "string" },
      "own-events-only": { type: "boolean" },
      status: { type: "string" },
      page: { type: "string" },
      limit: { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const config = loadConfig(values as Record<string, string | undefined>);
  const [command, sub, arg] = positionals;
  if (command === undefined || command === "serve") return serve(config);
  if (command === "keys" && (sub === "create" || sub === "list" || sub === "revoke")) {
    const request: KeyRequest =
      sub === "create"
        ? {
            action: "create",
            options: {
              tier: (values.tier ?? "") as Tier,
              account: values.account ?? "",
              scopes: values.scopes === undefined ? undefined : (values.scopes.split(",") as Scope[]),
              label: values.label,
              expiresIn: values["expires-in"] === undefined ? undefined : Number(values["expires-in"]),
              rateLimit: values["rate-limit"] === undefined ? undefined : Number(values["rate-limit"]),
            },
          }
        : sub === "revoke"
          ? { action: "revoke", keyId: arg ?? "" }
          : { action: "list" };
    console.log(JSON.stringify(await keysCommand(config, request), null, 2));
    return 0;
  }
  if (command === "accounts" && (sub === "create" || sub === "list")) {
    const request = sub === "create" ? { action: "create" as const, label: values.label } : { action: "list" as const };
    console.log(JSON.stringify(await accountsCommand(config, request), null, 2));
    return 0;
  }
  if (command === "webhooks" && (WEBHOOK_ACTIONS as readonly string[]).includes(sub ?? "")) {
    const result = await webhooksCommand(config, sub as WebhookAction, {
      account: values.account,
      url: values.url,
      events: values.events,
      timestampFormat: values["timestamp-format"],
      ownEventsOnly: values["own-events-only"],
      ids: positionals.slice(2),
      status: values.status,
      page: values.page === undefined ? undefined : Number(values.page),
      limit: values.limit === undefined ? undefined : Number(values.limit),
    });
    console.log(JSON.stringify(result, null, 2));
    return 0;
  }
  console.error(USAGE);
  return 2;
}

async function serve(config: GatewayConfig): Promise<number> {
  const gateway = await startGateway(config, { log: (line) => console.log(line) });
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
