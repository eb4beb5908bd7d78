import { rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";

import type { FastifyInstance } from "fastify";
import { Redis } from "ioredis";

import { parseDeploymentFile } from "@compute-capacity/sdk";
import type { DeployedChain, PortalChain, PortalConfig } from "@compute-capacity/sdk";
import { ManagedAccounts } from "./accounts/managed.js";
import { Sealer, checkSealingKey } from "./accounts/sealed.js";
import { postgresAccountLock } from "./accounts/signer.js";
import { KeyService } from "./auth/keys.js";
import { BridgeReader } from "./chain/bridge-reader.js";
import type { GatewayConfig } from "./config.js";
import {
  CHAIN_LABELS,
  ConfigError,
  DEFAULT_READY_MAX_LAG_BLOCKS,
  DEFAULT_READY_STALE_SECONDS,
  urlFileOf,
} from "./config.js";
import { buildApp } from "./http/app.js";
import { ResponseCache } from "./http/response-cache.js";
import { activity } from "./api/format.js";
import { ChainIndexer } from "./indexer/indexer.js";
import type { IndexerOptions, StepInFlight } from "./indexer/indexer.js";
import { openStore, pendingMigrations, ping } from "./store/db.js";
import type { Store } from "./store/db.js";
import type { PendingOperation } from "./store/pglite-activity.js";
import { ReadModel } from "./store/queries.js";
import { VerificationService } from "./verification/service.js";
import { WriteService } from "./writes/operations.js";
import { WebhookSecrets, createWebhooks, webhookSettings } from "./webhooks/index.js";
import { LeaseNotices } from "./webhooks/lease-notices.js";
import { portalSettings } from "./config.js";
import { SessionService } from "./session/sessions.js";
import { KeyUsageCounter } from "./session/usage.js";
import type { Webhooks } from "./webhooks/index.js";
import { pendingDeliveries } from "./webhooks/outbox.js";
import { lineLogger, silentLog } from "./observability/log.js";
import type { Logger } from "./observability/log.js";
import { GatewayMetrics } from "./observability/metrics.js";
import { Readiness } from "./observability/health.js";
import { RequestsInFlight } from "./observability/in-flight.js";
import type { OpenRequest } from "./observability/in-flight.js";

/** A running gateway: the indexers, the store and the HTTP server in one process. */
/** What a gateway process is waiting for (logged when a shutdown's bound runs out). */
export interface WorkInFlight {
  /** The oldest HTTP requests not yet answered. */
  requests: OpenRequest[];
  /** Each indexer's step in progress and its calls to the node not yet answered. */
  indexers: StepInFlight[];
  /** PGlite only: the operations on its one connection, the running one first. */
  database?: PendingOperation[];
}

export interface Gateway {
  url: string;
  app: FastifyInstance;
  store: Store;
  keys: KeyService;
  verification: VerificationService;
  /** Portal sessions (SIWE). */
  sessions: SessionService;
  /** Accounts whose signing keys the gateway holds (sealed). */
  accounts: ManagedAccounts;
  indexers: ChainIndexer[];
  chains: DeployedChain[];
  webhooks: Webhooks;
  /** The time-based lease webhooks (`redemption.lease_expiring`, `.lease_ended`); runs with the indexers. */
  leaseNotices: LeaseNotices;
  /** The Prometheus metrics `/metrics` serves. */
  metrics: GatewayMetrics;
  /** What `/readyz` answers. */
  readiness: Readiness;
  logger: Logger;
  /** What this process is waiting for: the oldest requests, each indexer's step, PGlite's operations. */
  inFlight(): WorkInFlight;
  /** Resolves once every chain is indexed up to its head as of now (minus its depth). */
  synced(timeoutMs?: number): Promise<void>;
  /**
   * A graceful stop (SIGTERM): not ready at once (`/readyz` 503), still serving for `delayMs` (the
   * load balancer's time to notice), then no new connections while the requests in flight finish,
   * the webhook workers finish their attempts in flight and release what they claimed, and the
   * indexers end their batch; attempts still running when `timeoutMs` is near are aborted (and
   * released). Then everything is closed.
   */
  shutdown(options?: { delayMs?: number; timeoutMs?: number }): Promise<void>;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Where the gateway logs: JSON lines (none: `log`'s lines, or nothing). */
  logger?: Logger;
  /** Each line's message to a function (the devnet's console, a test), when there is no `logger`. */
  log?: (line: string) => void;
  /** Index only, or serve only (both by default). */
  index?: boolean;
  listen?: boolean;
  afterApply?: IndexerOptions["afterApply"];
  /** Keep answers of the read routes until the indexer commits (default true; the benchmark measures both). */
  responseCache?: boolean;
  /** Run the webhook delivery workers (default true). */
  deliver?: boolean;
}

/** The chains of the deployment file with where to reach them; refuses a chain it cannot reach. */
export async function chainsOf(config: GatewayConfig): Promise<DeployedChain[]> {
  let chains: DeployedChain[];
  try {
    chains = parseDeploymentFile(await readFile(config.deploymentFile, "utf8"));
  } catch (error) {
    throw new ConfigError(
      `cannot read the deployment file ${config.deploymentFile} (${(error as Error).message}); deploy first ` +
        "(npm start for the devnet) or pass --deployment",
    );
  }
  return chains.map((c) => {
    const rpcUrl = config.rpcUrls[c.chain] ?? c.rpcUrl;
    if (rpcUrl === undefined) {
      throw new ConfigError(
        `no RPC URL for ${c.chain}: set ${c.chain.replace(/([A-Z])/g, "_$1").toUpperCase()}_RPC_URL`,
      );
    }
    if (c.chainId === undefined) throw new ConfigError(`${config.deploymentFile}: ${c.chain} has no chainId`);
    return { ...c, rpcUrl };
  });
}

/** Opens the store, starts one indexer per chain and the HTTP server. */
export async function startGateway(config: GatewayConfig, options: StartOptions = {}): Promise<Gateway> {
  const logger = options.logger ?? (options.log === undefined ? silentLog : lineLogger(options.log));
  const log = (line: string) => logger.warn(line);
  // the configuration as read, its secrets redacted by the logger (keys, tokens, URLs with passwords)
  logger.info({ config }, `gateway starting (${config.environment})`);
  const chains = await chainsOf(config);
  const primary = chains.find((c) => "ProviderRegistry" in c.contracts);
  if (primary === undefined) throw new ConfigError(`${config.deploymentFile}: no chain has a ProviderRegistry`);

  const store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    ...(config.pgliteTemplates === undefined ? {} : { pgliteTemplates: config.pgliteTemplates }),
    ...(config.migrate === undefined ? {} : { migrate: config.migrate }),
    ...(config.dbPoolSize === undefined ? {} : { poolSize: config.dbPoolSize }),
    ...(config.dbReadConnections === undefined ? {} : { readConnections: config.dbReadConnections }),
  });
  const redis = config.redisUrl === undefined ? undefined : new Redis(config.redisUrl, { maxRetriesPerRequest: 1 });
  // ioredis reconnects by itself; an outage fails the requests that need it, not the process
  redis?.on("error", (error: Error) => logger.warn({ component: "redis", err: error }, `redis: ${error.message}`));
  const keys = new KeyService(store.db, config.jwtSecret);
  const responseCache = options.responseCache === false ? undefined : new ResponseCache();
  // the master key that seals managed accounts' keys also seals webhook secrets and stored responses
  const sealer = config.accountKey === undefined ? undefined : new Sealer(config.accountKey);
  if (sealer === undefined && config.environment !== "devnet") {
    logger.warn("no GATEWAY_ACCOUNT_KEY: webhook secrets and idempotent responses are stored unsealed");
  }
  // the key must open what the database already holds sealed (several instances share one key): a
  // wrong key refuses the start; on a database whose migrations are still pending (a gateway started
  // with migrations off) the check waits for them, and /readyz says why until it has passed
  let sealingKeyChecked = false;
  const sealingKeyProblem = async (): Promise<string | undefined> => {
    if (sealingKeyChecked) return undefined;
    try {
      await checkSealingKey(store.db, sealer);
      sealingKeyChecked = true;
      return undefined;
    } catch (error) {
      if (error instanceof ConfigError) return error.message;
      throw error;
    }
  };
  try {
    if ((await pendingMigrations(store.db)).length === 0) {
      const problem = await sealingKeyProblem();
      if (problem !== undefined) throw new ConfigError(problem);
    }
  } catch (error) {
    redis?.disconnect();
    await store.close();
    throw error;
  }
  const settings = webhookSettings(config.environment, config.webhooks);
  const metrics = new GatewayMetrics();
  const webhooks = createWebhooks(store.db, settings, logger, new WebhookSecrets(sealer), metrics);
  const leaseNotices = new LeaseNotices(
    store.db,
    webhooks.outbox,
    primary.chainId!,
    { leadSeconds: settings.leaseExpiringLeadSeconds, intervalMs: settings.leaseNoticeIntervalMs },
    log,
  );
  const indexers = chains.map(
    (c) =>
      new ChainIndexer(
        store.db,
        {
          chain: c.chain,
          chainId: c.chainId!,
          rpcUrl: c.rpcUrl!,
          contracts: c.contracts,
          confirmations: config.confirmations[c.chain] ?? config.defaultConfirmations,
          startBlock: 0,
        },
        {
          pollIntervalMs: config.pollIntervalMs,
          ...(config.rpcTimeoutMs === undefined ? {} : { rpcTimeoutMs: config.rpcTimeoutMs }),
          batchBlocks: config.batchBlocks,
          log: logger.child({ component: "indexer", chain: c.chain }),
          afterApply: options.afterApply,
          onCommit: () => {
            responseCache?.invalidate();
            leaseNotices.wake();
          },
          sink: webhooks.outbox,
        },
      ),
  );
  const model = new ReadModel(store.db, primary.chainId!, store.reads);
  const bridges = new BridgeReader(
    chains,
    config.rpcTimeoutMs === undefined ? {} : { rpcTimeoutMs: config.rpcTimeoutMs },
  );
  const verification = await VerificationService.start(store.db, primary, {
    keys: config.verifierKeys,
    environment: config.environment,
    ttlSeconds: config.verificationTtlSeconds,
    log,
    publish: (tx, event) => webhooks.outbox.publish(tx, event),
  }).catch(async (error: unknown) => {
    redis?.disconnect();
    await store.close();
    throw error;
  });
  const accounts = new ManagedAccounts(store.db, config.accountKey);
  const writes = new WriteService({
    db: store.db,
    model,
    primary,
    signers: accounts,
    pollIntervalMs: config.pollIntervalMs,
    // gateways sharing a PostgreSQL database take turns per managed account
    ...(store.kind === "postgres" ? { accountLock: postgresAccountLock(store.db) } : {}),
    // with depth 0 (the devnet) a write's block is indexed within a poll: answer after it, so the
    // read routes show the write at once; deeper chains would hold the answer for the whole depth
    ...(options.index === false || (config.confirmations[primary.chain] ?? config.defaultConfirmations) > 0
      ? {}
      : {
          indexed: (block: number) => indexers.find((i) => i.source.chainId === primary.chainId)!.waitFor(block, 5_000),
        }),
  });
  const portal = config.portal ?? portalSettings({}, process.cwd());
  const sessions = new SessionService(store.db, {
    ...(portal.origin === undefined ? {} : { origin: portal.origin }),
    chainId: primary.chainId!,
    sessionTtlSeconds: portal.sessionTtlSeconds,
    nonceTtlSeconds: 300,
    secureCookie: config.requireHttps ?? config.environment !== "devnet",
  });
  const usage = new KeyUsageCounter(store.db);
  const readiness = new Readiness(
    {
      ping: () => ping(store.db),
      pendingMigrations: () => pendingMigrations(store.db),
      indexers: () => (options.index === false ? [] : indexers.map((i) => i.status())),
      sealingKey: sealingKeyProblem,
    },
    {
      maxLagBlocks: config.readyMaxLagBlocks ?? {},
      defaultMaxLagBlocks: config.defaultReadyMaxLagBlocks ?? DEFAULT_READY_MAX_LAG_BLOCKS,
      staleMs: (config.readyStaleSeconds ?? DEFAULT_READY_STALE_SECONDS) * 1000,
      timeoutMs: 2_000,
    },
  );
  metrics.observe({
    indexers: () => indexers.map((i) => i.status()),
    outbox: () => pendingDeliveries(store.db),
    pool: () => store.pool(),
    ...(responseCache === undefined
      ? {}
      : { cache: () => ({ hits: responseCache.hits, misses: responseCache.misses }) }),
  });
  const app = await buildApp({
    model,
    chains,
    chainLabels: CHAIN_LABELS,
    bridges,
    responseCache,
    ...(config.tls === undefined ? {} : { tls: config.tls }),
    trustedProxies: config.trustedProxies ?? [],
    requireHttps: config.requireHttps ?? false,
    keys,
    redis,
    activity: { activity: async (limit) => (await model.latestTrades(limit)).map(activity) },
    logger,
    metrics,
    ...(config.metricsToken === undefined ? {} : { metricsToken: config.metricsToken }),
    readiness,
    environment: config.environment,
    health: () => ({
      status: readiness.draining ? "shutting down" : "ok",
      database: store.kind,
      chains: indexers.map((i) => i.status()),
    }),
    verification,
    db: store.db,
    instance: store.instance,
    ...(sealer === undefined ? {} : { sealer }),
    writes,
    accounts,
    webhooks: webhooks.subscriptions,
    sessions,
    usage,
    primary,
    portal: { distDir: portal.distDir, config: () => portalConfigOf(config.environment, chains, primary, portal) },
  });

  const requestsInFlight = new RequestsInFlight().watch(app.server);
  const inFlight = (): WorkInFlight => ({
    requests: requestsInFlight.oldest(),
    indexers: indexers.map((i) => i.inFlight()),
    // on PGlite, what its one connection is busy with (the rest queue behind it)
    ...(store.pending === undefined ? {} : { database: store.pending() }),
  });

  if (options.index !== false) {
    for (const indexer of indexers) indexer.start();
    leaseNotices.start();
  }
  if (options.deliver !== false) webhooks.workers.start();
  let url = "";
  if (options.listen !== false) {
    url = await app.listen({ host: config.host, port: config.port });
    url = url.replace("[::1]", "localhost");
    // the devnet's portal is the gateway's own pages: its origin is the URL the gateway listens on
    if (sessions.settings.origin === undefined && config.environment === "devnet") sessions.settings.origin = url;
    // the commands (keys, accounts, webhooks) of another process reach a gateway that holds the
    // PGlite folder through this file (PGlite admits one process per folder)
    if (store.kind === "pglite") writeFileSync(urlFileOf(config), url);
  }
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    if (url !== "" && store.kind === "pglite") rmSync(urlFileOf(config), { force: true });
    requestsInFlight.drain();
    const step = async (what: string, work: () => unknown) => {
      const started = Date.now();
      await work();
      logger.debug({ ms: Date.now() - started }, `closed: ${what}`);
    };
    await step("HTTP server", () => app.close());
    await step("key usage counts", () => usage.close());
    await step("indexers", () => Promise.all(indexers.map((i) => i.stop())));
    await step("lease notices", () => leaseNotices.stop());
    bridges.close();
    verification.close();
    writes.close();
    await step("webhook workers", () => webhooks.close());
    redis?.disconnect();
    await step("store", () => store.close());
  };
  return {
    url,
    app,
    store,
    keys,
    verification,
    sessions,
    accounts,
    indexers,
    chains,
    webhooks,
    leaseNotices,
    metrics,
    readiness,
    logger,
    inFlight,
    async synced(timeoutMs = 60_000) {
      await Promise.all(
        indexers.map(async (indexer) => {
          const head = await indexer.rpc.getBlockNumber();
          await indexer.waitFor(head - indexer.source.confirmations, timeoutMs);
        }),
      );
    },
    async shutdown({ delayMs = 0, timeoutMs = 30_000 } = {}) {
      if (closed) return;
      const started = Date.now();
      readiness.drain();
      requestsInFlight.drain();
      logger.info({ delayMs, timeoutMs }, "shutting down: not ready; still serving for the load balancer's delay");
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      // what is left of the bound, less a margin for closing the store
      const left = () => Math.max(0, timeoutMs - (Date.now() - started) - 1_000);
      // the work, or its bound: a part that runs out of time is logged with what the process waits for
      // (only then: the timer of a part that finished is cleared, or it would warn while another part runs)
      const bounded = async (work: Promise<unknown>, what: string) => {
        let timer: NodeJS.Timeout | undefined;
        const outOfTime = new Promise<void>((resolve) => {
          timer = setTimeout(() => {
            logger.warn(inFlight(), `shutdown: ${what} did not finish in time`);
            resolve();
          }, left());
        });
        try {
          await Promise.race([work, outOfTime]);
        } finally {
          clearTimeout(timer);
        }
      };
      logger.info("shutting down: no new connections; finishing the requests, deliveries and batches in flight");
      await Promise.all([
        bounded(app.close(), "the requests in flight"),
        // attempts still running near the bound are aborted and released (due again at once)
        webhooks.close(Math.max(0, left() - 1_000)),
        bounded(Promise.all(indexers.map((i) => i.stop())), "the indexers' batches"),
        leaseNotices.stop(),
      ]);
      await close();
      logger.info({ ms: Date.now() - started }, "stopped");
    },
    close,
  };
}

/** `/portal/config.json`: the deployment as the portal needs it (the primary chain first, every chain's contracts). */
function portalConfigOf(
  environment: string,
  chains: DeployedChain[],
  primary: DeployedChain,
  portal: { walletRpcUrls?: string[] },
): PortalConfig {
  const portalChain = (c: DeployedChain): PortalChain => {
    const symbol = c.chain.toLowerCase().startsWith("polygon") ? "POL" : "ETH";
    return {
      name: c.chain,
      label: CHAIN_LABELS[c.chain] ?? c.chain,
      chain_id: c.chainId!,
      // the devnet's wallets add the local nodes; elsewhere only what the operator configures (for the primary)
      wallet_rpc_urls:
        c === primary && portal.walletRpcUrls !== undefined
          ? portal.walletRpcUrls
          : environment === "devnet" && c.rpcUrl
            ? [c.rpcUrl]
            : [],
      native_currency: { name: symbol === "POL" ? "POL" : "Ether", symbol, decimals: 18 },
      contracts: Object.fromEntries(Object.entries(c.contracts).filter(([name]) => !name.endsWith("Implementation"))),
    };
  };
  return {
    environment,
    chain: portalChain(primary),
    chains: [primary, ...chains.filter((c) => c !== primary)].map(portalChain),
  };
}
