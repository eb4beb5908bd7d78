import type { AppOptions } from "./app.js";
import { buildApp } from "./app.js";

/**
 * The gateway's OpenAPI 3.1 document without a chain, a database or a key store: the app is built
 * with every part that registers routes (read, verification, write and webhook routes) and nothing
 * behind them, which is enough for Fastify to describe the routes; no handler runs. The SDK's typed
 * client (`sdk/api/openapi.ts`) is generated from it (`npm run sdk:openapi`). The routes do not change
 * while a process runs, so the document is built once per process (building it starts an app: about a third
 * of a second) and each caller gets a copy of its own.
 */
export async function openApiDocument(): Promise<Record<string, unknown>> {
  built ??= buildOpenApiDocument().catch((error: unknown) => {
    built = undefined; // a failed build is not kept: the next caller tries again
    throw error;
  });
  return structuredClone(await built);
}

let built: Promise<Record<string, unknown>> | undefined;

async function buildOpenApiDocument(): Promise<Record<string, unknown>> {
  const absent = {} as never; // registers the routes; never called while only the document is read
  const options: AppOptions = {
    keys: absent,
    activity: absent,
    model: absent,
    chains: [],
    chainLabels: {},
    bridges: absent,
    health: () => ({}),
    // as a gateway with verifier keys: the verification writes are documented too
    verification: { signs: true } as never,
    writes: absent,
    webhooks: absent,
    sessions: absent,
    usage: absent,
    db: absent,
    primary: { chain: "arbitrum", chainId: 42161, rpcUrl: "http://127.0.0.1:1", contracts: {} },
  };
  const app = await buildApp(options);
  try {
    await app.ready();
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
  }
}
