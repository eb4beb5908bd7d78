import { ConfigError } from "../config-error.js";

/** How webhooks and e-mail alerts are delivered; every figure can be set for tests and operators. */
export interface WebhookSettings {
  /** Delivery workers in this process (each claims in batches and sends `concurrency` runs at once). */
  workers: number;
  /** Runs a worker sends at once (each run: one subscription's deliveries, one after the other). */
  concurrency: number;
  /** Most deliveries of one subscription a claim takes (sent in order by one worker). */
  runLength: number;
  /** A receiver that has not answered within this time has failed the attempt. */
  timeoutMs: number;
  /** How often an idle worker looks for due deliveries. */
  pollMs: number;
  /** How long a claimed delivery stays a worker's before another may take it (after a crash). */
  leaseMs: number;
  /** Retry delay after the n-th failure: `min(backoffBaseMs * 2^(n-1), backoffCapMs)`, with jitter. */
  backoffBaseMs: number;
  backoffCapMs: number;
  /** Retries continue at least this long after the event before a delivery is `failed`. */
  retryWindowMs: number;
  maxSubscriptionsPerAccount: number;
  /** Receivers on loopback (devnet only). */
  allowLoopback: boolean;
  /** Receivers must be `https` (everywhere but the devnet). */
  requireHttps: boolean;
  /** `redemption.lease_expiring` goes this many seconds before a lease's stated end (default 24 h). */
  leaseExpiringLeadSeconds: number;
  /** How often the lease-notice scheduler looks for due notices (it is also woken after each indexed batch). */
  leaseNoticeIntervalMs: number;
  /** `smtp://user:pass@host:port` (or `smtps://`): provider e-mail alerts are sent when set with `smtpFrom`. */
  smtpUrl?: string;
  smtpFrom?: string;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Defaults: two workers, a 10 s timeout, retries from 10 s doubling up to one hour apart for 24
 * hours (about 30 attempts), a lease of twice the timeout plus 5 s (an attempt never outlives it;
 * a crashed worker's delivery is due again within 25 s).
 */
export function webhookSettings(environment: string, overrides: Partial<WebhookSettings> = {}): WebhookSettings {
  const devnet = environment === "devnet";
  const timeoutMs = overrides.timeoutMs ?? 10_000;
  return {
    workers: 2,
    concurrency: 16,
    runLength: 20,
    timeoutMs,
    pollMs: devnet ? 100 : 500,
    leaseMs: 2 * timeoutMs + 5_000,
    backoffBaseMs: 10_000,
    backoffCapMs: HOUR,
    retryWindowMs: 24 * HOUR,
    maxSubscriptionsPerAccount: 25,
    allowLoopback: devnet,
    requireHttps: !devnet,
    leaseExpiringLeadSeconds: 24 * 3_600,
    leaseNoticeIntervalMs: devnet ? 250 : 5_000,
    ...overrides,
  };
}

/**
 * The settings in the environment: `GATEWAY_WEBHOOK_WORKERS`, `GATEWAY_WEBHOOK_CONCURRENCY`, `GATEWAY_WEBHOOK_TIMEOUT_MS`,
 * `GATEWAY_LEASE_EXPIRING_LEAD` (seconds), `SMTP_URL`, `SMTP_FROM`.
 */
export function webhookSettingsFromEnv(env: NodeJS.ProcessEnv): Partial<WebhookSettings> {
  const positive = (name: string): number | undefined => {
    const value = env[name];
    if (value === undefined || value === "") return undefined;
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) throw new ConfigError(`${name} must be a positive integer`);
    return n;
  };
  if (env.SMTP_URL && !env.SMTP_FROM)
    throw new ConfigError("SMTP_FROM (the alerts' from-address) must be set with SMTP_URL");
  const workers = positive("GATEWAY_WEBHOOK_WORKERS");
  const concurrency = positive("GATEWAY_WEBHOOK_CONCURRENCY");
  const timeoutMs = positive("GATEWAY_WEBHOOK_TIMEOUT_MS");
  const lead = positive("GATEWAY_LEASE_EXPIRING_LEAD");
  return {
    ...(workers === undefined ? {} : { workers }),
    ...(concurrency === undefined ? {} : { concurrency }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(lead === undefined ? {} : { leaseExpiringLeadSeconds: lead }),
    ...(env.SMTP_URL ? { smtpUrl: env.SMTP_URL } : {}),
    ...(env.SMTP_FROM ? { smtpFrom: env.SMTP_FROM } : {}),
  };
}
