/**
 * base64url (RFC 4648 section 5, unpadded) with the platform's `btoa`/`atob`, which Node and
 * browsers both have, so the SDK needs no `Buffer`.
 */

/** Unpadded base64url of `bytes`. */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * The bytes of unpadded base64url `text`, or undefined when it has a character outside the
 * alphabet. As Node's `Buffer.from(text, "base64url")`, which the envelopes were first read with, a
 * last lone character (6 bits, no whole byte) is ignored: a truncated envelope is then too short.
 */
export function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  const whole = text.length % 4 === 1 ? text.slice(0, -1) : text;
  const binary = atob(whole.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
