import { defineConfig, mergeConfig } from "vitest/config";

import viteConfig from "./vite.config";

/**
 * The portal's unit tier (issue 27): components and hooks rendered in jsdom with Testing Library,
 * the gateway's HTTP API and the chain's JSON-RPC answered by MSW (src/testing/), no devnet and no
 * browser. `npm run test:portal:unit`; part of `npm test`.
 */
export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      environment: "jsdom",
      environmentOptions: { jsdom: { url: "http://portal.test/portal/" } },
      include: ["src/**/*.test.{ts,tsx}"],
      setupFiles: ["src/testing/setup.ts"],
      restoreMocks: true,
      // one jsdom per worker, not one per file: creating them was 40% of the run (setup.ts clears what a
      // file leaves in it; docs/decisions/0121-unit-tier-under-30-seconds.md)
      isolate: false,
      testTimeout: 15_000,
    },
  }),
);
