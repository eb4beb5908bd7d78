import type { GatewayConfig } from "../config.js";
import { ApiError } from "../http/errors.js";
import { folderLockOwner, openStore } from "../store/db.js";
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
 * same service, for an account given with `--account`. It opens the store itself: on PostgreSQL
 * beside running gateways; on PGlite only while no gateway holds the folder (otherwise use the
 * HTTP routes with the account's API key).
 */
export async function webhooksCommand(config: GatewayConfig, action: WebhookAction, args: WebhookCommandArgs) {
  if (args.account === undefined || !/^0x[0-9a-fA-F]{40}$/.test(args.account)) {
    throw new WebhookCommandError("--account must be the owner's chain address (0x + 40 hex digits)");
  }
  const owner = config.databaseUrl === undefined ? folderLockOwner(config.dataDir) : undefined;
  if (owner !== undefined && owner !== process.pid) {
    throw new WebhookCommandError(
      `a gateway (process ${owner}) holds the data folder ${config.dataDir}: use its /api/v1/webhooks routes with ` +
        "the account's API key, or stop it first",
    );
  }
  const [id, deliveryId] = args.ids;
  const need = (value: string | undefined, what: string) => {
    if (value === undefined || value === "") throw new WebhookCommandError(`webhooks ${action} needs ${what}`);
    return value;
  };
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const service = new SubscriptionService(store.db, webhookSettings(config.environment, config.webhooks));
    const paging = { page: args.page ?? 1, limit: args.limit ?? 20 };
    switch (action) {
      case "create":
        return await service.create(args.account, {
          url: need(args.url, "--url"),
          events: need(args.events, "--events")
            .split(",")
            .map((e) => e.trim()),
          timestamp_format: args.timestampFormat as TimestampFormat | undefined,
          own_events_only: args.ownEventsOnly ?? false,
        });
      case "list":
        return await service.list(args.account, paging);
      case "delete":
        return await service.remove(args.account, need(id, "a subscription id"));
      case "rotate":
        return await service.rotate(args.account, need(id, "a subscription id"));
      case "deliveries":
        return await service.deliveries(args.account, need(id, "a subscription id"), {
          ...paging,
          status: args.status,
        });
      case "redeliver":
        return await service.redeliver(args.account, need(id, "a subscription id"), need(deliveryId, "a delivery id"));
    }
  } catch (error) {
    if (error instanceof ApiError) throw new WebhookCommandError(error.message);
    throw error;
  } finally {
    await store.close();
  }
}
