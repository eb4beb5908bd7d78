import { parseArgs } from "node:util";

/** A configuration the agent cannot start with: printed as is, exit status 2. */
export class ProviderConfigError extends Error {
  override name = "ProviderConfigError";
}

/** What `npm run provider -- serve` runs with (docs: docs/provider-agent.md). */
export interface ProviderConfig {
  /** The gateway's base URL (`/v1` routes are under it). */
  gatewayUrl: string;
  /** An API key of the provider's account (read scope): the agent lists the account's redemptions with it. */
  apiKey: string;
  /** JSON-RPC URL of the primary chain (where the redemption manager is). */
  rpcUrl: string;
  /** The provider's private key (0x + 64 hex digits): it signs the fulfilments and renewal offers. */
  privateKey: string;
  /** Shell command run per redemption: the redemption JSON on stdin, the access details JSON on stdout. */
  provisionCommand: string;
  /** Shell command run when a lease is terminated or ends: the redemption JSON on stdin. */
  deprovisionCommand: string;
  /** The state file (JSON, written atomically). */
  stateFile: string;
  /** The lease term stated at fulfilment, seconds (capped by the manager's maximum). */
  leaseSeconds: number;
  /** The renewal rule: offer `renewDays` at `renewPrice` sSTB once the end is within `renewBeforeSeconds`. Off without a price. */
  renewal: { price: string; extensionSeconds: number; beforeSeconds: number } | null;
  /** How often the API is polled, ms. */
  pollMs: number;
  /** Attempts of a failing provisioning command before the redemption is marked failed. */
  attempts: number;
  /** The first retry's delay, ms (doubled each time). */
  backoffMs: number;
  /** Seconds a command may run before it is killed (and counts as failed). */
  commandTimeoutSeconds: number;
  /** Listen for the gateway's webhooks on this port (with `webhookSecret`); none: polling only. */
  webhookPort: number | null;
  webhookHost: string;
  webhookSecret: string | null;
  /** Log what would be done; run no command and send no transaction. */
  dryRun: boolean;
}

export const PROVIDER_USAGE = `Usage:
  npm run provider -- serve --gateway URL --rpc URL --provision CMD --deprovision CMD
                            [--state FILE] [--lease-days N] [--renew-price SSTB --renew-days N --renew-before-hours N]
                            [--poll-seconds N] [--attempts N] [--backoff-ms MS] [--command-timeout SECONDS]
                            [--webhook-port N --webhook-host HOST] [--dry-run]
  npm run provider -- status [--state FILE]
  npm run provider -- retry ID [--state FILE]      (a failed redemption: another round of attempts)
  npm run provider -- abandon ID [--state FILE]    (a failed redemption: the agent leaves it alone)

retry and abandon are safe while the agent runs: it applies them at its next pass.

Environment: PROVIDER_PRIVATE_KEY (required: the provider's key, 0x + 64 hex digits; or a file in
PROVIDER_PRIVATE_KEY_FILE), PROVIDER_API_KEY (required: an API key of the provider's account),
PROVIDER_GATEWAY_URL, PROVIDER_RPC_URL, PROVIDER_WEBHOOK_SECRET (the subscription's secret, with --webhook-port).`;

const OPTIONS = {
  gateway: { type: "string" },
  rpc: { type: "string" },
  provision: { type: "string" },
  deprovision: { type: "string" },
  state: { type: "string" },
  "lease-days": { type: "string" },
  "renew-price": { type: "string" },
  "renew-days": { type: "string" },
  "renew-before-hours": { type: "string" },
  "poll-seconds": { type: "string" },
  attempts: { type: "string" },
  "backoff-ms": { type: "string" },
  "command-timeout": { type: "string" },
  "webhook-port": { type: "string" },
  "webhook-host": { type: "string" },
  "dry-run": { type: "boolean" },
} as const;

/** Parses the command line of `serve`, `status`, `retry ID` and `abandon ID`. */
export function parseProviderArgs(argv: string[]): {
  command: string;
  /** The redemption id of `retry` and `abandon`. */
  id?: string;
  values: Record<string, string | boolean | undefined>;
} {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new ProviderConfigError(`${(error as Error).message}\n\n${PROVIDER_USAGE}`);
  }
  const [command = "serve", ...rest] = parsed.positionals;
  if (command === "retry" || command === "abandon") {
    if (rest.length !== 1 || !/^[0-9]+$/.test(rest[0])) {
      throw new ProviderConfigError(`${command} takes one redemption id (a number)\n\n${PROVIDER_USAGE}`);
    }
    return { command, id: rest[0], values: parsed.values };
  }
  if (rest.length > 0 || !["serve", "status"].includes(command)) {
    throw new ProviderConfigError(`unknown command: ${[command, ...rest].join(" ")}\n\n${PROVIDER_USAGE}`);
  }
  return { command, values: parsed.values };
}

/**
 * The configuration of `serve` from the command line and the environment. Everything missing or
 * malformed is reported at once, in one message, before anything runs.
 */
export function providerConfig(
  values: Record<string, string | boolean | undefined>,
  env: NodeJS.ProcessEnv,
  readFile: (path: string) => string,
): ProviderConfig {
  const problems: string[] = [];
  const text = (flag: string, variable?: string): string | undefined => {
    const v = values[flag] ?? (variable === undefined ? undefined : env[variable]);
    return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
  };
  const required = (flag: string, variable: string | undefined, what: string): string => {
    const v = text(flag, variable);
    if (v === undefined) problems.push(`missing ${what}: --${flag}${variable === undefined ? "" : ` or ${variable}`}`);
    return v ?? "";
  };
  const positive = (flag: string, fallback: number, integer = true): number => {
    const v = text(flag);
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
      problems.push(`--${flag} must be a positive ${integer ? "integer" : "number"} (got "${v}")`);
      return fallback;
    }
    return n;
  };
  const url = (flag: string, variable: string, what: string): string => {
    const v = required(flag, variable, what);
    if (v !== "" && !/^https?:\/\/[^\s/]+/.test(v)) problems.push(`${what} must be an http(s) URL (got "${v}")`);
    return v.replace(/\/+$/, "");
  };

  const gatewayUrl = url("gateway", "PROVIDER_GATEWAY_URL", "the gateway's URL");
  const rpcUrl = url("rpc", "PROVIDER_RPC_URL", "the primary chain's RPC URL");
  const provisionCommand = required("provision", undefined, "the provisioning command");
  const deprovisionCommand = required("deprovision", undefined, "the deprovisioning command");
  const apiKey = env.PROVIDER_API_KEY?.trim() ?? "";
  if (apiKey === "") problems.push("missing PROVIDER_API_KEY (an API key of the provider's account, read scope)");
  let privateKey = env.PROVIDER_PRIVATE_KEY?.trim() ?? "";
  if (privateKey === "" && env.PROVIDER_PRIVATE_KEY_FILE) {
    try {
      privateKey = readFile(env.PROVIDER_PRIVATE_KEY_FILE).trim();
    } catch (error) {
      problems.push(`PROVIDER_PRIVATE_KEY_FILE could not be read: ${(error as Error).message}`);
    }
  }
  if (privateKey === "")
    problems.push("missing PROVIDER_PRIVATE_KEY (or PROVIDER_PRIVATE_KEY_FILE): the provider's key");
  else if (!/^0x[0-9a-fA-F]{64}$/.test(privateKey)) problems.push("PROVIDER_PRIVATE_KEY must be 0x and 64 hex digits");

  const renewPrice = text("renew-price");
  let renewal: ProviderConfig["renewal"] = null;
  if (renewPrice !== undefined) {
    if (!/^[0-9]+(\.[0-9]{1,18})?$/.test(renewPrice) || Number(renewPrice) <= 0) {
      problems.push(`--renew-price must be a positive sSTB amount (got "${renewPrice}")`);
    }
    if (text("renew-days") === undefined) problems.push("--renew-days is required with --renew-price");
    renewal = {
      price: renewPrice,
      extensionSeconds: Math.round(positive("renew-days", 30, false) * 86_400),
      beforeSeconds: Math.round(positive("renew-before-hours", 72, false) * 3_600),
    };
  } else if (text("renew-days") !== undefined || text("renew-before-hours") !== undefined) {
    problems.push("--renew-days and --renew-before-hours need --renew-price");
  }
  const portText = text("webhook-port");
  const webhookPort = portText === undefined ? null : Number(portText);
  if (webhookPort !== null && !(Number.isInteger(webhookPort) && webhookPort >= 0 && webhookPort <= 65_535)) {
    problems.push(`--webhook-port must be a port number, 0 for any free one (got "${portText}")`);
  }
  const webhookSecret = env.PROVIDER_WEBHOOK_SECRET?.trim() || null;
  if (webhookPort !== null && webhookSecret === null) {
    problems.push("--webhook-port needs PROVIDER_WEBHOOK_SECRET (the subscription's secret) to verify what arrives");
  }

  const config: ProviderConfig = {
    gatewayUrl,
    apiKey,
    rpcUrl,
    privateKey,
    provisionCommand,
    deprovisionCommand,
    stateFile: text("state") ?? "provider-state.json",
    leaseSeconds: Math.round(positive("lease-days", 30, false) * 86_400),
    renewal,
    pollMs: Math.round(positive("poll-seconds", 15, false) * 1000),
    attempts: positive("attempts", 5),
    backoffMs: positive("backoff-ms", 2_000),
    commandTimeoutSeconds: positive("command-timeout", 300),
    webhookPort,
    webhookHost: text("webhook-host") ?? "127.0.0.1",
    webhookSecret,
    dryRun: values["dry-run"] === true,
  };
  if (problems.length > 0) {
    throw new ProviderConfigError(
      `the provider agent cannot start:\n${problems.map((p) => `  - ${p}`).join("\n")}\n\n${PROVIDER_USAGE}`,
    );
  }
  return config;
}
