import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

import { CHAINS } from "@compute-capacity/sdk/constants";
import { ConfigError } from "./config-error.js";
import { loadVerifierKeys } from "./verification/key-config.js";
import { webhookSettingsFromEnv } from "./webhooks/settings.js";
import { LOG_LEVELS } from "./observability/log.js";
import { RPC_URL_CHAINS, nameOf, settingsReader } from "./settings.js";
import type { SettingsReader } from "./settings.js";
import type { LogLevel } from "./observability/log.js";
import type { WebhookSettings } from "./webhooks/settings.js";

export { ConfigError } from "./config-error.js";

/** Everything the gateway process is configured with (flags override environment variables). */
export interface GatewayConfig {
  host: string;
  port: number;
  /** `devnet`, `testnet` or `mainnet`: picks `deployments/<environment>.json`. */
  environment: string;
  deploymentFile: string;
  /** PostgreSQL server; PGlite in `dataDir` when absent. */
  databaseUrl?: string;
  dataDir: string;
  /** Where a migrated, empty PGlite database is kept, to copy a new data folder from (none: `initdb`). */
  pgliteTemplates?: string;
  redisUrl?: string;
  jwtSecret: string;
  /** Master key (32 bytes, hex) sealing managed accounts' signing keys; none: no managed accounts. */
  accountKey?: string;
  /** Confirmation depth per chain name (missing: `defaultConfirmations`). */
  confirmations: Record<string, number>;
  defaultConfirmations: number;
  /** RPC URL per chain name (missing: the deployment file's `rpcUrl`). */
  rpcUrls: Record<string, string>;
  pollIntervalMs: number;
  /** A read of a chain's node unanswered this long fails (and is retried by the indexer); default 10 s. */
  rpcTimeoutMs?: number;
  batchBlocks: number;
  /** PEM certificate and key: the gateway serves HTTPS itself. */
  tls?: { cert: string; key: string };
  /** Addresses or CIDRs of TLS-terminating proxies whose `X-Forwarded-*` headers are believed. */
  trustedProxies?: string[];
  /** Refuse requests that did not arrive over HTTPS, directly or through a trusted proxy (default: outside the devnet). */
  requireHttps?: boolean;
  /** Verifier private keys this gateway attests with (undefined: the devnet's on the devnet, else none). */
  verifierKeys?: string[];
  /** Seconds of chain time an attestation stays mintable (default one day). */
  verificationTtlSeconds?: number;
  /** Webhook delivery and e-mail alerts (defaults per environment: gateway/webhooks/settings.ts). */
  webhooks?: Partial<WebhookSettings>;
  /** The portal (issue 20): its origin, sessions and build (defaults: {@link portalSettings}). */
  portal?: PortalSettings;
  /** Lowest level logged (default `info`). */
  logLevel?: LogLevel;
  /** The bearer token `/metrics` needs (without one: open on the devnet, refused elsewhere). */
  metricsToken?: string;
  /** Most blocks an indexer may be behind its indexable head and stay ready, by chain (missing: the default). */
  readyMaxLagBlocks?: Record<string, number>;
  defaultReadyMaxLagBlocks?: number;
  /** An indexer that has not reached its node and the database for this long makes the gateway not ready. */
  readyStaleSeconds?: number;
  /** On SIGTERM: how long the gateway keeps serving while not ready, for the load balancer to notice. */
  shutdownDelayMs?: number;
  /** On SIGTERM: the bound on the whole shutdown (the process exits with status 1 past it). */
  shutdownTimeoutMs?: number;
  /** Apply the committed migrations at start (default true; false: a release step runs `migrate`). */
  migrate?: boolean;
  /** Most connections to PostgreSQL. */
  dbPoolSize?: number;
  /** Connections on which the read routes' queries are pipelined (0: through the pool). */
  dbReadConnections?: number;
}

/** Readiness: blocks an indexer may lag behind its indexable head (the head less the confirmation depth). */
export const DEFAULT_READY_MAX_LAG_BLOCKS = 50;
/** Readiness: seconds without reaching the node and the database before an indexer counts as stalled. */
export const DEFAULT_READY_STALE_SECONDS = 60;
/** Shutdown: the load balancer's delay (devnet: none) and the bound on the whole stop. */
export const DEFAULT_SHUTDOWN_DELAY_MS = 5_000;
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 30_000;
/** How long a read of a chain's node may go unanswered (ethers' own default is five minutes). */
export const DEFAULT_RPC_TIMEOUT_MS = 10_000;

/** The portal's settings. */
export interface PortalSettings {
  /**
   * `scheme://host[:port]` the portal is served from: what a sign-in message must name and where a
   * session's writes must come from (`GATEWAY_PORTAL_ORIGIN`). Default on the devnet: the gateway's
   * own URL once it listens; elsewhere required for sign-in.
   */
  origin?: string;
  /** Longest session, seconds (`GATEWAY_SESSION_TTL`, default 8 hours). */
  sessionTtlSeconds: number;
  /** The built portal (`GATEWAY_PORTAL_DIR`, default `portal/dist`). */
  distDir: string;
  /** RPC URLs a wallet may add for the primary chain (`GATEWAY_WALLET_RPC_URLS`; devnet: the node's). */
  walletRpcUrls?: string[];
}

/** The built portal beside the gateway's code: portal/dist in the repository, dist/portal/dist when built. */
export const DEFAULT_PORTAL_DIR = path.join(import.meta.dirname, "..", "portal", "dist");

/** The portal's settings from the environment (`root` resolves a relative build folder). */
export function portalSettings(env: NodeJS.ProcessEnv, root: string, origin?: string): PortalSettings {
  return portalSettingsOf(settingsReader(origin === undefined ? {} : { "portal-origin": origin }, env), root);
}

function portalSettingsOf(settings: SettingsReader, root: string): PortalSettings {
  const portalOrigin = settings.value("portalOrigin");
  if (portalOrigin !== undefined && !/^https?:\/\/[^/?#\s]+$/.test(portalOrigin)) {
    throw new ConfigError("--portal-origin / GATEWAY_PORTAL_ORIGIN must be scheme://host[:port], no path");
  }
  const rpc = (settings.value("walletRpcUrls") ?? "")
    .split(",")
    .map((u) => u.trim())
    .filter((u) => u !== "");
  return {
    ...(portalOrigin === undefined ? {} : { origin: portalOrigin }),
    sessionTtlSeconds: positiveInteger(settings.value("sessionTtl") ?? String(8 * 3_600), nameOf("sessionTtl")),
    distDir: path.resolve(root, settings.value("portalDir") ?? DEFAULT_PORTAL_DIR),
    ...(rpc.length === 0 ? {} : { walletRpcUrls: rpc }),
  };
}

/**
 * Confirmation depths outside the devnet: blocks a log must be under the head before it counts.
 * Ethereum finalizes in about 64 blocks but reorgs deeper than a few are practically unseen;
 * Polygon PoS had deeper ones before its fast-finality upgrade; Arbitrum's sequencer orders
 * transactions itself and reorgs only if the L1 batch does.
 */
export const DEFAULT_CONFIRMATIONS: Record<string, number> = {
  ethereum: 12,
  sepolia: 12,
  arbitrum: 20,
  arbitrumSepolia: 20,
  polygon: 64,
  polygonAmoy: 64,
};

/** Chain labels for the API (`/bridge/chains` names). */
export const CHAIN_LABELS: Record<string, string> = Object.fromEntries(
  Object.entries(CHAINS).map(([chain, c]) => [chain, c.label]),
);

type Flags = Record<string, string | undefined>;

/**
 * Reads the configuration: flags (`--gateway-port`), then environment variables (`GATEWAY_PORT`), then
 * defaults, each setting through its row of `SETTINGS` (settings.ts). The JWT secret comes from
 * `GATEWAY_JWT_SECRET` or the file `GATEWAY_JWT_SECRET_FILE`; on the devnet only, a random one is
 * created in the data folder (outside the repository).
 */
export function loadConfig(
  flags: Flags = {},
  env: NodeJS.ProcessEnv = process.env,
  root = process.cwd(),
): GatewayConfig {
  const settings = settingsReader(flags, env);
  const pick = settings.value;
  const environment = pick("environment") ?? "devnet";
  const dataDir = path.resolve(root, pick("dataDir") ?? path.join(".gateway", environment));
  const pgliteTemplates =
    pick("pgliteTemplates") ?? (environment === "devnet" ? path.join(".gateway", "pglite-templates") : undefined);
  // `--port` is the deprecated name of `--gateway-port` (the devnet's flag, and GATEWAY_PORT's)
  const port = Number(pick("port") ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError("--gateway-port / GATEWAY_PORT must be 0..65535");

  const depths = perChain(
    pick("confirmations"),
    nameOf("confirmations"),
    environment === "devnet" ? {} : DEFAULT_CONFIRMATIONS,
    environment === "devnet" ? 0 : 12,
  );
  const lags = perChain(pick("readyMaxLag"), nameOf("readyMaxLag"), {}, DEFAULT_READY_MAX_LAG_BLOCKS);
  const logLevel = pick("logLevel") ?? "info";
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError(`--log-level / GATEWAY_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}`);
  }
  const migrateSetting = pick("migrate") ?? "true";
  if (migrateSetting !== "true" && migrateSetting !== "false") {
    throw new ConfigError("--migrate / GATEWAY_MIGRATE must be true or false");
  }
  const metricsToken = settings.secret("metricsToken", (file) => readFileSync(file, "utf8")).value;

  const rpcUrls: Record<string, string> = {};
  for (const chain of RPC_URL_CHAINS) {
    const url = settings.rpcUrl(chain); // arbitrumSepolia: ARBITRUM_SEPOLIA_RPC_URL
    if (url) rpcUrls[chain] = url;
  }

  const certFile = pick("tlsCert");
  const keyFile = pick("tlsKey");
  if ((certFile === undefined) !== (keyFile === undefined)) {
    throw new ConfigError("--tls-cert / GATEWAY_TLS_CERT_FILE and --tls-key / GATEWAY_TLS_KEY_FILE go together");
  }
  const tls =
    certFile === undefined ? undefined : { cert: readFileSync(certFile, "utf8"), key: readFileSync(keyFile!, "utf8") };
  const trustedProxies = (pick("trustedProxies") ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  const httpsSetting = pick("requireHttps");
  const requireHttps = httpsSetting === undefined ? environment !== "devnet" : httpsSetting === "true";
  if (requireHttps && tls === undefined && trustedProxies.length === 0) {
    throw new ConfigError(
      "HTTPS is required outside the devnet: serve TLS (--tls-cert and --tls-key, or GATEWAY_TLS_CERT_FILE and " +
        "GATEWAY_TLS_KEY_FILE) or name the TLS-terminating proxy (--trusted-proxies / GATEWAY_TRUSTED_PROXIES)",
    );
  }

  return {
    host: pick("host") ?? "127.0.0.1",
    port,
    environment,
    deploymentFile: path.resolve(root, pick("deploymentFile") ?? path.join("deployments", `${environment}.json`)),
    ...(pick("databaseUrl") ? { databaseUrl: pick("databaseUrl") } : {}),
    dataDir,
    ...(pgliteTemplates === undefined ? {} : { pgliteTemplates: path.resolve(root, pgliteTemplates) }),
    ...(pick("redisUrl") ? { redisUrl: pick("redisUrl") } : {}),
    jwtSecret: jwtSecret(settings, environment, dataDir),
    ...accountKey(settings, environment, dataDir),
    confirmations: depths.byChain,
    defaultConfirmations: depths.default,
    rpcUrls,
    pollIntervalMs: Number(pick("pollMs") ?? (environment === "devnet" ? 200 : 2_000)),
    rpcTimeoutMs: positiveMilliseconds(pick("rpcTimeoutMs") ?? String(DEFAULT_RPC_TIMEOUT_MS), nameOf("rpcTimeoutMs")),
    batchBlocks: Number(pick("batchBlocks") ?? 500),
    ...(tls === undefined ? {} : { tls }),
    trustedProxies,
    requireHttps,
    verifierKeys: loadVerifierKeys(env, environment),
    verificationTtlSeconds: positiveInteger(pick("verificationTtl") ?? "86400", nameOf("verificationTtl")),
    webhooks: webhookSettingsFromEnv(env),
    portal: portalSettingsOf(settings, root),
    logLevel: logLevel as LogLevel,
    ...(metricsToken === undefined ? {} : { metricsToken }),
    readyMaxLagBlocks: lags.byChain,
    defaultReadyMaxLagBlocks: lags.default,
    readyStaleSeconds: positiveInteger(
      pick("readyStaleSeconds") ?? String(DEFAULT_READY_STALE_SECONDS),
      nameOf("readyStaleSeconds"),
    ),
    shutdownDelayMs: nonNegativeInteger(
      pick("shutdownDelayMs") ?? String(environment === "devnet" ? 0 : DEFAULT_SHUTDOWN_DELAY_MS),
      nameOf("shutdownDelayMs"),
    ),
    shutdownTimeoutMs: positiveMilliseconds(
      pick("shutdownTimeoutMs") ?? String(DEFAULT_SHUTDOWN_TIMEOUT_MS),
      nameOf("shutdownTimeoutMs"),
    ),
    migrate: migrateSetting === "true",
    ...(pick("dbPoolSize") ? { dbPoolSize: positiveInteger(pick("dbPoolSize")!, nameOf("dbPoolSize")) } : {}),
    ...(pick("dbReadConnections")
      ? { dbReadConnections: nonNegativeInteger(pick("dbReadConnections")!, nameOf("dbReadConnections")) }
      : {}),
  };
}

/**
 * A number per chain: `N` for every chain, or `chain=N` pairs separated by commas (a bare `N`
 * among them sets the default). `defaults` are the chains' values before the setting.
 */
function perChain(
  setting: string | undefined,
  name: string,
  defaults: Record<string, number>,
  fallback: number,
): { byChain: Record<string, number>; default: number } {
  const byChain: Record<string, number> = { ...defaults };
  let value = fallback;
  for (const part of (setting ?? "").split(",").filter((p) => p.trim() !== "")) {
    const [chain, text] = part.includes("=") ? part.split("=") : [undefined, part];
    const n = Number(text);
    if (!Number.isInteger(n) || n < 0)
      throw new ConfigError(`${name}: a number, or chain=number pairs separated by commas`);
    if (chain === undefined) {
      value = n;
      for (const key of Object.keys(byChain)) byChain[key] = n;
    } else byChain[chain.trim()] = n;
  }
  return { byChain, default: value };
}

function nonNegativeInteger(value: string, name: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new ConfigError(`${name} must be a whole number, 0 or more`);
  return n;
}

function jwtSecret(settings: SettingsReader, environment: string, dataDir: string): string {
  const secret = settings.secret("jwtSecret", (file) => readFileSync(file, "utf8"));
  if (secret.value !== undefined) return checkSecret(secret.value, secret.from);
  if (environment !== "devnet") {
    throw new ConfigError(
      "set GATEWAY_JWT_SECRET or GATEWAY_JWT_SECRET_FILE (at least 32 characters) outside the devnet",
    );
  }
  const file = path.join(dataDir, "jwt-secret");
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600 });
  }
  return readFileSync(file, "utf8").trim();
}

function positiveMilliseconds(value: string, name: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw new ConfigError(`${name} must be a positive integer (milliseconds)`);
  return n;
}

function positiveInteger(value: string, name: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw new ConfigError(`${name} must be a positive integer (seconds)`);
  return n;
}

function checkSecret(secret: string, name: string): string {
  if (secret.length < 32) throw new ConfigError(`${name} must be at least 32 characters`);
  return secret;
}

/**
 * The managed accounts' master key: `GATEWAY_ACCOUNT_KEY` or the file `GATEWAY_ACCOUNT_KEY_FILE`
 * (64 hex digits); on the devnet only, a random one is created in the data folder. Outside the
 * devnet without either, the gateway holds no keys and every account is external.
 */
function accountKey(settings: SettingsReader, environment: string, dataDir: string): { accountKey?: string } {
  let key = settings.secret("accountKey", (file) => readFileSync(file, "utf8")).value;
  if (!key && environment === "devnet") {
    const file = path.join(dataDir, "account-key");
    if (!existsSync(file)) {
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600 });
    }
    key = readFileSync(file, "utf8").trim();
  }
  if (!key) return {};
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(key)) {
    throw new ConfigError("GATEWAY_ACCOUNT_KEY / GATEWAY_ACCOUNT_KEY_FILE must hold 32 bytes as 64 hex digits");
  }
  return { accountKey: key.replace(/^0x/, "") };
}

/** Where a gateway holding a PGlite folder leaves its URL for the commands of other processes. */
export function urlFileOf(config: Pick<GatewayConfig, "dataDir">): string {
  return path.join(config.dataDir, "gateway.url");
}
