import { ZeroAddress } from "ethers";

import { Roles } from "@compute-capacity/sdk/constants";
import type { RoleName } from "@compute-capacity/sdk/constants";
import type { ChainContext } from "./context.js";
import { PARAMETER_GETTERS } from "./parameters.js";
import type { Checks } from "./report.js";
import type { Holdings } from "./roles.js";
import { bridgeOf } from "./routes.js";

/**
 * Every address a contract points at (each view function without arguments that returns one
 * address, on every contract) is a contract of the deployment, an account of its parameters or a
 * contract of another of its chains: never the deployer, never an unknown account. Parameter
 * getters are left to the parameter check, `owner()` to the roles check.
 */
export async function checkWiring(
  checks: Checks,
  ctx: ChainContext,
  elsewhere: (address: string) => string | undefined,
): Promise<void> {
  const skip = new Set([
    "owner",
    ...PARAMETER_GETTERS.filter((g) => (g.inputs ?? []).length === 0).map((g) => g.getter),
  ]);
  const reads = ctx.stateful.flatMap((contract) =>
    contract.artifact.abi
      .filter(
        (item) =>
          item.type === "function" &&
          (item.stateMutability === "view" || item.stateMutability === "pure") &&
          (item.inputs ?? []).length === 0 &&
          item.outputs?.length === 1 &&
          item.outputs[0].type === "address" &&
          !skip.has(item.name!),
      )
      .map((getter) => ({ contract, getter })),
  );
  await checks.each(reads, (checks, { contract, getter }) =>
    checks.guard(ctx.name, "wiring", `${contract.name}.${getter.name}()`, async () => {
      const target = String((await ctx.read(contract, `${getter.name}()`))[0]);
      const other = elsewhere(target);
      const here = ctx.knows(target);
      // the same deployer's nonces give the same addresses on every chain: name both when both exist
      const what =
        here && other !== undefined
          ? `${ctx.label(target)} here, ${other} (one address on two chains)`
          : here || other === undefined
            ? ctx.label(target)
            : other;
      checks.add(
        ctx.name,
        "wiring",
        here || other !== undefined,
        `${contract.name}.${getter.name}() = ${what}` +
          (here || other !== undefined ? "" : ": not a contract or account of this deployment"),
      );
    }),
  );
}

/**
 * The governor, the timelock and the token are wired to each other, and the satellites to them:
 * on the primary chain the governor counts the governance token's votes and executes through the
 * timelock, the timelock takes proposals and cancellations from the governor alone, lets anyone
 * execute, and is its own only admin (the deployer's temporary admin role renounced), and the
 * bridge's escrow is out of the quorum's base; on a satellite the executor obeys the primary's
 * timelock on the primary's selector, and the chain's contracts take governance messages from
 * that executor.
 */
export async function checkGovernance(
  checks: Checks,
  ctx: ChainContext,
  holdings: Holdings,
  primary: ChainContext,
): Promise<void> {
  const is = (actual: string, expected: string | undefined) =>
    expected !== undefined && actual.toLowerCase() === expected.toLowerCase();
  if (ctx.chain.role === "primary") {
    const timelock = ctx.governance;
    const token = ctx.byName("GovernanceToken");
    const governors = ctx.having("timelock").filter((c) => c.iface.getFunction("token") !== null);
    if (governors.length === 0) checks.fail(ctx.name, "governance", "no governor in the record");
    for (const governor of governors) {
      await checks.guard(ctx.name, "governance", governor.name, async () => {
        const votes = String((await ctx.read(governor, "token()"))[0]);
        checks.add(
          ctx.name,
          "governance",
          is(votes, token?.address),
          `${governor.name}.token() = ${ctx.label(votes)} (the governance token: ${token?.address ?? "none in the record"})`,
        );
        const executes = String((await ctx.read(governor, "timelock()"))[0]);
        checks.add(
          ctx.name,
          "governance",
          is(executes, timelock),
          `${governor.name}.timelock() = ${ctx.label(executes)} (the timelock: ${timelock ?? "none in the record"})`,
        );
        const exactly = (name: RoleName, expected: string, what: string) => {
          const holders = [...(holdings.get(timelock!.toLowerCase())?.get(Roles[name]) ?? [])];
          const ok = holders.length === 1 && holders[0] === expected.toLowerCase();
          checks.add(
            ctx.name,
            "governance",
            ok,
            `ProtocolTimelock ${name}: ${holders.length === 0 ? "nobody" : holders.map((h) => ctx.label(h)).join(", ")}` +
              (ok ? ` (${what})` : `; expected ${what} alone`),
          );
        };
        if (timelock !== undefined) {
          exactly("TIMELOCK_PROPOSER", governor.address, "the governor");
          exactly("TIMELOCK_CANCELLER", governor.address, "the governor");
          exactly("TIMELOCK_EXECUTOR", ZeroAddress, "anyone, once the delay is over");
          exactly("DEFAULT_ADMIN", timelock, "the timelock itself: the deployer's admin role renounced");
        }
      });
    }
    const bridge = bridgeOf(ctx);
    if (token !== undefined && bridge !== undefined && token.iface.getFunction("isExcludedFromVotingSupply") !== null) {
      await checks.guard(ctx.name, "governance", "GovernanceToken.isExcludedFromVotingSupply", async () => {
        const excluded = Boolean((await ctx.read(token, "isExcludedFromVotingSupply(address)", [bridge.address]))[0]);
        checks.add(
          ctx.name,
          "governance",
          excluded,
          `${token.name}: ${bridge.name}'s escrow ${excluded ? "is" : "is NOT"} excluded from the voting supply (the quorum's base)`,
        );
      });
    }
  } else {
    const executor = ctx.governance;
    const executors = ctx.contracts.filter((c) => c.address.toLowerCase() === executor?.toLowerCase());
    if (executors.length === 0) checks.fail(ctx.name, "governance", "no SatelliteExecutor in the record");
    for (const contract of executors) {
      await checks.guard(ctx.name, "governance", contract.name, async () => {
        const obeys = String((await ctx.read(contract, "primaryTimelock()"))[0]);
        checks.add(
          ctx.name,
          "governance",
          is(obeys, primary.governance),
          `${contract.name}.primaryTimelock() = ${obeys} (${primary.name}'s timelock: ${primary.governance ?? "none"})`,
        );
        const on = BigInt((await ctx.read(contract, "primaryChainSelector()"))[0]);
        const expected = primary.chain.parameters.chainSelector;
        checks.add(
          ctx.name,
          "governance",
          on === expected,
          `${contract.name}.primaryChainSelector() = ${on} (${primary.name}'s selector: ${String(expected)})`,
        );
      });
    }
  }
  // which executor runs governance messages: the satellite's own, none on the primary chain (the
  // bridge's `governanceExecutor()` before issue 23, the governance channel's `executor()` after)
  for (const getter of ["governanceExecutor", "executor"]) {
    for (const contract of ctx.having(getter)) {
      await checks.guard(ctx.name, "governance", `${contract.name}.${getter}()`, async () => {
        const runner = String((await ctx.read(contract, `${getter}()`))[0]);
        const expected = ctx.chain.role === "primary" ? ZeroAddress : ctx.governance;
        checks.add(
          ctx.name,
          "governance",
          is(runner, expected),
          `${contract.name}.${getter}() = ${ctx.label(runner)}` +
            (ctx.chain.role === "primary" ? " (none on the primary chain)" : " (the satellite executor)"),
        );
      });
    }
  }
}
