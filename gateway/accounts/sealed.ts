import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

import { eq } from "drizzle-orm";

import { ConfigError } from "../config-error.js";
import type { Db } from "../store/db.js";
import { sealingKeyCheck } from "../store/schema.js";

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

/** What the key check seals: any fixed text; only whether it opens matters. */
const CHECK_TEXT = "compute-capacity gateway: sealing key check";
const CHECK_AAD = "sealing-key-check";

/**
 * Makes sure this gateway's master key is the one the database's sealed data was written with:
 * the first gateway with a key seals a known text into `sealing_key_check`; every later start
 * (this process or another sharing the database) must open it. Without the check, a second
 * instance given another key (or, on the devnet, generating its own) starts and then fails
 * request by request: a stored idempotent response it cannot open answers 500, a webhook secret
 * it cannot open is not signed. Throws a `ConfigError` naming the setting; a gateway with no key
 * on a database that holds sealed data is refused the same way.
 */
export async function checkSealingKey(db: Db, sealer: Sealer | undefined): Promise<void> {
  if (sealer !== undefined) {
    await db
      .insert(sealingKeyCheck)
      .values({
        id: 1,
        sealed: sealer.seal(Buffer.from(CHECK_TEXT), CHECK_AAD),
        createdAt: Math.floor(Date.now() / 1000),
      })
      .onConflictDoNothing();
  }
  const [row] = await db.select().from(sealingKeyCheck).where(eq(sealingKeyCheck.id, 1)).limit(1);
  if (row === undefined) return; // no key and nothing sealed yet
  const since = new Date(row.createdAt * 1000).toISOString();
  if (sealer === undefined) {
    throw new ConfigError(
      `this database holds data sealed under a master key (since ${since}): start this gateway with the same ` +
        "GATEWAY_ACCOUNT_KEY (or GATEWAY_ACCOUNT_KEY_FILE) as the gateways before it",
    );
  }
  let opened: string;
  try {
    opened = sealer.open(row.sealed, CHECK_AAD).toString();
  } catch {
    opened = "";
  }
  if (opened !== CHECK_TEXT) {
    throw new ConfigError(
      `GATEWAY_ACCOUNT_KEY is not the master key this database's sealed data (managed accounts' keys, webhook ` +
        `secrets, stored responses) was written with (since ${since}): every gateway sharing a database needs ` +
        "the same key (on the devnet, the data folder's generated account-key file)",
    );
  }
}
