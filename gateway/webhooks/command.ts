import type { GatewayConfig } from "../config.js";
import { ApiError } from "../http/errors.js";
import { adminRequest, runningGatewayUrl } from "../auth/admin-client.js";
import { KeyInputError } from "../auth/keys.js";
import { openStore } from "../store/db.js";
import { webhookSettings } from "./settings.js";
import { SubscriptionService } from "./subscriptions.js";
import type { TimestampFormat } from "./body.js";

export const WEBHOOK_ACTIONS = ["create", "list", "delete", "rotate", "test", "deliveries", "redeliver"] as const;
export type WebhookAction = (typeof WEBHOOK_ACTIONS)[number];

export interface WebhookCommandArgs {
  account?: string;
  url?: string;
  /** Comma-separated event names. */
  events?: string;
  timestampFormat?: string;
  ownEventsOnly?: boolean;
  /** `rotate`: seconds the replaced secret stays valid (0 to 86400; none: it stops at once). */
  window?: number;
  /** Positional: the subscription id, then the delivery id (redeliver). */
  ids: string[];
  status?: string;
  page?: number;
  limit?: number;
}

/** Raised for a bad `webhooks` command; the message says what to fix. */
export class WebhookCommandError extends Error {
  /** What is missing or wrong on the command line (`account`, `url`, `SUBSCRIPTION_ID`), when that is the fault. */
  constructor(
    message: string,
    readonly flag?: string,
  ) {
    super(message);
  }
}

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
      if (error instanceof KeyInputError) throw new WebhookCommandError(error.message, error.flag);
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
    throw new WebhookCommandError("--account must be the owner's chain address (0x + 40 hex digits)", "account");
  }
  const [id, deliveryId] = args.ids ?? [];
  const need = (value: string | undefined, what: string, flag: string) => {
    if (value === undefined || value === "") throw new WebhookCommandError(`webhooks ${action} needs ${what}`, flag);
    return value;
  };
  const paging = { page: args.page ?? 1, limit: args.limit ?? 20 };
  switch (action) {
    case "create":
      return service.create(args.account, {
        url: need(args.url, "--url", "url"),
        events: need(args.events, "--events", "events")
          .split(",")
          .map((e) => e.trim()),
        timestamp_format: args.timestampFormat as TimestampFormat | undefined,
        own_events_only: args.ownEventsOnly ?? false,
      });
    case "list":
      return service.list(args.account, paging);
    case "delete":
      return service.remove(args.account, need(id, "a SUBSCRIPTION_ID", "SUBSCRIPTION_ID"));
    case "rotate":
      return service.rotate(args.account, need(id, "a SUBSCRIPTION_ID", "SUBSCRIPTION_ID"), args.window ?? 0);
    case "test":
      return service.sendTest(args.account, need(id, "a SUBSCRIPTION_ID", "SUBSCRIPTION_ID"));
    case "deliveries":
      return service.deliveries(args.account, need(id, "a SUBSCRIPTION_ID", "SUBSCRIPTION_ID"), {
        ...paging,
        status: args.status,
      });
    case "redeliver":
      return service.redeliver(
        args.account,
        need(id, "a SUBSCRIPTION_ID", "SUBSCRIPTION_ID"),
        need(deliveryId, "a DELIVERY_ID", "DELIVERY_ID"),
      );
    default:
      throw new WebhookCommandError(
        `unknown action ${String(action)} (one of ${WEBHOOK_ACTIONS.join(", ")})`,
        "action",
      );
  }
}
