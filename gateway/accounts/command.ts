import { readFileSync } from "node:fs";
import path from "node:path";

import { KeyInputError, KeyService } from "../auth/keys.js";
import type { GatewayConfig } from "../config.js";
import { folderLockOwner, openStore } from "../store/db.js";
import { ManagedAccounts } from "./managed.js";

export type AccountRequest = { action: "create"; label?: string } | { action: "list" };

/**
 * `npm run gateway -- accounts create|list`: on the database, or through a running gateway that
 * holds the PGlite folder (as the `keys` command). Prints addresses only.
 */
export async function accountsCommand(config: GatewayConfig, request: AccountRequest): Promise<unknown> {
  if (config.accountKey === undefined) {
    throw new KeyInputError("no account master key: set GATEWAY_ACCOUNT_KEY or GATEWAY_ACCOUNT_KEY_FILE");
  }
  const owner = config.databaseUrl === undefined ? folderLockOwner(config.dataDir) : undefined;
  if (owner !== undefined && owner !== process.pid) {
    const url = readFileSync(path.join(config.dataDir, "gateway.url"), "utf8").trim();
    const keys = new KeyService(undefined as never, config.jwtSecret);
    const headers = { authorization: `Bearer ${keys.adminToken()}`, "content-type": "application/json" };
    const response =
      request.action === "create"
        ? await fetch(`${url}/admin/accounts`, {
            method: "POST",
            headers,
            body: JSON.stringify({ label: request.label ?? "" }),
          })
        : await fetch(`${url}/admin/accounts`, { headers });
    const body = (await response.json()) as { success: boolean; data?: unknown; error?: { message: string } };
    if (!body.success) throw new KeyInputError(body.error?.message ?? `gateway answered ${response.status}`);
    return body.data;
  }
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const accounts = new ManagedAccounts(store.db, config.accountKey);
    if (request.action === "create") return await accounts.create(request.label ?? "");
    return { accounts: await accounts.list() };
  } finally {
    await store.close();
  }
}
