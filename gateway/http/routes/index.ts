import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

import type { DeployedChain } from "@compute-capacity/sdk";
import type { ManagedAccounts } from "../../accounts/managed.js";
import type { KeyService } from "../../auth/keys.js";
import type { SessionService } from "../../session/sessions.js";
import type { KeyUsageCounter } from "../../session/usage.js";
import type { Db } from "../../store/db.js";
import type { VerificationService } from "../../verification/service.js";
import type { SubscriptionService } from "../../webhooks/subscriptions.js";
import type { WriteService } from "../../writes/operations.js";
import { accountRoutes } from "./account.js";
import { adminRoutes } from "./admin.js";
import { bridgeRoutes } from "./bridge.js";
import type { BridgeRouteOptions } from "./bridge.js";
import { computeUnitRoutes } from "./cu.js";
import { marketplaceRoutes } from "./marketplace.js";
import { portalRoutes } from "./portal.js";
import type { PortalRouteOptions } from "./portal.js";
import { primaryChain } from "./primary.js";
import { providerRoutes } from "./providers.js";
import { redemptionRoutes } from "./redemptions.js";
import { sessionRoutes } from "./session.js";
import { sstbRoutes } from "./sstb.js";
import { verificationRoutes } from "./verification.js";
import { webhookRoutes } from "./webhooks.js";

/** The API's two path prefixes: every route answers under both (DESIGN.md section 9). */
export const PREFIXES = ["/api/v1", "/v1"] as const;

/** What the routes serve: a part that is absent leaves its routes out. */
export interface ApiRouteOptions extends BridgeRouteOptions {
  keys: KeyService;
  /** `devnet`, `testnet` or `mainnet`, as `/deployment` shows it. */
  environment?: string;
  /** The verifier: verification routes (GET always, the writes with verifier keys). */
  verification?: VerificationService;
  /** The write routes' operations (none: the write routes are not served). */
  writes?: WriteService;
  /** Managed accounts, for the `accounts` command through a running gateway. */
  accounts?: ManagedAccounts;
  /** Webhook subscriptions (routes under both prefixes at `/webhooks`). */
  webhooks?: SubscriptionService;
  /** Portal sessions (SIWE): the session routes. */
  sessions?: SessionService;
  /** Counts each API key's requests (the portal's key list shows them). */
  usage?: KeyUsageCounter;
  /** The store. */
  db?: Db;
  /** The primary chain: the account routes (redemptions of an account, quotes, collateral). */
  primary?: DeployedChain;
  /** The built portal, served at `/portal/`. */
  portal?: PortalRouteOptions;
}

/**
 * Every route of the API under both prefixes, one plugin per resource, each given the services its
 * routes need (an absent service leaves its routes out); the OpenAPI document itself; the portal;
 * the admin routes. The document lists paths and schemas in the order they are registered and
 * loaded: that order is not part of the API (the snapshot test compares the document as a JSON value).
 */
export const apiRoutes = fp(async (app: FastifyInstance, options: ApiRouteOptions) => {
  const { model, chains, chainLabels, bridges, keys, writes, db } = options;
  // the routes that read the primary chain live (redemptions, a provider's collateral) share one connection
  const primary = options.primary !== undefined && db !== undefined ? primaryChain(options.primary) : undefined;
  if (primary !== undefined) app.addHook("onClose", async () => primary.close());
  const account = primary === undefined || db === undefined ? undefined : { db, primary };

  for (const prefix of PREFIXES) {
    await app.register(computeUnitRoutes, { model, prefix });
    await app.register(providerRoutes, { model, primary, prefix });
    await app.register(redemptionRoutes, { model, account, writes, prefix });
    await app.register(sstbRoutes, { model, chains, writes, prefix });
    await app.register(marketplaceRoutes, { model, prefix });
    await app.register(bridgeRoutes, { model, chains, chainLabels, bridges, prefix });
    await app.register(accountRoutes, { chains, chainLabels, environment: options.environment, prefix });
    if (options.verification) await app.register(verificationRoutes, { verification: options.verification, prefix });
    if (options.webhooks) await app.register(webhookRoutes, { subscriptions: options.webhooks, prefix });
    if (options.sessions !== undefined && options.usage !== undefined && db !== undefined) {
      await app.register(sessionRoutes, { sessions: options.sessions, keys, usage: options.usage, db, prefix });
    }
    app.get(`${prefix}/openapi.json`, { schema: { hide: true }, config: { public: true } }, async () => app.swagger());
  }
  if (options.portal !== undefined) await app.register(portalRoutes, options.portal);
  await app.register(adminRoutes, { keys, accounts: options.accounts, webhooks: options.webhooks });
});
