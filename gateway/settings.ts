// The gateway's settings, one row each: the one place that says which environment variable and
// which flag set what, its default and its meaning. `loadConfig` (config.ts) reads every setting
// through `settingsReader`, the CLI's `serve` flags and `--help` are made from the rows, and the
// operator's table in docs/gateway.md is `settingsMarkdown()` (test/unit/gateway/Settings.test.ts
// fails when a variable or flag is read without its row, a row is read by nothing, or the
// document's table differs).

import { CHAINS } from "@compute-capacity/sdk/constants";

/** One setting of the gateway process. */
export interface Setting {
  /** The environment variable (`<CHAIN>_RPC_URL`: one per chain of the SDK's list). */
  readonly env: string;
  /** The flag of `serve` (and of every command), without `--`; none: environment only. */
  readonly flag?: string;
  /** A secret: also read from the file `<env>_FILE` when the variable itself is not set. */
  readonly file?: true;
  /** The default, as an operator reads it. */
  readonly default: string;
  /** What it sets. */
  readonly meaning: string;
}

/** Every setting, in the order the operator's table shows them. */
export const SETTINGS = {
  environment: {
    env: "GATEWAY_ENVIRONMENT",
    flag: "environment",
    default: "`devnet`",
    meaning: "`devnet`, `testnet` or `mainnet`: picks the deployment file and the defaults marked per environment.",
  },
  deploymentFile: {
    env: "GATEWAY_DEPLOYMENT_FILE",
    flag: "deployment",
    default: "`deployments/<environment>.json`",
    meaning: "The deployment file (chains, RPC URLs, contract addresses); relative paths from the working folder.",
  },
  host: { env: "GATEWAY_HOST", flag: "host", default: "`127.0.0.1`", meaning: "The address to listen on." },
  port: {
    env: "GATEWAY_PORT",
    flag: "gateway-port",
    default: "`8080`",
    meaning: "The port (0: any free one). `--port` is its deprecated flag.",
  },
  dataDir: {
    env: "GATEWAY_DATA_DIR",
    flag: "data-dir",
    default: "`.gateway/<environment>`",
    meaning: "The embedded database (PGlite) without `DATABASE_URL`, and the devnet's generated secrets.",
  },
  pgliteTemplates: {
    env: "GATEWAY_PGLITE_TEMPLATES",
    flag: "pglite-templates",
    default: "`.gateway/pglite-templates` on the devnet; none elsewhere",
    meaning:
      "A folder where a migrated, empty PGlite database is kept: a new data folder starts as its copy (0.5 s of CPU instead of 4.5 s for `initdb` and the migrations).",
  },
  databaseUrl: {
    env: "DATABASE_URL",
    default: "none: PGlite in the data folder",
    meaning: "PostgreSQL (`postgres://user:password@host:5432/db`), what several instances share.",
  },
  dbPoolSize: {
    env: "GATEWAY_DB_POOL_SIZE",
    default: "`pg`'s (10)",
    meaning: "Most connections of the pool to PostgreSQL.",
  },
  dbReadConnections: {
    env: "GATEWAY_DB_READ_CONNECTIONS",
    default: "`2`",
    meaning:
      "PostgreSQL connections, besides the pool, on which the read routes' queries are pipelined; `0`: they use the pool (behind a pooler in transaction mode).",
  },
  migrate: {
    env: "GATEWAY_MIGRATE",
    flag: "migrate",
    default: "`true`",
    meaning: "Apply the committed migrations at start; `false` when a release step runs `migrate`.",
  },
  redisUrl: {
    env: "REDIS_URL",
    default: "none: counters in the process",
    meaning: "Redis for the rate-limit counters and the response cache shared by instances.",
  },
  jwtSecret: {
    env: "GATEWAY_JWT_SECRET",
    file: true,
    default: "required outside the devnet (devnet: generated in the data folder)",
    meaning: "Signs API keys and sessions; at least 32 characters.",
  },
  accountKey: {
    env: "GATEWAY_ACCOUNT_KEY",
    file: true,
    default: "none: no managed accounts (devnet: generated)",
    meaning: "Master key (64 hex digits) sealing managed accounts' signing keys.",
  },
  rpcUrl: {
    env: "<CHAIN>_RPC_URL",
    default: "the deployment file's `rpcUrl`",
    meaning: "A chain's RPC URL, e.g. `ETHEREUM_RPC_URL`, `ARBITRUM_SEPOLIA_RPC_URL` (one per chain).",
  },
  confirmations: {
    env: "GATEWAY_CONFIRMATIONS",
    flag: "confirmations",
    default: "devnet 0; else 12, Arbitrum 20, Polygon 64",
    meaning: "Blocks a log must be under the head before it is indexed: `N` or `chain=N,...`.",
  },
  pollMs: {
    env: "GATEWAY_POLL_MS",
    flag: "poll-ms",
    default: "devnet 200, else 2000",
    meaning: "How often the indexers ask their node for new blocks (ms).",
  },
  rpcTimeoutMs: {
    env: "GATEWAY_RPC_TIMEOUT_MS",
    flag: "rpc-timeout-ms",
    default: "`10000`",
    meaning: "How long a read of a chain's node may go unanswered before it fails and is retried (ms).",
  },
  batchBlocks: {
    env: "GATEWAY_BATCH_BLOCKS",
    flag: "batch-blocks",
    default: "`500`",
    meaning: "Most blocks one indexer query spans.",
  },
  tlsCert: {
    env: "GATEWAY_TLS_CERT_FILE",
    flag: "tls-cert",
    default: "none",
    meaning: "PEM certificate: the gateway serves HTTPS itself (with the key).",
  },
  tlsKey: { env: "GATEWAY_TLS_KEY_FILE", flag: "tls-key", default: "none", meaning: "PEM key of the certificate." },
  trustedProxies: {
    env: "GATEWAY_TRUSTED_PROXIES",
    flag: "trusted-proxies",
    default: "none",
    meaning: "Addresses or CIDRs of TLS-terminating proxies whose `X-Forwarded-*` headers are believed.",
  },
  requireHttps: {
    env: "GATEWAY_REQUIRE_HTTPS",
    flag: "require-https",
    default: "`true` outside the devnet",
    meaning: "Refuse plain HTTP; outside the devnet serve TLS or name the proxy.",
  },
  logLevel: {
    env: "GATEWAY_LOG_LEVEL",
    flag: "log-level",
    default: "`info`",
    meaning: "Lowest level of the JSON log: `fatal`, `error`, `warn`, `info`, `debug`, `trace`, `silent`.",
  },
  metricsToken: {
    env: "GATEWAY_METRICS_TOKEN",
    file: true,
    default: "required outside the devnet (devnet: `/metrics` open)",
    meaning: "The bearer token `/metrics` asks for.",
  },
  readyMaxLag: {
    env: "GATEWAY_READY_MAX_LAG",
    flag: "ready-max-lag",
    default: "`50`",
    meaning: "Blocks an indexer may lag and `/readyz` still answer 200: `N` or `chain=N,...`.",
  },
  readyStaleSeconds: {
    env: "GATEWAY_READY_STALE_SECONDS",
    default: "`60`",
    meaning: "Seconds an indexer may go without reaching its node and the database and stay ready.",
  },
  shutdownDelayMs: {
    env: "GATEWAY_SHUTDOWN_DELAY_MS",
    default: "`5000` (devnet 0)",
    meaning: "On SIGTERM: how long the gateway keeps serving while `/readyz` says 503, for the load balancer.",
  },
  shutdownTimeoutMs: {
    env: "GATEWAY_SHUTDOWN_TIMEOUT_MS",
    default: "`30000`",
    meaning: "On SIGTERM: the bound on the whole stop (past it the process exits with status 1).",
  },
  verifierKeys: {
    env: "GATEWAY_VERIFIER_KEYS",
    file: true,
    default: "none (devnet: the devnet's verifiers)",
    meaning: "Verifier private keys this gateway attests with, comma-separated (the file: one a line).",
  },
  verificationTtl: {
    env: "GATEWAY_VERIFICATION_TTL",
    default: "`86400`",
    meaning: "Seconds of chain time an attestation stays mintable.",
  },
  webhookWorkers: {
    env: "GATEWAY_WEBHOOK_WORKERS",
    default: "`2`",
    meaning: "Webhook delivery workers in this process.",
  },
  webhookConcurrency: {
    env: "GATEWAY_WEBHOOK_CONCURRENCY",
    default: "`16`",
    meaning: "Runs (one subscription's deliveries in order) each worker sends at once.",
  },
  webhookTimeoutMs: {
    env: "GATEWAY_WEBHOOK_TIMEOUT_MS",
    default: "`10000`",
    meaning: "A receiver that has not answered within this has failed the attempt.",
  },
  leaseExpiringLead: {
    env: "GATEWAY_LEASE_EXPIRING_LEAD",
    default: "`86400`",
    meaning: "Seconds before a lease's end that `redemption.lease_expiring` is sent.",
  },
  smtpUrl: {
    env: "SMTP_URL",
    default: "none: no e-mail alerts",
    meaning: "`smtp://user:pass@host:port` (or `smtps://`) for providers' e-mail alerts (with `SMTP_FROM`).",
  },
  smtpFrom: { env: "SMTP_FROM", default: "none", meaning: "The alerts' from-address (required with `SMTP_URL`)." },
  portalOrigin: {
    env: "GATEWAY_PORTAL_ORIGIN",
    flag: "portal-origin",
    default: "devnet: the gateway's URL; else none (no sign-in)",
    meaning: "`scheme://host[:port]` the portal is served from (what a sign-in message must name).",
  },
  sessionTtl: { env: "GATEWAY_SESSION_TTL", default: "`28800`", meaning: "Longest portal session, seconds." },
  portalDir: {
    env: "GATEWAY_PORTAL_DIR",
    default: "`portal/dist` beside the gateway's code",
    meaning: "The built portal (the build copies it into `dist/portal/dist`).",
  },
  walletRpcUrls: {
    env: "GATEWAY_WALLET_RPC_URLS",
    default: "none (devnet: the node's)",
    meaning: "RPC URLs a wallet may add for the primary chain, comma-separated.",
  },
} as const satisfies Record<string, Setting>;

export type SettingName = keyof typeof SETTINGS;

/** `arbitrumSepolia` -> `ARBITRUM_SEPOLIA_RPC_URL`: the `<CHAIN>_RPC_URL` of one chain. */
export function rpcUrlVariable(chain: string): string {
  return `${chain.replace(/([A-Z])/g, "_$1").toUpperCase()}_RPC_URL`;
}

/** The chains whose `<CHAIN>_RPC_URL` the gateway reads. */
export const RPC_URL_CHAINS: readonly string[] = Object.keys(CHAINS);

/** How an error message names a setting: `--flag / VARIABLE`, or the variable alone. */
export function nameOf(name: SettingName): string {
  const setting: Setting = SETTINGS[name];
  return setting.flag === undefined ? setting.env : `--${setting.flag} / ${setting.env}`;
}

/** The flags of the settings, as `node:util`'s `parseArgs` options (every value a string). */
export const SETTING_FLAGS: Record<string, { type: "string" }> = Object.fromEntries(
  Object.values(SETTINGS as Record<string, Setting>)
    .filter((s) => s.flag !== undefined)
    .map((s) => [s.flag!, { type: "string" as const }]),
);

type Flags = Readonly<Record<string, string | undefined>>;

/** Reads the settings: a flag first, then its environment variable (a secret: then its `_FILE`). */
export interface SettingsReader {
  /** The flag's value, else the variable's (undefined when neither is given). */
  value(name: SettingName): string | undefined;
  /** The variable, else the file `<VARIABLE>_FILE` names (its contents, trimmed), as given. */
  secret(name: SettingName, read: (file: string) => string): { value?: string; from: string };
  /** A chain's `<CHAIN>_RPC_URL`. */
  rpcUrl(chain: string): string | undefined;
  /** The environment, for the modules that read their own rows (webhooks, verifier keys). */
  readonly env: NodeJS.ProcessEnv;
}

export function settingsReader(flags: Flags, env: NodeJS.ProcessEnv): SettingsReader {
  return {
    env,
    value(name) {
      const setting: Setting = SETTINGS[name];
      const flagged = setting.flag === undefined ? undefined : flags[setting.flag];
      // `--port` is the deprecated name of `--gateway-port`
      return flagged ?? (name === "port" ? flags.port : undefined) ?? env[setting.env];
    },
    secret(name, read) {
      const variable = SETTINGS[name].env;
      if (env[variable]) return { value: env[variable], from: variable };
      const file = env[`${variable}_FILE`];
      return file ? { value: read(file).trim(), from: `${variable}_FILE` } : { from: variable };
    },
    rpcUrl(chain) {
      return env[rpcUrlVariable(chain)];
    },
  };
}

const variables = (s: Setting) => (s.file ? `\`${s.env}\` or \`${s.env}_FILE\`` : `\`${s.env}\``);
const cell = (text: string) => text.replace(/\|/g, "\\|");

/** The operator's table (docs/gateway.md holds it verbatim). */
export function settingsMarkdown(): string {
  const rows = Object.values(SETTINGS as Record<string, Setting>).map(
    (s) =>
      `| ${variables(s)} | ${s.flag === undefined ? "" : `\`--${s.flag}\``} | ${cell(s.default)} | ${cell(s.meaning)} |`,
  );
  return ["| Variable | Flag | Default | Meaning |", "| --- | --- | --- | --- |", ...rows].join("\n");
}

/** The settings as `--help` prints them. */
export function settingsHelp(): string {
  const plain = (text: string) => text.replace(/`/g, "");
  return Object.values(SETTINGS as Record<string, Setting>)
    .map((s) => {
      const names = [s.flag === undefined ? undefined : `--${s.flag}`, s.file ? `${s.env} / ${s.env}_FILE` : s.env]
        .filter((n) => n !== undefined)
        .join(", ");
      return `  ${names}\n      ${plain(s.meaning)} Default: ${plain(s.default)}.`;
    })
    .join("\n");
}
