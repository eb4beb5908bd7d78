import type { IncomingMessage, ServerResponse } from "node:http";
import { verifyWebhook } from "@compute-capacity/sdk";
import type { VerifiedWebhook } from "@compute-capacity/sdk";

/** A webhook as the receiver sees it once its signature checked out. */
export interface ReceivedWebhook extends VerifiedWebhook {
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
 * A `node:http` request handler for webhooks, on the SDK's `verifyWebhook`: reads the raw body,
 * checks `X-SERVICE-Signature` against the secret(s) in constant time and answers 401 on a
 * mismatch (the handler is not called), 400 for a body that is not JSON; otherwise calls `handle`
 * and answers 200 once it resolves (500 if it throws, so the gateway retries). Answer quickly: do
 * slow work after.
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
      const checked = verifyWebhook(rawBody, (name) => request.headers[name], secrets);
      if (!checked.ok) {
        if (checked.status === 401) {
          response.writeHead(401, { "content-type": "application/json" }).end('{"error":"invalid signature"}');
        } else response.writeHead(checked.status).end();
        return;
      }
      const webhook: ReceivedWebhook = { ...checked.webhook, rawBody, request };
      Promise.resolve()
        .then(() => handle(webhook))
        .then(
          () => response.writeHead(200).end(),
          () => response.writeHead(500).end(),
        );
    });
  };
}
