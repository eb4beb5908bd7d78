import { rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";

import type { FastifyInstance } from "fastify";
import { Redis } from "ioredis";

import { parseDeploymentFile } from "@compute-capacity/sdk";
import type { DeployedChain } from "@compute-capacity/sdk";
import { ManagedAccounts } from "./accounts/managed.js";
import { Sealer } from "./accounts/sealed.js";
import { postgresAccountLock } from "./accounts/signer.js";
import { KeyService } from "./auth/keys.js";
import { BridgeFeeQuoter } from "./chain/bridge-fees.js";
import type { GatewayConfig } from "./config.js";
import { CHAIN_LABELS, ConfigError, urlFileOf } from "./config.js";
import { buildApp } from "./http/app.js";
import { ResponseCache } from "./http/response-cache.js";
import { activity } from "./http/format.js";
import { ChainIndexer } from "./indexer/indexer.js";
import type { IndexerOptions } from "./indexer/indexer.js";
import { openStore } from "./store/db.js";
import type { Store } from "./store/db.js";
import { ReadModel } from "./store/queries.js";
import { VerificationService } from "./verification/service.js";
import { WriteService } from "./writes/operations.js";
import { WebhookSecrets, createWebhooks, webhookSettings } from "./webhooks/index.js";
import { LeaseNotices } from "./webhooks/lease-notices.js";
import { portalSettings } from "./config.js";
import type { PortalConfig } from "./portal/static.js";
import { SessionService } from "./session/sessions.js";
import { KeyUsageCounter } from "./session/usage.js";
import type { Webhooks } from "./webhooks/index.js";

/** A running gateway: the indexers, the store and the HTTP server in one process. */
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
  /** Resolves once every chain is indexed up to its head as of now (minus its depth). */
  synced(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface StartOptions {
  log?: (line: string) => void;
  /** One line per answered request, with its request id (none: not logged). */
  requestLog?: (line: string) => void;
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
  const log = options.log ?? (() => {});
  const chains = await chainsOf(config);
  const primary = chains.find((c) => "ProviderRegistry" in c.contracts);
  if (primary === undefined) throw new ConfigError(`${config.deploymentFile}: no chain has a ProviderRegistry`);

  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const redis = config.redisUrl === undefined ? undefined : new Redis(config.redisUrl, { maxRetriesPerRequest: 1 });
  // ioredis reconnects by itself; an outage fails the requests that need it, not the process
  redis?.on("error", (error: Error) => log(`redis: ${error.message}`));
  const keys = new KeyService(store.db, config.jwtSecret);
  const responseCache = options.responseCache === false ? undefined : new ResponseCache();
  // the master key that seals managed accounts' keys also seals webhook secrets and stored responses
  const sealer = config.accountKey === undefined ? undefined : new Sealer(config.accountKey);
  if (sealer === undefined && config.environment !== "devnet") {
    log("no GATEWAY_ACCOUNT_KEY: webhook secrets and idempotent responses are stored unsealed");
  }
  const settings = webhookSettings(config.environment, config.webhooks);
  const webhooks = createWebhooks(store.db, settings, log, new WebhookSecrets(sealer));
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
          batchBlocks: config.batchBlocks,
          log,
          afterApply: options.afterApply,
          onCommit: () => {
            responseCache?.invalidate();
            leaseNotices.wake();
          },
          sink: webhooks.outbox,
        },
      ),
  );
  const model = new ReadModel(store.db, primary.chainId!);
  const bridgeFees = new BridgeFeeQuoter(chains);
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
  const app = await buildApp({
    model,
    chains,
    chainLabels: CHAIN_LABELS,
    bridgeFees,
    responseCache,
    ...(config.tls === undefined ? {} : { tls: config.tls }),
    trustedProxies: config.trustedProxies ?? [],
    requireHttps: config.requireHttps ?? false,
    keys,
    redis,
    activity: { activity: async (limit) => (await model.latestTrades(limit)).map(activity) },
    log,
    ...(options.requestLog === undefined ? {} : { requestLog: options.requestLog }),
    environment: config.environment,
    health: () => ({ status: "ok", database: store.kind, chains: indexers.map((i) => i.status()) }),
    verification,
    db: store.db,
    ...(sealer === undefined ? {} : { sealer }),
    writes,
    accounts,
    webhooks: webhooks.subscriptions,
    sessions,
    usage,
    primary,
    portal: { distDir: portal.distDir, config: () => portalConfigOf(config.environment, chains, primary, portal) },
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
    async synced(timeoutMs = 60_000) {
      await Promise.all(
        indexers.map(async (indexer) => {
          const head = await indexer.rpc.getBlockNumber();
          await indexer.waitFor(head - indexer.source.confirmations, timeoutMs);
        }),
      );
    },
    async close() {
      if (closed) return;
      closed = true;
      if (url !== "" && store.kind === "pglite") rmSync(urlFileOf(config), { force: true });
      await app.close();
      await usage.close();
      await Promise.all(indexers.map((i) => i.stop()));
      await leaseNotices.stop();
      bridgeFees.close();
      verification.close();
      writes.close();
      await webhooks.close();
      redis?.disconnect();
      await store.close();
    },
  };
}

/** `/portal/config.json`: the deployment as the portal needs it (the primary chain, its contracts, the chains). */
function portalConfigOf(
  environment: string,
  chains: DeployedChain[],
  primary: DeployedChain,
  portal: { walletRpcUrls?: string[] },
): PortalConfig {
  const symbol = primary.chain.toLowerCase().startsWith("polygon") ? "POL" : "ETH";
  return {
    environment,
    chain: {
      name: primary.chain,
      label: CHAIN_LABELS[primary.chain] ?? primary.chain,
      chain_id: primary.chainId!,
      // the devnet's wallets add the local node; elsewhere only what the operator configures
      wallet_rpc_urls: portal.walletRpcUrls ?? (environment === "devnet" && primary.rpcUrl ? [primary.rpcUrl] : []),
      native_currency: { name: symbol === "POL" ? "POL" : "Ether", symbol, decimals: 18 },
      contracts: Object.fromEntries(
        Object.entries(primary.contracts).filter(([name]) => !name.endsWith("Implementation")),
      ),
    },
    chains: chains.map((c) => ({
      name: c.chain,
      label: CHAIN_LABELS[c.chain] ?? c.chain,
      chain_id: c.chainId!,
    })),
  };
}
