import { createRequire } from "node:module";

/**
 * The gateway's release: the repository's `package.json` version, the one place it is written. The
 * OpenAPI document's `info.version` is this, so the document names the release that serves it, and
 * docs/api-changelog.md has an entry per release (a test keeps the newest entry and this in step).
 */
export const GATEWAY_VERSION: string = (createRequire(import.meta.url)("../package.json") as { version: string })
  .version;
