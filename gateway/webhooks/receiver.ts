import type { IncomingMessage, ServerResponse } from "node:http";

import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, verifySignature } from "#sdk";

export { verifySignature } from "#sdk";

/** A webhook as the receiver sees it once its signature checked out. */
export interface ReceivedWebhook {
  /** The payload: `{id, event, timestamp, data}`. */
  payload: { id: string; event: string; timestamp: number | string; data: Record<string, unknown> };
  /** The delivery id (the same on every retry: deduplicate on it). */
  deliveryId: string;
  event: string;
  rawBody: Buffer;
  request: IncomingMessage;
}

export interface ReceiverOptions {
  /** The subscription's secret; several during a rotation (the old and the new one). */
  secrets: string | string[] | (() => string | string[]);
  /** Bodies above this size are refused (413) before being read whole. */
  maxBodyBytes?: number;
}

/**
 * A `node:http` request handler for webhooks: reads the raw body, checks `X-SERVICE-Signature`
 * against the secret(s) in constant time and answers 401 on a mismatch (the handler is not
 * called), 400 for a body that is not JSON; otherwise calls `handle` and answers 200 once it
 * resolves (500 if it throws, so the gateway retries). Answer quickly: do slow work after.
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
      const configured = typeof options.secrets === "function" ? options.secrets() : options.secrets;
      const secrets = Array.isArray(configured) ? configured : [configured];
      const header = request.headers[SIGNATURE_HEADER];
      // every secret is tried (no early exit), so the time does not say which one matched
      const matches = secrets.map((secret) => verifySignature(rawBody, header, secret));
      if (!matches.includes(true)) {
        response.writeHead(401, { "content-type": "application/json" }).end('{"error":"invalid signature"}');
        return;
      }
      let payload: ReceivedWebhook["payload"];
      try {
        payload = JSON.parse(rawBody.toString("utf8"));
      } catch {
        response.writeHead(400).end();
        return;
      }
      const webhook: ReceivedWebhook = {
        payload,
        deliveryId: String(request.headers[DELIVERY_HEADER] ?? ""),
        event: String(request.headers[EVENT_HEADER] ?? payload.event),
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
