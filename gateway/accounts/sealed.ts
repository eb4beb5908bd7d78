import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/** Format tag of a sealed secret: `v1.` + base64url(12-byte IV, 16-byte GCM tag, ciphertext). */
const VERSION = "v1.";

/**
 * AES-256-GCM under a 32-byte master key. The associated data (the account's address) binds a
 * sealed key to its row: a sealed value copied onto another account's row does not open.
 */
export class Sealer {
  private readonly key: Buffer;

  constructor(masterKeyHex: string) {
    this.key = Buffer.from(masterKeyHex, "hex");
    if (this.key.length !== 32) throw new Error("the account master key must be 32 bytes");
  }

  seal(secret: Uint8Array, associatedData: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    cipher.setAAD(Buffer.from(associatedData, "utf8"));
    const body = Buffer.concat([cipher.update(secret), cipher.final()]);
    return VERSION + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
  }

  open(sealed: string, associatedData: string): Buffer {
    if (!sealed.startsWith(VERSION)) throw new Error("unknown sealed-key format");
    const raw = Buffer.from(sealed.slice(VERSION.length), "base64url");
    const decipher = createDecipheriv("aes-256-gcm", this.key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(associatedData, "utf8"));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]);
  }
}
