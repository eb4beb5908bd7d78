import { adminRequest, runningGatewayUrl } from "../auth/admin-client.js";
import { KeyInputError } from "../auth/keys.js";
import type { GatewayConfig } from "../config.js";
import { openStore } from "../store/db.js";
import { ManagedAccounts } from "./managed.js";
import { Sealer, checkSealingKey } from "./sealed.js";

export type AccountRequest = { action: "create"; label?: string } | { action: "list" };

/**
 * `npm run gateway -- accounts create|list`: on the database, or through a running gateway that
 * holds the PGlite folder (as the `keys` command). Prints addresses only.
 */
export async function accountsCommand(config: GatewayConfig, request: AccountRequest): Promise<unknown> {
  if (config.accountKey === undefined) {
    throw new KeyInputError("no account master key: set GATEWAY_ACCOUNT_KEY or GATEWAY_ACCOUNT_KEY_FILE");
  }
  const url = runningGatewayUrl(config);
  if (url !== undefined) {
    if (request.action === "create") {
      return adminRequest(url, config, "POST", "/admin/accounts", { label: request.label ?? "" });
    }
    return adminRequest(url, config, "GET", "/admin/accounts");
  }
  const store = await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    // an account sealed under another key than the gateways' could never sign: the same check as theirs
    await checkSealingKey(store.db, new Sealer(config.accountKey));
    const accounts = new ManagedAccounts(store.db, config.accountKey);
    if (request.action === "create") return await accounts.create(request.label ?? "");
    return { accounts: await accounts.list() };
  } finally {
    await store.close();
  }
}
