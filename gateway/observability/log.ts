import { pino } from "pino";
import type { DestinationStream, Logger, LoggerOptions } from "pino";

/**
 * What the gateway's parts log through: pino's logger (Fastify's own), or anything with its level
 * methods. A line is an object of fields and a message: `log.warn({ chain }, "node unreachable")`.
 */
export interface Log {
  fatal(fields: object, message?: string): void;
  fatal(message: string): void;
  error(fields: object, message?: string): void;
  error(message: string): void;
  warn(fields: object, message?: string): void;
  warn(message: string): void;
  info(fields: object, message?: string): void;
  info(message: string): void;
  debug(fields: object, message?: string): void;
  debug(message: string): void;
  trace(fields: object, message?: string): void;
  trace(message: string): void;
  /** A logger whose every line carries `bindings` (a component, a chain, a request id). */
  child(bindings: Record<string, unknown>): Log;
}

export type { Logger };

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** What every line shows in place of a secret. */
export const REDACTED = "[redacted]";

/**
 * Fields that never reach a log line in clear, wherever they appear (up to two levels deep): the
 * credentials of a request (Authorization, cookies, API keys), webhook secrets, private keys and
 * master keys, and the settings that carry a password (database, Redis and SMTP URLs).
 */
export const REDACTED_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  ...[
    "authorization",
    "cookie",
    "apiKey",
    "api_key",
    "token",
    "secret",
    "secrets",
    "previousSecret",
    "privateKey",
    "private_key",
    "jwtSecret",
    "accountKey",
    "verifierKeys",
    "metricsToken",
    "tls",
    "sealed",
    "databaseUrl",
    "redisUrl",
    "smtpUrl",
  ].flatMap((name) => [name, `*.${name}`, `*.*.${name}`]),
];

/** A URL as logged: the value of an `api_key` query parameter is replaced. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]api_key=)[^&#]*/gi, `$1${REDACTED}`);
}

/** Fastify's request as a log line shows it (its id is the line's `reqId`). */
function requestFields(request: {
  method?: string;
  url?: string;
  headers?: Record<string, unknown>;
  ip?: string;
}): Record<string, unknown> {
  return {
    method: request.method,
    url: request.url === undefined ? undefined : redactUrl(request.url),
    ...(request.ip === undefined ? {} : { remoteAddress: request.ip }),
    ...(request.headers === undefined ? {} : { headers: request.headers }),
  };
}

export interface LogOptions {
  /** Lowest level written (`GATEWAY_LOG_LEVEL`, default `info`). */
  level?: LogLevel;
  /** Where lines go (default: standard output, written asynchronously). */
  destination?: DestinationStream;
}

/**
 * The gateway's logger: one JSON object per line with `level` (its name), `time` (ISO 8601),
 * `service`, the message in `msg` and the line's fields; secrets redacted ({@link REDACTED_PATHS}).
 */
export function createLogger(options: LogOptions = {}): Logger {
  const settings: LoggerOptions = {
    level: options.level ?? "info",
    base: { service: "gateway" },
    messageKey: "msg",
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: REDACTED_PATHS, censor: REDACTED },
    serializers: { req: requestFields, err: pino.stdSerializers.err, error: pino.stdSerializers.err },
  };
  return pino(settings, options.destination ?? pino.destination({ sync: false }));
}

/**
 * A logger that hands each line's message to `write` (the devnet's console, a test's array): the
 * level is shown before the message for warnings and worse, the fields are dropped.
 */
export function lineLogger(write: (line: string) => void, level: LogLevel = "info"): Logger {
  return createLogger({
    level,
    destination: {
      write(chunk: string) {
        const line = JSON.parse(chunk) as { level: string; msg?: string };
        const serious = line.level === "warn" || line.level === "error" || line.level === "fatal";
        write(`${serious ? `${line.level}: ` : ""}${line.msg ?? ""}`);
      },
    },
  });
}

/** A logger that writes nothing. */
export const silentLog: Logger = pino({ level: "silent" });
