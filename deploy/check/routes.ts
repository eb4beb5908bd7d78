import { formatEther } from "ethers";

import { CCIP_CHAIN_SELECTORS } from "@compute-capacity/sdk/constants";
import type { ChainContext, ReadableContract } from "./context.js";
import type { Checks } from "./report.js";

/** A chain's bridge: the contract of its record that has routes. */
export function bridgeOf(ctx: ChainContext): ReadableContract | undefined {
  return ctx.stateful.find(
    (c) => c.iface.getFunction("routeOf") !== null && c.iface.getFunction("rateLimitOf") !== null,
  );
}

const TOKENS = [
  { token: 0, name: "sSTB" },
  { token: 1, name: "STBGOV" },
] as const;

/**
 * Both ends of every route agree: each bridge says it is on its chain's CCIP selector, each names
 * the other chain's bridge as the peer of its route there, and per token what a chain lets in from
 * a peer (capacity and rate) is at least what the peer lets out to it, so that no message the peer
 * sends exceeds the bucket that receives it (a disabled inbound limit lets in anything; a disabled
 * outbound one is more than any limit). Lines go under `A -> B`.
 */
export async function checkRoutes(checks: Checks, chains: readonly ChainContext[]): Promise<void> {
  const ends: Array<{ ctx: ChainContext; bridge: ReadableContract; selector: bigint }> = [];
  for (const ctx of chains) {
    const bridge = bridgeOf(ctx);
    if (bridge === undefined) {
      checks.fail(ctx.name, "routes", `no bridge in the record (no contract with routeOf and rateLimitOf)`);
      continue;
    }
    let selector: bigint | undefined;
    await checks.guard(ctx.name, "routes", `${bridge.name}.localChainSelector()`, async () => {
      selector = BigInt((await ctx.read(bridge, "localChainSelector()"))[0]);
      const expected = CCIP_CHAIN_SELECTORS[String(ctx.chain.chainId)];
      checks.add(
        ctx.name,
        "routes",
        selector === expected,
        `${bridge.name}.localChainSelector() = ${selector}, CCIP's selector of chain ${ctx.chain.chainId} is ${expected}`,
      );
    });
    if (selector !== undefined) ends.push({ ctx, bridge, selector });
  }

  const pairs = ends.flatMap((a) => ends.filter((b) => b !== a).map((b) => ({ a, b })));
  await checks.each(pairs, (checks, { a, b }) => {
    const route = `${a.ctx.name} -> ${b.ctx.name}`;
    return checks.guard(route, "routes", route, async () => {
      const [peer] = await a.ctx.read(a.bridge, "routeOf(uint64)", [b.selector]);
      const ok = String(peer).toLowerCase() === b.bridge.address.toLowerCase();
      checks.add(
        route,
        "routes",
        ok,
        ok
          ? `${a.ctx.name}'s ${a.bridge.name} routes selector ${b.selector} to ${b.ctx.name}'s ${b.bridge.name} ${b.bridge.address}`
          : `${a.ctx.name}'s ${a.bridge.name} routes selector ${b.selector} to ${peer}, not to ${b.ctx.name}'s ${b.bridge.name} ${b.bridge.address}`,
      );
      for (const { token, name } of TOKENS) {
        const [out] = await a.ctx.read(a.bridge, "rateLimitOf(uint64,uint8,bool)", [b.selector, token, true]);
        const [into] = await b.ctx.read(b.bridge, "rateLimitOf(uint64,uint8,bool)", [a.selector, token, false]);
        const fits =
          into.enabled !== true ||
          (out.enabled === true &&
            BigInt(into.capacity) >= BigInt(out.capacity) &&
            BigInt(into.rate) >= BigInt(out.rate));
        checks.add(
          route,
          "routes",
          fits,
          `${name}: ${b.ctx.name} lets in ${limit(into)}, ${fits ? "at least" : "LESS than"} ${a.ctx.name} lets out ${limit(out)}`,
        );
      }
    });
  });
}

/**
 * Contracts that name a peer per chain (`peerOf(uint64)`, the governance channel): between the
 * primary chain and each satellite both ends name the same-named contract on the other chain; a
 * peer between two satellites, if any, is that contract too. Lines go under `A -> B`.
 */
export async function checkPeers(checks: Checks, chains: readonly ChainContext[]): Promise<void> {
  const selectorOf = (ctx: ChainContext) => ctx.chain.parameters.chainSelector as bigint;
  const pairs = chains.flatMap((a) =>
    a
      .having("peerOf", ["uint64"])
      .flatMap((contract) => chains.filter((b) => b !== a).map((b) => ({ a, b, contract }))),
  );
  await checks.each(pairs, (checks, { a, b, contract }) => {
    const route = `${a.name} -> ${b.name}`;
    return checks.guard(route, "routes", `${contract.name}.peerOf`, async () => {
      const counterpart = b.byName(contract.name);
      const peer = String((await a.read(contract, "peerOf(uint64)", [selectorOf(b)]))[0]);
      const required = a.chain.role === "primary" || b.chain.role === "primary";
      const ok =
        counterpart !== undefined &&
        (peer.toLowerCase() === counterpart.address.toLowerCase() || (!required && BigInt(peer) === 0n));
      checks.add(
        route,
        "routes",
        ok,
        `${a.name}'s ${contract.name}.peerOf(${b.name}) = ${BigInt(peer) === 0n ? "none" : peer}` +
          (counterpart === undefined
            ? `, but ${b.name} has no ${contract.name}`
            : ok
              ? BigInt(peer) === 0n
                ? " (no channel between satellites)"
                : ` (${b.name}'s ${contract.name})`
              : `, not ${b.name}'s ${contract.name} ${counterpart.address}`),
      );
    });
  });
}

function limit(config: { enabled: boolean; capacity: bigint; rate: bigint }): string {
  if (config.enabled !== true) return "without limit";
  return `${formatEther(config.capacity)} (refilling ${formatEther(config.rate)} a second)`;
}
