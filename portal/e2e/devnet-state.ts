import { readFileSync } from "node:fs";
import path from "node:path";

/** Where the browser tests keep what they share (git-ignored). */
export const RESULTS_DIR = path.resolve(import.meta.dirname, ".results");
export const STATE_FILE = path.join(RESULTS_DIR, "devnet.json");
/** Lines appended by the tests: axe results and timings, for docs/portal/metrics.md. */
export const AXE_FILE = path.join(RESULTS_DIR, "axe.jsonl");
export const METRICS_FILE = path.join(RESULTS_DIR, "metrics.json");
/** Screenshots of each page, committed and shown in docs/portal.md. */
export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "..", "..", "docs", "portal");
/**
 * Whether this run writes the portal's record in the docs (the screenshots and `docs/portal/metrics.md`):
 * `npm run docs:portal` does; a test run checks the same pages (axe, no sideways scroll at both widths)
 * and leaves the committed record alone.
 */
export const WRITE_DOCS = process.env.PORTAL_WRITE_DOCS === "1";

/** The devnet the global setup started. */
export interface DevnetState {
  pid: number;
  gatewayUrl: string;
  portalUrl: string;
  /** The arbitrum node (the test wallet forwards to it). */
  rpcUrl: string;
  startSeconds: number;
  printed: string;
}

export function devnetState(): DevnetState {
  return JSON.parse(readFileSync(STATE_FILE, "utf8")) as DevnetState;
}
