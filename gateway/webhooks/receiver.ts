import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  WEBHOOK_ID_HEADER,
  WebhookVerificationError,
  constructEvent,
} from "@compute-capacity/sdk";
import type { WebhookEvent } from "@compute-capacity/sdk";

/** A webhook as the receiver sees it once its signatures and timestamp checked out. */
export interface ReceivedWebhook {
  /** The typed event (the body), told apart by `event`. */
  payload: WebhookEvent;
  /** The event's name. */
  event: WebhookEvent["event"];
  /** The delivery id (`webhook-id`, the same on every retry: deduplicate on it). */
  deliveryId: string;
  rawBody: Buffer;
  request: IncomingMessage;
}

export interface ReceiverOptions {
  /** The subscription's secret; both the old and the new one during a rotation window. */
  secrets: string | string[] | (() => string | string[]);
  /** Bodies above this size are refused (413) before being read whole. */
  maxBodyBytes?: number;
  /**
   * Seconds a delivery's `webhook-timestamp` may be from this receiver's clock (default 300, five
   * minutes): an older one is refused (401), so a captured delivery cannot be replayed later.
   */
  tolerance?: number | (() => number);
  /** This receiver's clock, Unix seconds (tests). */
  now?: () => number;
}

/**
 * A `node:http` request handler for webhooks, on the SDK's `constructEvent`: reads the raw body,
 * checks the Standard Webhooks signature and its timestamp (within `tolerance`) and
 * `X-SERVICE-Signature` against the secret(s), and answers 401 when they do not check out (the
 * handler is not called; the gateway retries), 400 for a body that is not an event; otherwise calls
 * `handle` with the typed event and answers 200 once it resolves (500 if it throws, so the gateway
 * retries). Answer quickly: do slow work after.
 *
 * @example
 * http.createServer(webhookHandler({ secrets: [process.env.WEBHOOK_SECRET!], tolerance: 300 }, async ({ payload }) => {
 *   if (payload.event === "redemption.fulfilled") await notify(payload.data.redemption_id);
 * })).listen(8443);
 */
export function webhookHandler(
  options: ReceiverOptions,
  handle: (webhook: ReceivedWebhook) => void | Promise<void>,
): (request: IncomingMessage, response: ServerResponse) => void {
  const limit = options.maxBodyBytes ?? 1024 * 1024;
  return (request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit && !refused) {
        refused = true;
        response.writeHead(413).end();
        request.destroy();
      } else if (!refused) chunks.push(chunk);
    });
    request.on("end", () => {
      if (refused) return;
      const rawBody = Buffer.concat(chunks);
      const secrets = typeof options.secrets === "function" ? options.secrets() : options.secrets;
      const tolerance =
        typeof options.tolerance === "function"
          ? options.tolerance()
          : (options.tolerance ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS);
      let payload: WebhookEvent;
      try {
        payload = constructEvent(rawBody, request.headers, secrets, {
          tolerance,
          ...(options.now === undefined ? {} : { now: options.now() }),
        });
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        response
          .writeHead(error.status, { "content-type": "application/json" })
          .end(JSON.stringify({ error: error.reason }));
        return;
      }
      const webhook: ReceivedWebhook = {
        payload,
        event: payload.event,
        deliveryId: single(request.headers, WEBHOOK_ID_HEADER),
        rawBody,
        request,
      };
      Promise.resolve()
        .then(() => handle(webhook))
        .then(
          () => response.writeHead(200).end(),
          () => response.writeHead(500).end(),
        );
    });
  };
}

function single(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  return Array.isArray(value) ? (value[0] ?? "") : (value ?? "");
}
