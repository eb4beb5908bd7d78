import { createHmac, timingSafeEqual } from "node:crypto";

/** The header that carries the signature (SPEC.md "Authentication" point 5). */
export const SIGNATURE_HEADER = "x-service-signature";
/** The delivery id: the same on every retry of one delivery, for receivers to deduplicate on. */
export const DELIVERY_HEADER = "x-service-delivery";
/** The webhook event's name. */
export const EVENT_HEADER = "x-service-event";

/** Lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the subscription's secret. */
export function signBody(body: string | Buffer, secret: string): string {
  return createHmac("sha256", secret).update(body).digest("hex");
}

/**
 * Whether `header` is the signature of `rawBody` under `secret`, compared in constant time. The
 * comparison runs on the decoded bytes of equal length; a header of another length or not in
 * lowercase hex is refused before any comparison (its length says nothing about the secret).
 */
export function verifySignature(
  rawBody: string | Buffer,
  header: string | string[] | undefined,
  secret: string,
): boolean {
  if (typeof header !== "string" || !/^[0-9a-f]{64}$/.test(header)) return false;
  const expected = createHmac("sha256", secret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(header, "hex"));
}
