// Reading the verifier keys from the configuration, apart from resolving them against the chain
// (keys.ts): the configuration is loaded by every gateway command, which imports nothing of the
// protocol's contracts.
import { readFileSync } from "node:fs";

import { isHexString } from "ethers";

import { ConfigError } from "../config-error.js";

/**
 * The verifier keys this gateway signs attestations with: `GATEWAY_VERIFIER_KEYS` (private keys,
 * comma-separated) or `GATEWAY_VERIFIER_KEYS_FILE` (one per line, `#` comments; keep the file
 * outside the repository, mode 0600). On the devnet, without either, the devnet's own verifier
 * keys, resolved at start by {@link resolveVerifierWallets} (undefined here). Elsewhere, none: the
 * gateway then serves no verification writes. Keys never come from code outside the devnet.
 */
export function loadVerifierKeys(env: NodeJS.ProcessEnv, environment: string): string[] | undefined {
  if (env.GATEWAY_VERIFIER_KEYS) return parseKeys(env.GATEWAY_VERIFIER_KEYS.split(","), "GATEWAY_VERIFIER_KEYS");
  if (env.GATEWAY_VERIFIER_KEYS_FILE) {
    let text: string;
    try {
      text = readFileSync(env.GATEWAY_VERIFIER_KEYS_FILE, "utf8");
    } catch (error) {
      throw new ConfigError(`GATEWAY_VERIFIER_KEYS_FILE: ${(error as Error).message}`);
    }
    const lines = text.split("\n").map((line) => line.replace(/#.*/, ""));
    return parseKeys(lines, "GATEWAY_VERIFIER_KEYS_FILE");
  }
  return environment === "devnet" ? undefined : [];
}

function parseKeys(parts: string[], source: string): string[] {
  const keys = parts.map((p) => p.trim()).filter((p) => p !== "");
  keys.forEach((key, i) => {
    const hex = key.startsWith("0x") ? key : `0x${key}`;
    if (!isHexString(hex, 32)) throw new ConfigError(`${source}: key #${i + 1} is not a 32-byte hex private key`);
    keys[i] = hex;
  });
  return keys;
}
