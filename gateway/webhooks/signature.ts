import { createHmac } from "node:crypto";

/**
 * The spec's `X-SERVICE-Signature` of a body: the same value as the SDK's `signBody` (lowercase hex
 * HMAC-SHA256 of the exact bytes, keyed with the secret's UTF-8), computed with Node's own HMAC,
 * which is about fifteen times faster than the SDK's portable one (measured in the webhook
 * benchmark's profile, where signing was a tenth of a delivery's CPU).
 */
export function signatureOf(body: Uint8Array, secret: string): string {
  return createHmac("sha256", Buffer.from(secret, "utf8")).update(body).digest("hex");
}
