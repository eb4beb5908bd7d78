import { getAddress } from "ethers";

import type { BuildReader, BuiltArtifact } from "./build.js";
import type { ChainContext } from "./context.js";
import type { Checks } from "./report.js";

/** ERC-1967's implementation slot. */
export const IMPLEMENTATION_SLOT = "0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc";
/** OpenZeppelin `Initializable`'s ERC-7201 slot: `uint64 _initialized` in the low bytes, then `bool _initializing`. */
export const INITIALIZABLE_SLOT = "0xf0c57e16840df040f15088dc2f81fe391c3923bec73e23a9662efc9c229c6a00";
/** The version `_disableInitializers` locks an implementation at. */
export const LOCKED_VERSION = 2n ** 64n - 1n;

/** How on-chain runtime code compares with an artifact's `deployedBytecode`. */
export type CodeComparison = { same: true; immutables: number } | { same: false; reason: string };

/**
 * Compares runtime code with an artifact's `deployedBytecode`: byte for byte, except the ranges the
 * artifact's `immutableReferences` (and library link references) name, which the constructor (or
 * the linker) fills. The metadata hash at the end is compared too: it changes with any source
 * change, so a match means built from these sources. A difference in the metadata hash alone is
 * named as such.
 */
export function compareCode(onChain: string, artifact: BuiltArtifact): CodeComparison {
  const expected = hexBytes(artifact.deployedBytecode);
  const actual = hexBytes(onChain);
  if (actual.length === 0) return { same: false, reason: "there is no code at the address" };
  if (actual.length !== expected.length) {
    return { same: false, reason: `${actual.length} bytes on chain, ${expected.length} in the artifact` };
  }
  const masked = [
    ...Object.values(artifact.immutableReferences ?? {}).flat(),
    ...Object.values(artifact.deployedLinkReferences ?? {}).flatMap((file) => Object.values(file).flat()),
  ];
  for (const { start, length } of masked) {
    actual.fill(0, start, start + length);
    expected.fill(0, start, start + length);
  }
  if (Buffer.compare(actual, expected) === 0) {
    return { same: true, immutables: Object.keys(artifact.immutableReferences ?? {}).length };
  }
  const body = (code: Buffer) => code.subarray(0, code.length - 2 - code.readUInt16BE(code.length - 2));
  if (Buffer.compare(body(actual), body(expected)) === 0) {
    return {
      same: false,
      reason: "the same code but another metadata hash: built from other sources (comments or NatSpec changed?)",
    };
  }
  const at = actual.findIndex((byte, i) => byte !== expected[i]);
  return { same: false, reason: `the code differs from byte ${at} on` };
}

function hexBytes(hex: string): Buffer {
  return Buffer.from(hex.startsWith("0x") ? hex.slice(2) : hex, "hex");
}

/** Every contract's runtime code against this commit's artifact (a proxy against `ERC1967Proxy`). */
export async function checkCode(checks: Checks, ctx: ChainContext, build: BuildReader): Promise<void> {
  await checks.each(ctx.contracts, (checks, c) =>
    checks.guard(ctx.name, "code", c.name, async () => {
      const artifact = await build.artifact(c.code);
      const result = compareCode(await ctx.chain.provider.getCode(c.address), artifact);
      const what = `${c.name} ${c.address}`;
      if (result.same) {
        checks.pass(
          ctx.name,
          "code",
          `${what}: ${c.code}, as built from this commit` +
            (result.immutables > 0 ? ` (${result.immutables} immutables set at deployment)` : ""),
        );
      } else {
        checks.fail(ctx.name, "code", `${what}: not ${c.code} as built from this commit: ${result.reason}`);
      }
    }),
  );
}

/**
 * Every proxy: it points at the implementation the record names (whose code `checkCode` compared),
 * it is at the latest initializer version of that implementation, and the implementation itself is
 * locked. The latest version is what the contract says (`latestInitializerVersion()`, when it has
 * it) and what its code can reach (the highest `reinitializer(n)` in its syntax tree); they must agree.
 */
export async function checkProxies(checks: Checks, ctx: ChainContext, build: BuildReader): Promise<void> {
  const proxies = ctx.contracts.filter((c) => c.code.endsWith(":ERC1967Proxy"));
  await checks.each(proxies, (checks, proxy) =>
    checks.guard(ctx.name, "proxies", proxy.name, async () => {
      const implementation = ctx.byName(`${proxy.name}Implementation`);
      const slot = await ctx.chain.provider.getStorage(proxy.address, IMPLEMENTATION_SLOT);
      const pointsAt = getAddress(`0x${slot.slice(-40)}`);
      if (implementation === undefined) {
        checks.fail(
          ctx.name,
          "proxies",
          `${proxy.name}: a proxy (of ${ctx.label(pointsAt)}) without ${proxy.name}Implementation in the record`,
        );
        return;
      }
      checks.add(
        ctx.name,
        "proxies",
        pointsAt === implementation.address,
        pointsAt === implementation.address
          ? `${proxy.name}: points at ${implementation.name} ${implementation.address}`
          : `${proxy.name}: points at ${ctx.label(pointsAt)}, not at ${implementation.name} ${implementation.address}`,
      );

      const [version, initializing] = await initializerState(ctx, proxy.address);
      const fromCode = await build.highestInitializer(implementation.code);
      let declared: number | undefined;
      if (proxy.iface.getFunction("latestInitializerVersion") !== null) {
        declared = Number((await ctx.read(proxy, "latestInitializerVersion()"))[0]);
      }
      if (declared !== undefined && fromCode !== undefined && declared !== fromCode) {
        checks.fail(
          ctx.name,
          "proxies",
          `${proxy.name}: latestInitializerVersion() says ${declared} but its code's highest initializer is ${fromCode}`,
        );
      }
      const latest = declared ?? fromCode ?? 1;
      checks.add(
        ctx.name,
        "proxies",
        version === BigInt(latest) && !initializing,
        `${proxy.name}: initializer version ${version}${initializing ? " (still initializing)" : ""}, ` +
          `its implementation's latest is ${latest}` +
          (version < BigInt(latest) ? ` (a reinitializer up to ${latest} has not run)` : ""),
      );

      const [locked] = await initializerState(ctx, implementation.address);
      checks.add(
        ctx.name,
        "proxies",
        locked === LOCKED_VERSION,
        locked === LOCKED_VERSION
          ? `${implementation.name}: initializers disabled (nobody can initialize the implementation itself)`
          : `${implementation.name}: initializer version ${locked}, not locked: anyone may initialize it`,
      );
    }),
  );
}

/** A contract's `Initializable` state: its version and whether it is initializing. */
async function initializerState(ctx: ChainContext, address: string): Promise<[bigint, boolean]> {
  const word = BigInt(await ctx.chain.provider.getStorage(address, INITIALIZABLE_SLOT));
  return [word & LOCKED_VERSION, ((word >> 64n) & 0xffn) !== 0n];
}
