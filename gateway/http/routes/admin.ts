import type { FastifyInstance, FastifyRequest } from "fastify";

import type { ManagedAccounts } from "../../accounts/managed.js";
import { KeyInputError } from "../../auth/keys.js";
import type { CreateKeyOptions, KeyService } from "../../auth/keys.js";
import { WebhookCommandError, runWebhookAction } from "../../webhooks/command.js";
import type { WebhookAction, WebhookCommandArgs } from "../../webhooks/command.js";
import type { SubscriptionService } from "../../webhooks/subscriptions.js";
import { ApiError, notFound } from "../../api/errors.js";

export interface AdminRouteOptions {
  keys: KeyService;
  /** Managed accounts (none: `/admin/accounts` is not served). */
  accounts?: ManagedAccounts;
  /** Webhook subscriptions (none: `/admin/webhooks` is not served). */
  webhooks?: SubscriptionService;
}

/**
 * Every `/admin` route: the gateway's own `keys`, `accounts` and `webhooks` commands while a gateway
 * runs (and, for accounts and webhooks, holds the PGlite folder). Hidden from the OpenAPI document;
 * admin tokens only, which only the holder of the signing secret can make. Accounts: addresses
 * only, a signing key never leaves.
 */
export async function adminRoutes(app: FastifyInstance, options: AdminRouteOptions): Promise<void> {
  const { keys, accounts, webhooks } = options;
  const admin = async (request: FastifyRequest) => {
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? "");
    keys.authenticateAdmin(bearer?.[1]);
  };
  const config = { public: true };
  app.post("/admin/keys", { schema: { hide: true }, config, onRequest: admin }, async (request) => {
    try {
      const { token, key } = await keys.create((request.body ?? {}) as CreateKeyOptions);
      return { success: true, data: { token, key } };
    } catch (error) {
      // the command's own words (they name its flag), as when it opens the store itself
      if (error instanceof KeyInputError) {
        throw new ApiError("invalid_parameter", error.message, {
          parameter: error.flag ?? "body",
          reason: error.message,
        });
      }
      throw error;
    }
  });
  app.get("/admin/keys", { schema: { hide: true }, config, onRequest: admin }, async () => ({
    success: true,
    data: { keys: await keys.list() },
  }));
  app.delete("/admin/keys/:keyId", { schema: { hide: true }, config, onRequest: admin }, async (request) => {
    const { keyId } = request.params as { keyId: string };
    if (!(await keys.revoke(keyId))) throw notFound("API key", keyId);
    return { success: true, data: { key_id: keyId, revoked: true } };
  });
  // the accounts and webhooks commands take no Idempotency-Key (the keys command does)
  const commandConfig = { public: true, idempotency: false };
  if (accounts !== undefined) {
    app.post(
      "/admin/accounts",
      { schema: { hide: true }, config: commandConfig, onRequest: admin },
      async (request) => {
        const label = (request.body as { label?: unknown } | undefined)?.label;
        return { success: true, data: await accounts.create(typeof label === "string" ? label : "") };
      },
    );
    app.get("/admin/accounts", { schema: { hide: true }, config: commandConfig, onRequest: admin }, async () => ({
      success: true,
      data: { accounts: await accounts.list() },
    }));
  }
  // the `webhooks` command's actions, on this gateway's subscription service
  if (webhooks !== undefined) {
    app.post(
      "/admin/webhooks",
      { schema: { hide: true }, config: commandConfig, onRequest: admin },
      async (request) => {
        const { action, args } = (request.body ?? {}) as { action?: WebhookAction; args?: WebhookCommandArgs };
        try {
          return { success: true, data: await runWebhookAction(webhooks, action!, args ?? { ids: [] }) };
        } catch (error) {
          // the command's own words, as when it opens the store itself
          if (error instanceof WebhookCommandError) {
            throw new ApiError("invalid_parameter", error.message, {
              parameter: error.flag ?? "command",
              reason: error.message,
            });
          }
          throw error;
        }
      },
    );
  }
}
