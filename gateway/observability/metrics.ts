import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

import { lagOf } from "./health.js";

/** What a chain's indexer reports to the metrics (its `status()` has these fields). */
export interface IndexerReading {
  chain: string;
  head: number | null;
  indexedBlock: number | null;
  /** The confirmation depth: the lag counts from the head less this. */
  confirmations: number;
  /** Reorganizations the indexer has rolled back since it started. */
  reorgs: number;
  /** Failed calls to the chain's node since it started. */
  rpcErrors: number;
  /** Unix milliseconds of the last step that reached the node and the database, or null. */
  lastProgressAt: number | null;
}

/** The outbox as the metrics show it. */
export interface OutboxReading {
  /** Deliveries waiting to be sent (`pending`, leased or not). */
  pending: number;
  /** Unix milliseconds the oldest of them was queued at, or null. */
  oldestQueuedAt: number | null;
}

/** The database connections (PostgreSQL's pool; PGlite is one connection). */
export interface PoolReading {
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}

/** Where the gauges read their values, at every scrape. */
export interface MetricSources {
  indexers(): IndexerReading[];
  outbox(): Promise<OutboxReading>;
  pool(): PoolReading;
  cache?(): { hits: number; misses: number };
}

/** How a delivery attempt ended, as the worker tells the metrics. */
export type DeliveryOutcome = "delivered" | "retry" | "failed" | "cancelled";

/** The port the webhook workers report their attempts through. */
export interface DeliveryMetrics {
  attempt(channel: string, outcome: DeliveryOutcome, failure: string | null, seconds: number): void;
}

/** What a failed attempt is counted as: the HTTP status class, a timeout, a refused target, ... */
export function failureReason(attempt: {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}): string | null {
  if (attempt.ok) return null;
  if (attempt.statusCode !== null && attempt.statusCode > 0) return `http_${Math.floor(attempt.statusCode / 100)}xx`;
  const error = attempt.error ?? "";
  if (error.startsWith("timeout")) return "timeout";
  if (error.startsWith("refused target")) return "refused_target";
  if (error === "subscription deleted") return "subscription_deleted";
  if (error === "SMTP is not configured") return "smtp_not_configured";
  return "network";
}

const SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The gateway's Prometheus metrics, in a registry of its own (two gateways in one process keep
 * theirs apart): the HTTP requests by route and status with their latency, rate-limit refusals,
 * each chain's indexer (head, indexed block, lag, reorgs, RPC errors), the webhook outbox (depth,
 * age of the oldest pending delivery) and the attempts by outcome and failure, the database pool,
 * the response cache, and Node's process metrics (CPU, memory, event-loop lag).
 */
export class GatewayMetrics implements DeliveryMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<"method" | "route" | "status_code">;
  private readonly latency: Histogram<"method" | "route" | "status_code">;
  /** Request series bound to their labels, by method, status and route (a bounded set: routes are patterns). */
  private readonly requestSeries = new Map<
    string,
    { count: { inc(): void }; latency: { observe(value: number): void } }
  >();
  private readonly refusals: Counter<"route">;
  private readonly attempts: Counter<"channel" | "outcome">;
  private readonly failures: Counter<"channel" | "reason">;
  private readonly attemptLatency: Histogram<"channel">;
  private sources: MetricSources | undefined;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: "gateway_http_requests_total",
      help: "HTTP requests answered, by method, route (its pattern) and status code",
      labelNames: ["method", "route", "status_code"],
      registers,
    });
    this.latency = new Histogram({
      name: "gateway_http_request_duration_seconds",
      help: "Time from a request's arrival to its answer, by method, route and status code",
      labelNames: ["method", "route", "status_code"],
      buckets: SECONDS_BUCKETS,
      registers,
    });
    this.refusals = new Counter({
      name: "gateway_rate_limit_refusals_total",
      help: "Requests refused by the rate limit (429), by route",
      labelNames: ["route"],
      registers,
    });
    this.attempts = new Counter({
      name: "gateway_webhook_attempts_total",
      help: "Delivery attempts (webhooks and e-mail), by channel and outcome: delivered, retry (failed, tried again later), failed (gave up), cancelled",
      labelNames: ["channel", "outcome"],
      registers,
    });
    this.failures = new Counter({
      name: "gateway_webhook_attempt_failures_total",
      help: "Failed delivery attempts by channel and reason: http_4xx, http_5xx, http_3xx, timeout, network, refused_target, ...",
      labelNames: ["channel", "reason"],
      registers,
    });
    this.attemptLatency = new Histogram({
      name: "gateway_webhook_attempt_duration_seconds",
      help: "Time a delivery attempt took, by channel",
      labelNames: ["channel"],
      buckets: SECONDS_BUCKETS,
      registers,
    });
    const metrics = this;
    const chainGauge = (name: string, help: string, read: (r: IndexerReading) => number | null) =>
      new Gauge({
        name,
        help,
        labelNames: ["chain"],
        registers,
        collect() {
          this.reset();
          for (const reading of metrics.sources?.indexers() ?? []) {
            const value = read(reading);
            if (value !== null) this.set({ chain: reading.chain }, value);
          }
        },
      });
    const chainCounter = (name: string, help: string, read: (r: IndexerReading) => number) =>
      new Counter({
        name,
        help,
        labelNames: ["chain"],
        registers,
        collect() {
          this.reset();
          for (const reading of metrics.sources?.indexers() ?? []) this.inc({ chain: reading.chain }, read(reading));
        },
      });
    chainGauge("gateway_indexer_head_block", "The chain's head as the indexer last read it", (r) => r.head);
    chainGauge("gateway_indexer_indexed_block", "The last block indexed", (r) => r.indexedBlock);
    chainGauge(
      "gateway_indexer_lag_blocks",
      "Blocks between the indexable head (the head less the confirmation depth) and the last indexed block",
      (r) => lagOf(r),
    );
    chainGauge(
      "gateway_indexer_seconds_since_progress",
      "Seconds since the indexer last reached the node and the database",
      (r) => (r.lastProgressAt === null ? null : (Date.now() - r.lastProgressAt) / 1000),
    );
    chainCounter("gateway_indexer_reorgs_total", "Reorganizations rolled back", (r) => r.reorgs);
    chainCounter("gateway_rpc_errors_total", "Failed calls of the indexer to the chain's node", (r) => r.rpcErrors);
    new Gauge({
      name: "gateway_webhook_outbox_pending",
      help: "Deliveries waiting to be sent (webhooks and e-mail)",
      registers,
      async collect() {
        if (metrics.sources === undefined) return;
        this.set((await metrics.sources.outbox()).pending);
      },
    });
    new Gauge({
      name: "gateway_webhook_outbox_oldest_pending_age_seconds",
      help: "Age of the oldest delivery still waiting to be sent (0: none waits)",
      registers,
      async collect() {
        if (metrics.sources === undefined) return;
        const { oldestQueuedAt } = await metrics.sources.outbox();
        this.set(oldestQueuedAt === null ? 0 : Math.max(0, (Date.now() - oldestQueuedAt) / 1000));
      },
    });
    new Gauge({
      name: "gateway_db_pool_connections",
      help: "Database connections by state (total, idle) and queries waiting for one (waiting)",
      labelNames: ["state"],
      registers,
      collect() {
        if (metrics.sources === undefined) return;
        const pool = metrics.sources.pool();
        this.set({ state: "total" }, pool.total);
        this.set({ state: "idle" }, pool.idle);
        this.set({ state: "waiting" }, pool.waiting);
      },
    });
    for (const which of ["hits", "misses"] as const) {
      new Counter({
        name: `gateway_response_cache_${which}_total`,
        help: `Read-route answers ${which === "hits" ? "served from" : "not found in"} the response cache`,
        registers,
        collect() {
          const cache = metrics.sources?.cache?.();
          if (cache === undefined) return;
          this.reset();
          this.inc(cache[which]);
        },
      });
    }
  }

  /** Where the gauges read from (the running gateway's parts). */
  observe(sources: MetricSources): void {
    this.sources = sources;
  }

  /** Counts an answered request (`route`: its pattern, or `(unmatched)`). */
  request(method: string, route: string, status: number, seconds: number): void {
    // the series of one method, route and status, bound once: prom-client hashes a label object at
    // every call otherwise (about 5 us a request, from the benchmark's CPU profile)
    const key = `${method} ${status} ${route}`;
    let series = this.requestSeries.get(key);
    if (series === undefined) {
      const labels = { method, route, status_code: String(status) };
      series = { count: this.requests.labels(labels), latency: this.latency.labels(labels) };
      this.requestSeries.set(key, series);
    }
    series.count.inc();
    series.latency.observe(seconds);
    if (status === 429) this.refusals.inc({ route });
  }

  attempt(channel: string, outcome: DeliveryOutcome, failure: string | null, seconds: number): void {
    this.attempts.inc({ channel, outcome });
    if (failure !== null) this.failures.inc({ channel, reason: failure });
    this.attemptLatency.observe({ channel }, seconds);
  }

  /** The text exposition format, and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
