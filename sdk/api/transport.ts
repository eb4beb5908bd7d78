import { ApiConnectionError } from "./errors.js";

/**
 * The HTTP client's transport, as integrators expect of Stripe's Node library: a `fetch` that
 * retries what is safe to retry, waits as the server asks, times each attempt out, and makes every
 * POST idempotent. The platform's `fetch` underneath (Node and browsers alike).
 *
 * - Retried: a connection failure or a timed-out attempt, 429, and 5xx (500, 502, 503, 504), up
 *   to `maxRetries` more attempts. A 4xx other than 429 is an answer, never retried.
 * - The wait before a retry: the answer's `Retry-After` (seconds or an HTTP date) when it gives
 *   one (at most `maxRetryAfterMs`), else exponential backoff from `initialRetryDelayMs`, doubled
 *   per attempt up to `maxRetryDelayMs`, with jitter (a random point in its upper half) so that
 *   clients refused together do not return together.
 * - Every POST carries an `Idempotency-Key`: the caller's, or a random UUID made once and sent
 *   again with each retry of that request, so a retried write runs once (the gateway answers a
 *   repeat with the first answer).
 * - Each attempt has `timeoutMs`; the caller's own `signal` cancels the whole request, unretried.
 */

/** How the client retries and times out (every field optional: Stripe's defaults, roughly). */
export interface RetryOptions {
  /** Attempts after the first (default 2; 0 turns retries off). */
  maxRetries?: number;
  /** Milliseconds an attempt may take before it is abandoned and, if retries remain, retried (default 30 000). */
  timeoutMs?: number;
  /** The first backoff, in milliseconds (default 500). */
  initialRetryDelayMs?: number;
  /** The longest backoff, in milliseconds (default 8 000). */
  maxRetryDelayMs?: number;
  /** The longest wait a `Retry-After` may ask for; a longer one is not waited for and the answer is returned (default 60 000). */
  maxRetryAfterMs?: number;
}

export const IDEMPOTENCY_KEY_HEADER = "idempotency-key";

const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);

/** Milliseconds a `Retry-After` header asks for (delta seconds or an HTTP date), or undefined. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(header.trim())) return Math.ceil(Number(header) * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The backoff before retry `attempt` (1 for the first retry): exponential, capped, jittered into its upper half. */
export function backoffMs(attempt: number, initialMs: number, maxMs: number, random = Math.random): number {
  const ceiling = Math.min(maxMs, initialMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** A random UUID v4 (WebCrypto: Node 19+ and every browser). */
function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

function sleep(ms: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * A `fetch` with the retries, timeouts and idempotency keys above, over `base` (default: the
 * platform's). What `createApiClient` gives openapi-fetch.
 *
 * @example
 * const fetchWithRetries = createRetryingFetch({ maxRetries: 3, timeoutMs: 10_000 });
 */
export function createRetryingFetch(
  options: RetryOptions = {},
  base: (request: Request) => Promise<Response> = (request) => globalThis.fetch(request),
): (request: Request) => Promise<Response> {
  const maxRetries = options.maxRetries ?? 2;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const initialMs = options.initialRetryDelayMs ?? 500;
  const maxDelayMs = options.maxRetryDelayMs ?? 8_000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;

  return async (input: Request): Promise<Response> => {
    // the body read once into memory, so that every attempt sends it as bytes: a copy of a request's
    // stream would be sent as a stream, which browsers' tools and test harnesses cannot show
    const body = input.body === null ? null : await input.clone().arrayBuffer();
    let template = input;
    if (input.method === "POST" && !input.headers.has(IDEMPOTENCY_KEY_HEADER)) {
      const headers = new Headers(input.headers);
      headers.set(IDEMPOTENCY_KEY_HEADER, newIdempotencyKey());
      template = new Request(input, { headers });
    }
    const callerSignal = input.signal;
    for (let attempt = 0; ; attempt++) {
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
      const onCallerAbort = () => timeout.abort(callerSignal.reason);
      callerSignal.addEventListener("abort", onCallerAbort, { once: true });
      let response: Response | undefined;
      let failure: unknown;
      try {
        // a fresh request per attempt (a request's body can be read once), its body the bytes read above
        response = await base(new Request(template, { body, signal: timeout.signal }));
      } catch (error) {
        failure = error;
      } finally {
        clearTimeout(timer);
        callerSignal.removeEventListener("abort", onCallerAbort);
      }
      if (callerSignal.aborted) throw callerSignal.reason;
      const retriesLeft = attempt < maxRetries;
      if (response === undefined) {
        if (!retriesLeft) {
          throw new ApiConnectionError(input.url, {
            timedOut: timeout.signal.aborted,
            attempts: attempt + 1,
            cause: failure,
          });
        }
        await sleep(backoffMs(attempt + 1, initialMs, maxDelayMs), callerSignal);
        continue;
      }
      if (!RETRIED_STATUSES.has(response.status) || !retriesLeft) return response;
      const asked = retryAfterMs(response.headers.get("retry-after"));
      if (asked !== undefined && asked > maxRetryAfterMs) return response;
      // the answer is not used: free its connection before waiting
      await response.body?.cancel().catch(() => {});
      await sleep(asked ?? backoffMs(attempt + 1, initialMs, maxDelayMs), callerSignal);
    }
  };
}
