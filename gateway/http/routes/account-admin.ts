import type { FastifyInstance, FastifyRequest } from "fastify";

import type { ManagedAccounts } from "../../accounts/managed.js";
import type { KeyService } from "../../auth/keys.js";

/**
 * Managed accounts for the gateway's own `accounts` command while a gateway holds the PGlite
 * folder (hidden, admin tokens only, as `/admin/keys`). Addresses only: a signing key never leaves.
 */
export async function accountAdminRoutes(
  app: FastifyInstance,
  options: { keys: KeyService; accounts: ManagedAccounts },
): Promise<void> {
  const { keys, accounts } = options;
  const admin = async (request: FastifyRequest) => {
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? "");
    keys.authenticateAdmin(bearer?.[1]);
  };
  const config = { public: true, idempotency: false };
  app.post("/admin/accounts", { schema: { hide: true }, config, onRequest: admin }, async (request) => {
    const label = (request.body as { label?: unknown } | undefined)?.label;
    return { success: true, data: await accounts.create(typeof label === "string" ? label : "") };
  });
  app.get("/admin/accounts", { schema: { hide: true }, config, onRequest: admin }, async () => ({
    success: true,
    data: { accounts: await accounts.list() },
  }));
}
