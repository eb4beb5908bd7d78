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
 * Names of fields that never reach a log line in clear, wherever they sit in a line's fields (up to
 * three levels deep): the credentials of a request (Authorization, cookies, API keys), webhook
 * secrets, private keys and master keys, and the settings that carry a password (database, Redis
 * and SMTP URLs).
 */
export const SECRET_FIELDS: ReadonlySet<string> = new Set([
  "authorization",
  "cookie",
  "set-cookie",
  "x-api-key",
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
]);

/** Levels below a line's fields that {@link redactSecrets} looks into. */
const SECRET_DEPTH = 3;

/**
 * `fields` with every {@link SECRET_FIELDS} value replaced by {@link REDACTED}, up to three levels
 * deep, in plain objects and arrays (a request, a reply or an error has its own serializer). Copies
 * only what it changes: a line without a secret costs one look-up per key. Used in place of pino's
 * `redact`, whose wildcard paths cost more than the rest of a request's line (about 80 us of a
 * cached request's 620, measured with the benchmark's CPU profile).
 */
export function redactSecrets<T>(fields: T, depth = SECRET_DEPTH): T {
  if (depth === 0 || fields === null || typeof fields !== "object") return fields;
  if (Array.isArray(fields)) {
    let copy: unknown[] | undefined;
    fields.forEach((item, i) => {
      const next = redactSecrets(item, depth - 1);
      if (next !== item) (copy ??= [...fields])[i] = next;
    });
    return (copy ?? fields) as T;
  }
  const prototype = Object.getPrototypeOf(fields);
  if (prototype !== Object.prototype && prototype !== null) return fields;
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(fields)) {
    const value = (fields as Record<string, unknown>)[key];
    const next = SECRET_FIELDS.has(key) ? REDACTED : redactSecrets(value, depth - 1);
    if (next !== value) (copy ??= { ...(fields as Record<string, unknown>) })[key] = next;
  }
  return (copy ?? fields) as T;
}

/**
 * A URL as logged: the value of every `api_key` query parameter is replaced, whatever the case of
 * its name and however its name is percent-encoded (`api%5Fkey` is the key the query parser reads).
 * A URL without a query, most of them, is returned as it is.
 */
export function redactUrl(url: string): string {
  const query = url.indexOf("?");
  if (query === -1) return url;
  const hash = url.indexOf("#", query);
  const end = hash === -1 ? url.length : hash;
  const parameters = url.slice(query + 1, end).split("&");
  let changed = false;
  for (let i = 0; i < parameters.length; i++) {
    const eq = parameters[i].indexOf("=");
    const name = eq === -1 ? parameters[i] : parameters[i].slice(0, eq);
    if (decodedName(name).toLowerCase() === "api_key") {
      parameters[i] = `${name}=${REDACTED}`;
      changed = true;
    }
  }
  return changed ? `${url.slice(0, query + 1)}${parameters.join("&")}${url.slice(end)}` : url;
}

function decodedName(name: string): string {
  if (!name.includes("%") && !name.includes("+")) return name;
  try {
    return decodeURIComponent(name.replace(/\+/g, " "));
  } catch {
    return name;
  }
}

/**
 * pino's ISO time (`,"time":"2026-11-27T18:00:00.000Z"`), formatted once per millisecond: a busy
 * gateway writes several lines in the same millisecond, and formatting a date was a measurable part
 * of each request's line (docs/gateway-bench.md).
 */
function isoTime(): string {
  const now = Date.now();
  if (now !== lastTime.ms) {
    lastTime.ms = now;
    lastTime.text = `,"time":"${new Date(now).toISOString()}"`;
  }
  return lastTime.text;
}
const lastTime = { ms: -1, text: "" };

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
    ...(request.headers === undefined ? {} : { headers: redactSecrets(request.headers, 1) }),
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
 * `service`, the message in `msg` and the line's fields; secrets redacted ({@link redactSecrets}).
 */
export function createLogger(options: LogOptions = {}): Logger {
  const settings: LoggerOptions = {
    level: options.level ?? "info",
    base: { service: "gateway" },
    messageKey: "msg",
    timestamp: isoTime,
    formatters: {
      level: (label) => ({ level: label }),
      log: (fields) => redactSecrets(fields),
    },
    serializers: {
      // a child logger's bindings skip `formatters` (pino applies them to the root's only) but not the
      // serializers: a secret bound to a child is replaced here
      ...Object.fromEntries([...SECRET_FIELDS].map((name) => [name, () => REDACTED])),
      req: requestFields,
      err: pino.stdSerializers.err,
      error: pino.stdSerializers.err,
    },
  };
  return pino(settings, options.destination ?? standardOutput());
}

/** How long a line may wait in the standard output's buffer (the buffer is written sooner when full). */
export const LOG_FLUSH_MS = 500;

/**
 * Standard output, written asynchronously in chunks of at least 4 kB and at least every
 * {@link LOG_FLUSH_MS}: one write per line costs a thread-pool round trip per request (measured with
 * the benchmark's CPU profile: a cached read ran at 2,095 requests/s with a write per line, 3,059
 * with the buffer, 3,077 with no log at all). Whatever is buffered is written at exit (pino's own
 * exit handler) and on a graceful stop (`logger.flush()`).
 */
function standardOutput(): DestinationStream {
  const destination = pino.destination({ sync: false, minLength: 4096 });
  setInterval(() => destination.flush(), LOG_FLUSH_MS).unref();
  return destination;
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
