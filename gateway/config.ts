import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

import { CHAINS } from "../scripts/lib/environments.js";
import { webhookSettingsFromEnv } from "./webhooks/settings.js";
import type { WebhookSettings } from "./webhooks/settings.js";

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
  /** Confirmation depth per chain name (missing: `defaultConfirmations`). */
  confirmations: Record<string, number>;
  defaultConfirmations: number;
  /** RPC URL per chain name (missing: the deployment file's `rpcUrl`). */
  rpcUrls: Record<string, string>;
  pollIntervalMs: number;
  batchBlocks: number;
  /** Webhook delivery and e-mail alerts (defaults per environment: gateway/webhooks/settings.ts). */
  webhooks?: Partial<WebhookSettings>;
}

/** Raised for a configuration the gateway cannot start with; the message names the setting. */
export class ConfigError extends Error {}

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
 * Reads the configuration: flags (`--port`), then environment variables (`GATEWAY_PORT`), then
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
  const port = Number(pick("port", "GATEWAY_PORT") ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError("--port / GATEWAY_PORT must be 0..65535");

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
    confirmations,
    defaultConfirmations,
    rpcUrls,
    pollIntervalMs: Number(pick("poll-ms", "GATEWAY_POLL_MS") ?? (environment === "devnet" ? 200 : 2_000)),
    batchBlocks: Number(pick("batch-blocks", "GATEWAY_BATCH_BLOCKS") ?? 500),
    webhooks: webhookSettingsFromEnv(env),
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

function checkSecret(secret: string, name: string): string {
  if (secret.length < 32) throw new ConfigError(`${name} must be at least 32 characters`);
  return secret;
}
