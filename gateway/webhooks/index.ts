import type { Db } from "../store/db.js";
import type { Log } from "../observability/log.js";
import type { DeliveryMetrics } from "../observability/metrics.js";
import { Mailer } from "./email.js";
import { Outbox } from "./outbox.js";
import type { WebhookSettings } from "./settings.js";
import { WebhookSecrets } from "./secrets.js";
import { SubscriptionService } from "./subscriptions.js";
import { DeliveryWorkers } from "./worker.js";

export { TEST_EVENT, WEBHOOK_EVENTS } from "./event-names.js";
export type { WebhookEventName } from "./event-names.js";
export type { WebhookEvent } from "./events.js";
export { webhookSettings, webhookSettingsFromEnv } from "./settings.js";
export type { WebhookSettings } from "./settings.js";
export { WebhookSecrets } from "./secrets.js";

/** The webhook side of a gateway: the outbox the indexer writes to, the subscriptions, the workers. */
export interface Webhooks {
  settings: WebhookSettings;
  /** The indexer's sink, and `publish(tx, event)` for off-chain events (verification.completed). */
  outbox: Outbox;
  subscriptions: SubscriptionService;
  workers: DeliveryWorkers;
  /** Stops the workers (attempts in flight finish; after `abortAfterMs` they are aborted) and releases what they claimed. */
  close(abortAfterMs?: number): Promise<void>;
}

/** Builds the webhook side; the workers start with `workers.start()` (startGateway does it). */
export function createWebhooks(
  db: Db,
  settings: WebhookSettings,
  log: Log,
  secrets = new WebhookSecrets(),
  metrics?: DeliveryMetrics,
): Webhooks {
  const email = settings.smtpUrl !== undefined && settings.smtpFrom !== undefined;
  const mailer = email ? new Mailer(settings.smtpUrl!, settings.smtpFrom!, settings.timeoutMs) : undefined;
  const workers = new DeliveryWorkers(db, settings, mailer, log.child({ component: "webhooks" }), secrets, metrics);
  return {
    settings,
    outbox: new Outbox({ retryWindowMs: settings.retryWindowMs, email }, () => workers.wake()),
    subscriptions: new SubscriptionService(db, settings, secrets, () => workers.wake()),
    workers,
    async close(abortAfterMs?: number) {
      await workers.close(abortAfterMs);
      mailer?.close();
    },
  };
}
