import { readFileSync } from "node:fs";

import { urlFileOf } from "../config.js";
import type { GatewayConfig } from "../config.js";

import { folderLockOwner } from "../store/db.js";
import { KeyInputError, KeyService } from "./keys.js";

/**
 * The URL of another process's gateway that holds this configuration's PGlite folder (PGlite
 * admits one process per folder), or undefined when the command may open the store itself.
 */
export function runningGatewayUrl(config: GatewayConfig): string | undefined {
  const owner = config.databaseUrl === undefined ? folderLockOwner(config.dataDir) : undefined;
  if (owner === undefined || owner === process.pid) return undefined;
  try {
    return readFileSync(urlFileOf(config), "utf8").trim();
  } catch {
    throw new KeyInputError(
      `process ${owner} holds the data folder ${config.dataDir} but left no gateway.url: stop it, or use its HTTP API`,
    );
  }
}

/**
 * A call to a running gateway's hidden `/admin/...` routes, authorized by a one-minute admin
 * token signed with the gateway's JWT secret; answers the `data`, or throws the gateway's error
 * message as a {@link KeyInputError}.
 */
export async function adminRequest(
  url: string,
  config: GatewayConfig,
  method: "GET" | "POST" | "DELETE",
  route: string,
  body?: unknown,
): Promise<unknown> {
  const token = new KeyService(undefined as never, config.jwtSecret).adminToken();
  const response = await fetch(`${url}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await response.json()) as {
    success: boolean;
    data?: unknown;
    error?: { message: string; details?: { parameter?: unknown } };
  };
  if (!answer.success) {
    const parameter = answer.error?.details?.parameter;
    throw new KeyInputError(
      answer.error?.message ?? `gateway answered ${response.status}`,
      typeof parameter === "string" && parameter !== "body" && parameter !== "command" ? parameter : undefined,
    );
  }
  return answer.data;
}
