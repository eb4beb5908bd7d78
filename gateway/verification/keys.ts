import { Wallet, keccak256, toUtf8Bytes } from "ethers";

import { ConfigError } from "../config-error.js";

export { loadVerifierKeys } from "./key-config.js";

/**
 * `count` deterministic verifier keys derived from `label` (keccak256 of `<label>-<i>`), for local
 * chains only: the devnet's verifier set is `sampleVerifierKeys("devnet-verifier")`, which the
 * devnet deploys and the gateway signs with on the devnet. Well-known like Hardhat's test
 * accounts, so never a key of a real chain. (Not in the SDK: only the devnet, its gateway and the
 * tests use them.)
 */
export function sampleVerifierKeys(label: string, count = 3): Wallet[] {
  return Array.from({ length: count }, (_, i) => new Wallet(keccak256(toUtf8Bytes(`${label}-${i + 1}`))));
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
