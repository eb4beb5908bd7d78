import type { FastifyInstance, FastifyRequest } from "fastify";

import { KeyInputError } from "../../auth/keys.js";
import type { CreateKeyOptions, KeyService } from "../../auth/keys.js";
import { ApiError, notFound } from "../../api/errors.js";

/**
 * Key management for the gateway's own `keys` command while a gateway runs (hidden from the
 * OpenAPI document; admin tokens only, which only the holder of the signing secret can make).
 */
export async function adminRoutes(app: FastifyInstance, options: { keys: KeyService }): Promise<void> {
  const { keys } = options;
  const admin = async (request: FastifyRequest) => {
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? "");
    keys.authenticateAdmin(bearer?.[1]);
  };
  const config = { public: true };
  app.post("/admin/keys", { schema: { hide: true }, config, onRequest: admin }, async (request) => {
    try {
      const { token, key } = await keys.create((request.body ?? {}) as CreateKeyOptions);
      return { success: true, data: { token, key } };
    } catch (error) {
      // the command's own words (they name its flag), as when it opens the store itself
      if (error instanceof KeyInputError) {
        throw new ApiError("invalid_parameter", error.message, {
          parameter: error.flag ?? "body",
          reason: error.message,
        });
      }
      throw error;
    }
  });
  app.get("/admin/keys", { schema: { hide: true }, config, onRequest: admin }, async () => ({
    success: true,
    data: { keys: await keys.list() },
  }));
  app.delete("/admin/keys/:keyId", { schema: { hide: true }, config, onRequest: admin }, async (request) => {
    const { keyId } = request.params as { keyId: string };
    if (!(await keys.revoke(keyId))) throw notFound("API key", keyId);
    return { success: true, data: { key_id: keyId, revoked: true } };
  });
}
