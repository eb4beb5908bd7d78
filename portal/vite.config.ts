import { fileURLToPath } from "node:url";

import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import type { Plugin } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));

/**
 * The browser never deploys a contract: TypeChain's factories (which the SDK's contract handles and
 * error decoder use for their ABIs) keep their ABI and lose the creation bytecode in the portal's
 * bundle. Node (the gateway, the tests) keeps the factories as generated. Without this the bundle
 * carries every protocol contract's bytecode (about 100 kB gzipped).
 */
function typechainAbiOnly(): Plugin {
  return {
    name: "typechain-abi-only",
    transform(code, id) {
      if (!/typechain-types[\\/]factories[\\/]/.test(id) || !code.includes("const _bytecode")) return null;
      return { code: code.replace(/const _bytecode =\s*"0x[0-9a-fA-F]*";/, 'const _bytecode = "0x";'), map: null };
    },
  };
}

/** The portal (issue 20): served by the gateway at /portal/, built into portal/dist. */
export default defineConfig({
  root,
  base: "/portal/",
  plugins: [react(), typechainAbiOnly()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    // the gateway's CSP allows no inline script: keep Vite's module-preload helper in a file
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 700,
    rollupOptions: {
      // the SDK (and the TypeChain output it reads ABIs from) has no module side effects (STYLE-WEB.md
      // "SDK" 5, `sideEffects: false`): what a page does not call stays out of its chunk
      treeshake: { moduleSideEffects: (id: string) => !/[\\/](sdk|typechain-types)[\\/]/.test(id) },
    },
  },
  server: {
    port: 5173,
    proxy: { "/api": "http://127.0.0.1:8080", "/portal/config.json": "http://127.0.0.1:8080" },
  },
});
