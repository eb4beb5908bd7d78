import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

import { CHAINS } from "@compute-capacity/sdk/constants";
import { ConfigError } from "./config-error.js";
import { loadVerifierKeys } from "./verification/key-config.js";
import { webhookSettingsFromEnv } from "./webhooks/settings.js";
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
}

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

/** The portal's settings from the environment (`root` resolves the build folder). */
export function portalSettings(env: NodeJS.ProcessEnv, root: string, origin?: string): PortalSettings {
  const portalOrigin = origin ?? env.GATEWAY_PORTAL_ORIGIN;
  if (portalOrigin !== undefined && !/^https?:\/\/[^/?#\s]+$/.test(portalOrigin)) {
    throw new ConfigError("--portal-origin / GATEWAY_PORTAL_ORIGIN must be scheme://host[:port], no path");
  }
  const rpc = (env.GATEWAY_WALLET_RPC_URLS ?? "")
    .split(",")
    .map((u) => u.trim())
    .filter((u) => u !== "");
  return {
    ...(portalOrigin === undefined ? {} : { origin: portalOrigin }),
    sessionTtlSeconds: positiveInteger(env.GATEWAY_SESSION_TTL ?? String(8 * 3_600), "GATEWAY_SESSION_TTL"),
    distDir: path.resolve(root, env.GATEWAY_PORTAL_DIR ?? path.join("portal", "dist")),
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
 * defaults. The JWT secret comes from `GATEWAY_JWT_SECRET` or the file `GATEWAY_JWT_SECRET_FILE`;
 * on the devnet only, a random one is created in the data folder (outside the repository).
 */
export function loadConfig(
  flags: Flags = {},
  env: NodeJS.ProcessEnv = process.env,
  root = process.cwd(),
): GatewayConfig {
  const pick = (flag: string, variable: string) => flags[flag] ?? env[variable];
  const environment = pick("environment", "GATEWAY_ENVIRONMENT") ?? "devnet";
  const dataDir = path.resolve(root, pick("data-dir", "GATEWAY_DATA_DIR") ?? path.join(".gateway", environment));
  // `--port` is the deprecated name of `--gateway-port` (the devnet's flag, and GATEWAY_PORT's)
  const port = Number(flags["gateway-port"] ?? flags.port ?? env.GATEWAY_PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError("--gateway-port / GATEWAY_PORT must be 0..65535");

  const confirmations: Record<string, number> = environment === "devnet" ? {} : { ...DEFAULT_CONFIRMATIONS };
  const depthSetting = pick("confirmations", "GATEWAY_CONFIRMATIONS");
  let defaultConfirmations = environment === "devnet" ? 0 : 12;
  for (const part of (depthSetting ?? "").split(",").filter((p) => p.trim() !== "")) {
    const [chain, value] = part.includes("=") ? part.split("=") : [undefined, part];
    const depth = Number(value);
    if (!Number.isInteger(depth) || depth < 0) {
      throw new ConfigError(
        "--confirmations / GATEWAY_CONFIRMATIONS: a number, or chain=number pairs separated by commas",
      );
    }
    if (chain === undefined) {
      defaultConfirmations = depth;
      for (const key of Object.keys(confirmations)) confirmations[key] = depth;
    } else confirmations[chain.trim()] = depth;
  }

  const rpcUrls: Record<string, string> = {};
  for (const chain of Object.keys(CHAINS)) {
    const variable = `${chain.replace(/([A-Z])/g, "_$1").toUpperCase()}_RPC_URL`; // arbitrumSepolia -> ARBITRUM_SEPOLIA_RPC_URL
    if (env[variable]) rpcUrls[chain] = env[variable]!;
  }

  const certFile = pick("tls-cert", "GATEWAY_TLS_CERT_FILE");
  const keyFile = pick("tls-key", "GATEWAY_TLS_KEY_FILE");
  if ((certFile === undefined) !== (keyFile === undefined)) {
    throw new ConfigError("--tls-cert / GATEWAY_TLS_CERT_FILE and --tls-key / GATEWAY_TLS_KEY_FILE go together");
  }
  const tls =
    certFile === undefined ? undefined : { cert: readFileSync(certFile, "utf8"), key: readFileSync(keyFile!, "utf8") };
  const trustedProxies = (pick("trusted-proxies", "GATEWAY_TRUSTED_PROXIES") ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  const httpsSetting = pick("require-https", "GATEWAY_REQUIRE_HTTPS");
  const requireHttps = httpsSetting === undefined ? environment !== "devnet" : httpsSetting === "true";
  if (requireHttps && tls === undefined && trustedProxies.length === 0) {
    throw new ConfigError(
      "HTTPS is required outside the devnet: serve TLS (--tls-cert and --tls-key, or GATEWAY_TLS_CERT_FILE and " +
        "GATEWAY_TLS_KEY_FILE) or name the TLS-terminating proxy (--trusted-proxies / GATEWAY_TRUSTED_PROXIES)",
    );
  }

  return {
    host: pick("host", "GATEWAY_HOST") ?? "127.0.0.1",
    port,
    environment,
    deploymentFile: path.resolve(
      root,
      pick("deployment", "GATEWAY_DEPLOYMENT_FILE") ?? path.join("deployments", `${environment}.json`),
    ),
    ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : {}),
    dataDir,
    ...(env.REDIS_URL ? { redisUrl: env.REDIS_URL } : {}),
    jwtSecret: jwtSecret(env, environment, dataDir),
    ...accountKey(env, environment, dataDir),
    confirmations,
    defaultConfirmations,
    rpcUrls,
    pollIntervalMs: Number(pick("poll-ms", "GATEWAY_POLL_MS") ?? (environment === "devnet" ? 200 : 2_000)),
    batchBlocks: Number(pick("batch-blocks", "GATEWAY_BATCH_BLOCKS") ?? 500),
    ...(tls === undefined ? {} : { tls }),
    trustedProxies,
    requireHttps,
    verifierKeys: loadVerifierKeys(env, environment),
    verificationTtlSeconds: positiveInteger(env.GATEWAY_VERIFICATION_TTL ?? "86400", "GATEWAY_VERIFICATION_TTL"),
    webhooks: webhookSettingsFromEnv(env),
    portal: portalSettings(env, root, pick("portal-origin", "GATEWAY_PORTAL_ORIGIN")),
  };
}

function jwtSecret(env: NodeJS.ProcessEnv, environment: string, dataDir: string): string {
  if (env.GATEWAY_JWT_SECRET) return checkSecret(env.GATEWAY_JWT_SECRET, "GATEWAY_JWT_SECRET");
  if (env.GATEWAY_JWT_SECRET_FILE) {
    return checkSecret(readFileSync(env.GATEWAY_JWT_SECRET_FILE, "utf8").trim(), "GATEWAY_JWT_SECRET_FILE");
  }
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
function accountKey(env: NodeJS.ProcessEnv, environment: string, dataDir: string): { accountKey?: string } {
  let key = env.GATEWAY_ACCOUNT_KEY;
  if (!key && env.GATEWAY_ACCOUNT_KEY_FILE) key = readFileSync(env.GATEWAY_ACCOUNT_KEY_FILE, "utf8").trim();
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
