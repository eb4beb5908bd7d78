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
// in this order: the schemas these modules name are listed in the document in the order they load
import { accountRoutes } from "./account.js";
import { accountAdminRoutes } from "./account-admin.js";
import { adminRoutes } from "./admin.js";
import { readRoutes } from "./read.js";
import { computeUnitRoutes } from "./cu.js";
import { providerRoutes } from "./providers.js";
import { redemptionRoutes } from "./redemptions.js";
import { sstbRoutes } from "./sstb.js";
import { primaryChain } from "./primary.js";
import type { ReadRouteOptions } from "./read.js";
import { verificationRoutes } from "./verification.js";
import { webhookRoutes } from "./webhooks.js";
import { portalRoutes } from "./portal.js";
import type { PortalRouteOptions } from "./portal.js";
import { sessionRoutes } from "./session.js";

/** The API's two path prefixes: every route answers under both (DESIGN.md section 9). */
export const PREFIXES = ["/api/v1", "/v1"] as const;

/** What the routes serve: a part that is absent leaves its routes out. */
export interface ApiRouteOptions extends ReadRouteOptions {
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
 * Every route of the API under both prefixes (in this order: the OpenAPI document lists them so),
 * the OpenAPI document itself, the portal, and the admin routes.
 */
export const apiRoutes = fp(async (app: FastifyInstance, options: ApiRouteOptions) => {
  // the routes that read the primary chain live share one connection to it
  const primary = options.primary !== undefined && options.db !== undefined ? primaryChain(options.primary) : undefined;
  if (primary !== undefined) app.addHook("onClose", async () => primary.close());
  for (const prefix of PREFIXES) {
    await app.register(readRoutes, { ...options, prefix });
    await app.register(computeUnitRoutes, { model: options.model, prefix });
    await app.register(providerRoutes, { model: options.model, ...(primary === undefined ? {} : { primary }), prefix });
    await app.register(redemptionRoutes, {
      model: options.model,
      ...(primary === undefined || options.db === undefined ? {} : { account: { db: options.db, primary } }),
      ...(options.writes === undefined ? {} : { writes: options.writes }),
      prefix,
    });
    await app.register(sstbRoutes, {
      model: options.model,
      chains: options.chains,
      ...(options.writes === undefined ? {} : { writes: options.writes }),
      prefix,
    });
    await app.register(accountRoutes, {
      chains: options.chains,
      chainLabels: options.chainLabels,
      ...(options.environment === undefined ? {} : { environment: options.environment }),
      prefix,
    });
    if (options.verification) await app.register(verificationRoutes, { verification: options.verification, prefix });
    if (options.webhooks) await app.register(webhookRoutes, { subscriptions: options.webhooks, prefix });
    if (options.sessions !== undefined && options.usage !== undefined && options.db !== undefined) {
      const { sessions, usage, db } = options;
      await app.register(sessionRoutes, { sessions, keys: options.keys, usage, db, prefix });
    }
    app.get(`${prefix}/openapi.json`, { schema: { hide: true }, config: { public: true } }, async () => app.swagger());
  }
  if (options.portal !== undefined) await app.register(portalRoutes, options.portal);
  await app.register(adminRoutes, { keys: options.keys });
  await app.register(accountAdminRoutes, {
    keys: options.keys,
    accounts: options.accounts,
    webhooks: options.webhooks,
  });
});
