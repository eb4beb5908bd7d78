import type { FastifyInstance, FastifyRequest } from "fastify";

import type { ManagedAccounts } from "../../accounts/managed.js";
import type { KeyService } from "../../auth/keys.js";
import { WebhookCommandError, runWebhookAction } from "../../webhooks/command.js";
import type { WebhookAction, WebhookCommandArgs } from "../../webhooks/command.js";
import type { SubscriptionService } from "../../webhooks/subscriptions.js";
import { ApiError } from "../../api/errors.js";

/**
 * The gateway's own `accounts` and `webhooks` commands while a gateway holds the PGlite folder
 * (hidden, admin tokens only, as `/admin/keys`). Accounts: addresses only, a signing key never
 * leaves.
 */
export async function accountAdminRoutes(
  app: FastifyInstance,
  options: { keys: KeyService; accounts?: ManagedAccounts; webhooks?: SubscriptionService },
): Promise<void> {
  const { keys, accounts, webhooks } = options;
  const admin = async (request: FastifyRequest) => {
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? "");
    keys.authenticateAdmin(bearer?.[1]);
  };
  const config = { public: true, idempotency: false };
  if (accounts !== undefined) {
    app.post("/admin/accounts", { schema: { hide: true }, config, onRequest: admin }, async (request) => {
      const label = (request.body as { label?: unknown } | undefined)?.label;
      return { success: true, data: await accounts.create(typeof label === "string" ? label : "") };
    });
    app.get("/admin/accounts", { schema: { hide: true }, config, onRequest: admin }, async () => ({
      success: true,
      data: { accounts: await accounts.list() },
    }));
  }
  // the `webhooks` command's actions, on this gateway's subscription service
  if (webhooks !== undefined) {
    app.post("/admin/webhooks", { schema: { hide: true }, config, onRequest: admin }, async (request) => {
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
    });
  }
}
