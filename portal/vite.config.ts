import { fileURLToPath } from "node:url";

import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));

/** The portal (issue 20): served by the gateway at /portal/, built into portal/dist. */
export default defineConfig({
  root,
  base: "/portal/",
  plugins: [react()],
  // the SDK by its package name from its TypeScript source (tsconfig.sdk.json, which portal/tsconfig.json
  // extends); it carries ABIs and no bytecode, and its package.json says "sideEffects": false
  resolve: { tsconfigPaths: true },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    // the gateway's CSP allows no inline script: keep Vite's module-preload helper in a file
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 700,
  },
  server: {
    port: 5173,
    proxy: { "/api": "http://127.0.0.1:8080", "/portal/config.json": "http://127.0.0.1:8080" },
  },
});
