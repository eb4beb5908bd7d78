import type { GatewayConfig } from "../config.js";
import { ApiError } from "../http/errors.js";
import { adminRequest, runningGatewayUrl } from "../auth/admin-client.js";
import { KeyInputError } from "../auth/keys.js";
import { openStore } from "../store/db.js";
import { webhookSettings } from "./settings.js";
import { SubscriptionService } from "./subscriptions.js";
import type { TimestampFormat } from "./outbox.js";

export const WEBHOOK_ACTIONS = ["create", "list", "delete", "rotate", "deliveries", "redeliver"] as const;
export type WebhookAction = (typeof WEBHOOK_ACTIONS)[number];

export interface WebhookCommandArgs {
  account?: string;
  url?: string;
  /** Comma-separated event names. */
  events?: string;
  timestampFormat?: string;
  ownEventsOnly?: boolean;
  /** Positional: the subscription id, then the delivery id (redeliver). */
  ids: string[];
  status?: string;
  page?: number;
  limit?: number;
}

/** Raised for a bad `webhooks` command; the message says what to fix. */
export class WebhookCommandError extends Error {}

/**
 * `npm run gateway -- webhooks <action>`: the same operations as the `/webhooks` routes, through the
 * same service, for an account given with `--account`. It opens the store itself, or, when a
 * gateway holds the PGlite folder, asks that gateway (its hidden `/admin/webhooks` route, as the
 * `keys` and `accounts` commands do).
 */
export async function webhooksCommand(config: GatewayConfig, action: WebhookAction, args: WebhookCommandArgs) {
  const url = runningGatewayUrl(config);
  if (url !== undefined) {
    try {
      return await adminRequest(url, config, "POST", "/admin/webhooks", { action, args });
    } catch (error) {
      if (error instanceof KeyInputError) throw new WebhookCommandError(error.message);
      throw error;
    }
  }
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const service = new SubscriptionService(store.db, webhookSettings(config.environment, config.webhooks));
    return await runWebhookAction(service, action, args);
  } catch (error) {
    if (error instanceof ApiError) throw new WebhookCommandError(error.message);
    throw error;
  } finally {
    await store.close();
  }
}

/** One `webhooks` action on a subscription service (the command's, or a running gateway's). */
export async function runWebhookAction(service: SubscriptionService, action: WebhookAction, args: WebhookCommandArgs) {
  if (args.account === undefined || !/^0x[0-9a-fA-F]{40}$/.test(args.account)) {
    throw new WebhookCommandError("--account must be the owner's chain address (0x + 40 hex digits)");
  }
  const [id, deliveryId] = args.ids ?? [];
  const need = (value: string | undefined, what: string) => {
    if (value === undefined || value === "") throw new WebhookCommandError(`webhooks ${action} needs ${what}`);
    return value;
  };
  const paging = { page: args.page ?? 1, limit: args.limit ?? 20 };
  switch (action) {
    case "create":
      return service.create(args.account, {
        url: need(args.url, "--url"),
        events: need(args.events, "--events")
          .split(",")
          .map((e) => e.trim()),
        timestamp_format: args.timestampFormat as TimestampFormat | undefined,
        own_events_only: args.ownEventsOnly ?? false,
      });
    case "list":
      return service.list(args.account, paging);
    case "delete":
      return service.remove(args.account, need(id, "a subscription id"));
    case "rotate":
      return service.rotate(args.account, need(id, "a subscription id"));
    case "deliveries":
      return service.deliveries(args.account, need(id, "a subscription id"), { ...paging, status: args.status });
    case "redeliver":
      return service.redeliver(args.account, need(id, "a subscription id"), need(deliveryId, "a delivery id"));
    default:
      throw new WebhookCommandError(`unknown action ${String(action)} (one of ${WEBHOOK_ACTIONS.join(", ")})`);
  }
}
