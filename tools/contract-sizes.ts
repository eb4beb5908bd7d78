import { isNamedContractDeploymentFuture } from "@nomicfoundation/ignition-core";
import type { IgnitionModule } from "@nomicfoundation/ignition-core";

import DevnetCCIPModule from "../deploy/modules/DevnetCCIP.js";
import MockCollateralModule from "../deploy/modules/MockCollateral.js";
import PrimaryModule from "../deploy/modules/Primary.js";
import SatelliteModule from "../deploy/modules/Satellite.js";

/** EIP-170: the most bytes of code a contract may have on Ethereum and the chains that follow it. */
export const EIP170_LIMIT = 24_576;
/** The headroom every deployed contract keeps under EIP-170 (issue 23): room for the next fix. */
export const REQUIRED_HEADROOM = 2_048;
/** The largest deployed contract `npm run bench:gas` accepts: 22,528 bytes. */
export const SIZE_LIMIT = EIP170_LIMIT - REQUIRED_HEADROOM;

/** One deployed contract's runtime code size. */
export interface ContractSize {
  contract: string;
  bytes: number;
  /** `EIP170_LIMIT - bytes`. */
  headroom: number;
  /** Deployed by the local chains' modules only (stand-ins for the real chains' router and USDC). */
  localOnly: boolean;
}

/** Thrown by {checkContractSizes}: names every contract over the limit and its size. */
export class ContractSizeError extends Error {
  override name = "ContractSizeError";
}

/** The contract names a module deploys, its submodules' included (proxies, implementations, plain contracts). */
export function deployedContractNames(module: IgnitionModule): Set<string> {
  const names = new Set<string>();
  const visit = (m: IgnitionModule) => {
    for (const future of m.futures) if (isNamedContractDeploymentFuture(future)) names.add(future.contractName);
    for (const sub of m.submodules) visit(sub);
  };
  visit(module);
  return names;
}

/**
 * Every contract the deployment modules deploy: the primary chain's and the satellites' (what goes
 * on a real chain), and the local chains' stand-ins (the devnet CCIP router, the mock USDC).
 */
export function deployedContracts(): Array<{ contract: string; localOnly: boolean }> {
  const real = new Set([...deployedContractNames(PrimaryModule), ...deployedContractNames(SatelliteModule)]);
  const local = new Set(
    [...deployedContractNames(DevnetCCIPModule), ...deployedContractNames(MockCollateralModule)].filter(
      (name) => !real.has(name),
    ),
  );
  return [
    ...[...real].map((contract) => ({ contract, localOnly: false })),
    ...[...local].map((contract) => ({ contract, localOnly: true })),
  ].sort((a, b) => a.contract.localeCompare(b.contract));
}

/** The runtime code size of each contract, from its compiled artifact's deployed bytecode. */
export async function contractSizes(
  contracts: ReadonlyArray<{ contract: string; localOnly: boolean }>,
  readArtifact: (name: string) => Promise<{ deployedBytecode: string }>,
): Promise<ContractSize[]> {
  const sizes: ContractSize[] = [];
  for (const { contract, localOnly } of contracts) {
    const { deployedBytecode } = await readArtifact(contract);
    const bytes = (deployedBytecode.length - 2) / 2;
    sizes.push({ contract, bytes, headroom: EIP170_LIMIT - bytes, localOnly });
  }
  return sizes;
}

/** Refuses any contract over `limit` bytes (default {SIZE_LIMIT}), naming each. */
export function checkContractSizes(sizes: readonly ContractSize[], limit = SIZE_LIMIT): void {
  const over = sizes.filter((s) => s.bytes > limit);
  if (over.length === 0) return;
  const list = over.map((s) => `${s.contract} (${s.bytes.toLocaleString("en-US")} bytes)`).join(", ");
  throw new ContractSizeError(
    `over ${limit.toLocaleString("en-US")} bytes (EIP-170's ${EIP170_LIMIT.toLocaleString("en-US")} less ` +
      `${REQUIRED_HEADROOM.toLocaleString("en-US")} of headroom): ${list}`,
  );
}

/** The size table of docs/gas-report.md, largest first. */
export function renderContractSizes(sizes: readonly ContractSize[]): string[] {
  const n = (x: number) => x.toLocaleString("en-US");
  return [
    "## Contract sizes",
    "",
    `Runtime code of every contract the deployment modules deploy, against EIP-170's ${n(EIP170_LIMIT)} bytes.`,
    `\`npm run bench:gas\` fails on any above ${n(SIZE_LIMIT)} bytes (${n(REQUIRED_HEADROOM)} of headroom kept`,
    "for the next fix or feature; issue 23).",
    "",
    "| contract | bytes | headroom to 24,576 | |",
    "| --- | ---: | ---: | --- |",
    ...[...sizes]
      .sort((a, b) => b.bytes - a.bytes || a.contract.localeCompare(b.contract))
      .map((s) => `| ${s.contract} | ${n(s.bytes)} | ${n(s.headroom)} | ${s.localOnly ? "local chains only" : ""} |`),
    "",
  ];
}
