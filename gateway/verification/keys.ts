import { readFileSync } from "node:fs";

import { Wallet, isHexString } from "ethers";

import { sampleVerifierKeys } from "#sdk";
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

/** Wallets of the keys, one per signer (a key given twice signs once). */
export function verifierWallets(keys: readonly string[]): Wallet[] {
  const byAddress = new Map(keys.map((key) => new Wallet(key)).map((w) => [w.address, w]));
  return [...byAddress.values()];
}

/**
 * The wallets a gateway signs with. Configured keys must all be verifiers (or the start fails).
 * Without configuration on the devnet: the devnet's own verifier keys that the deployment's set
 * lists (none when the deployment was made with other keys, or the chain does not answer yet:
 * the gateway then only shows verifications, and says so).
 */
export async function resolveVerifierWallets(
  configured: readonly string[] | undefined,
  environment: string,
  isVerifier: (address: string) => Promise<boolean>,
  log: (line: string) => void,
): Promise<Wallet[]> {
  if (configured !== undefined) {
    const wallets = verifierWallets(configured);
    await assertVerifierKeys(wallets, isVerifier);
    return wallets;
  }
  if (environment !== "devnet") return [];
  const devnet = sampleVerifierKeys("devnet-verifier");
  const listed = await Promise.all(devnet.map((w) => isVerifier(w.address))).catch((error: Error) => {
    log(`verification: cannot read the verifier set (${error.message}); verification writes off`);
    return devnet.map(() => false);
  });
  const wallets = devnet.filter((_, i) => listed[i]);
  if (wallets.length === 0) log("verification: the deployment lists none of the devnet's verifier keys; writes off");
  return wallets;
}

/**
 * Refuses to start with a key that the deployment's AttestationVerifier does not list: its
 * signatures would only make every proof revert.
 */
export async function assertVerifierKeys(
  wallets: readonly Wallet[],
  isVerifier: (address: string) => Promise<boolean>,
): Promise<void> {
  const unknown: string[] = [];
  for (const w of wallets) if (!(await isVerifier(w.address))) unknown.push(w.address);
  if (unknown.length > 0) {
    throw new ConfigError(
      `verifier key(s) ${unknown.join(", ")} not in the AttestationVerifier's verifier set: ` +
        "fix GATEWAY_VERIFIER_KEYS / GATEWAY_VERIFIER_KEYS_FILE or have governance add them",
    );
  }
}
