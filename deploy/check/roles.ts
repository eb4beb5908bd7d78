import { ZeroAddress, getAddress, id } from "ethers";
import type { Log } from "ethers";

import { Roles } from "@compute-capacity/sdk/constants";
import type { RoleName } from "@compute-capacity/sdk/constants";
import type { ChainContext, ReadableContract } from "./context.js";
import type { Checks } from "./report.js";

/** Who may hold a role: the chain's governance, a contract of the deployment, the governor, nobody in particular (the zero address: open), or an account a parameter names. */
export type Holder = "governance" | "contract" | "governor" | "open" | "approver" | "arbitrator" | "guardian";

/**
 * Who may hold each role of `sdk/roles.ts`, on every contract of a chain. A role missing here fails
 * the check, so a new role is never let through unexamined.
 * - admin, governance and upgrade roles: the timelock (primary chain) or the executor (satellites);
 * - the roles one contract of the protocol grants another (minting, burning, the registry's and
 *   the verifier's callers): contracts of the deployment;
 * - the operational roles: the multisig the parameter file names;
 * - the timelock's own roles: proposing and cancelling by the governor; executing by anyone.
 */
export const ROLE_HOLDERS: Record<RoleName, readonly Holder[]> = {
  DEFAULT_ADMIN: ["governance"],
  GOVERNANCE: ["governance"],
  UPGRADER: ["governance"],
  MINTER: ["contract"],
  BURNER: ["contract"],
  MINTING_AGENT: ["contract"],
  REDEMPTION_MANAGER: ["contract"],
  CONSUMER: ["contract"],
  APPROVER: ["approver"],
  ARBITRATOR: ["arbitrator"],
  GUARDIAN: ["guardian"],
  TIMELOCK_PROPOSER: ["governor"],
  TIMELOCK_CANCELLER: ["governor"],
  TIMELOCK_EXECUTOR: ["open"],
};

const ROLE_GRANTED = id("RoleGranted(bytes32,address,address)");
const ROLE_REVOKED = id("RoleRevoked(bytes32,address,address)");
/** Blocks per `eth_getLogs` request at first (halved on a refusal, as providers cap ranges). */
export const LOG_CHUNK = 10_000;

/** Role -> holders, per contract address (lower case), as the role events left them. */
export type Holdings = Map<string, Map<string, Set<string>>>;

const roleName = (role: string): RoleName | undefined =>
  (Object.entries(Roles) as Array<[RoleName, string]>).find(([, value]) => value === role)?.[0];

/**
 * Every role of every AccessControl contract of the chain: who holds it, from the role events
 * since the deployment's first block (a role changes hands only through `_grantRole` and
 * `_revokeRole`, which emit them), cross-checked with `hasRole`. Fails, naming the contract, role
 * and account, on a holder the policy ({@link ROLE_HOLDERS}) does not allow (the deployer above
 * all), an unknown role, an admin or upgrade role nobody in governance holds, a role granted and
 * then left with nobody; and proves the deployer holds none of the known roles anywhere with
 * `hasRole` itself. Returns the holdings for the parameter and governance checks.
 */
export async function checkRoles(checks: Checks, ctx: ChainContext): Promise<Holdings> {
  const holdings: Holdings = new Map();
  const controlled = ctx.stateful.filter(
    (c) => c.iface.getFunction("hasRole") !== null && c.iface.getEvent("RoleGranted") !== null,
  );
  if (controlled.length === 0) return holdings;
  const everGranted = new Map<string, Set<string>>();
  const logs = await roleLogs(
    ctx,
    controlled.map((c) => c.address),
  );
  for (const log of logs) {
    const contract = log.address.toLowerCase();
    const role = log.topics[1];
    const account = getAddress(`0x${log.topics[2].slice(-40)}`).toLowerCase();
    const roles = holdings.get(contract) ?? new Map<string, Set<string>>();
    holdings.set(contract, roles);
    const holders = roles.get(role) ?? new Set<string>();
    roles.set(role, holders);
    if (log.topics[0] === ROLE_GRANTED) {
      holders.add(account);
      everGranted.set(contract, (everGranted.get(contract) ?? new Set()).add(role));
    } else {
      holders.delete(account);
    }
  }

  await checks.each(controlled, (checks, contract) =>
    checks.guard(ctx.name, "roles", contract.name, async () => {
      const roles = holdings.get(contract.address.toLowerCase()) ?? new Map<string, Set<string>>();
      const known = Object.values(Roles) as string[];
      const granted = [...(everGranted.get(contract.address.toLowerCase()) ?? [])].sort(
        (a, b) => (known.indexOf(a) + 1 || 99) - (known.indexOf(b) + 1 || 99),
      );
      for (const role of granted) {
        const name = roleName(role);
        const holders = [...(roles.get(role) ?? [])];
        const label = name ?? `${role} (not in sdk/roles.ts)`;
        if (holders.length === 0) {
          checks.fail(ctx.name, "roles", `${contract.name} ${label}: granted once, now held by nobody`);
          continue;
        }
        // the events say who holds it; hasRole must say the same
        const confirmed = await Promise.all(
          holders.map(async (h) => Boolean((await ctx.read(contract, "hasRole(bytes32,address)", [role, h]))[0])),
        );
        const problems = holders
          .map((h, i) =>
            confirmed[i] ? allowed(ctx, name, h) : `hasRole denies what the events say of ${ctx.label(h)}`,
          )
          .filter((p): p is string => p !== undefined);
        const who = holders.map((h) => ctx.label(h)).join(", ");
        const open = name !== undefined && ROLE_HOLDERS[name]?.includes("open") === true ? " (anyone)" : "";
        checks.add(
          ctx.name,
          "roles",
          problems.length === 0,
          problems.length === 0
            ? `${contract.name} ${label}: ${who}${open}`
            : `${contract.name} ${label}: held by ${who}: ${problems.join("; ")}`,
        );
      }
      await requireGovernance(checks, ctx, contract, roles);
      await checkDeployerHoldsNothing(checks, ctx, contract);
    }),
  );
  for (const contract of ctx.stateful.filter((c) => c.iface.getFunction("owner") !== null)) {
    await checks.guard(ctx.name, "roles", `${contract.name}.owner()`, async () => {
      const owner = String((await ctx.read(contract, "owner()"))[0]);
      const ok = ctx.governance !== undefined && owner.toLowerCase() === ctx.governance.toLowerCase();
      checks.add(ctx.name, "roles", ok, `${contract.name}.owner(): ${ctx.label(owner)}`);
    });
  }
  return holdings;
}

/** Why `holder` may not hold the role `name`, or undefined when the policy allows it. */
function allowed(ctx: ChainContext, name: RoleName | undefined, holder: string): string | undefined {
  if (ctx.isDeployer(holder)) return `${ctx.label(holder)} must hold nothing after the hand-off`;
  if (name === undefined) return "a role the protocol does not define";
  const policy = ROLE_HOLDERS[name];
  if (policy === undefined) return `no policy for ${name} in ROLE_HOLDERS (deploy/check/roles.ts)`;
  const is = (h: Holder): boolean => {
    switch (h) {
      case "governance":
        return ctx.governance !== undefined && holder === ctx.governance.toLowerCase();
      case "contract":
        return ctx.stateful.some((c) => c.address.toLowerCase() === holder);
      case "governor":
        return ctx.byName("ProtocolGovernor")?.address.toLowerCase() === holder;
      case "open":
        return holder === ZeroAddress;
      default: {
        const value = ctx.chain.parameters[h];
        return typeof value === "string" && value.toLowerCase() === holder;
      }
    }
  };
  if (policy.some(is)) return undefined;
  const who = policy
    .map((h) =>
      h === "governance"
        ? "the chain's governance"
        : h === "contract"
          ? "a contract of the deployment"
          : h === "governor"
            ? "the governor"
            : h === "open"
              ? "the zero address (anyone)"
              : `the ${h}`,
    )
    .join(" or ");
  return `${ctx.label(holder)} may not hold it (only ${who})`;
}

/** The admin role everywhere, and the upgrade role on every upgradeable contract, belong to governance. */
async function requireGovernance(
  checks: Checks,
  ctx: ChainContext,
  contract: ReadableContract,
  roles: Map<string, Set<string>>,
): Promise<void> {
  const required: RoleName[] = ["DEFAULT_ADMIN"];
  if (contract.code.endsWith(":ERC1967Proxy")) required.push("UPGRADER");
  for (const name of required) {
    const held = ctx.governance !== undefined && roles.get(Roles[name])?.has(ctx.governance.toLowerCase()) === true;
    if (!held) {
      checks.fail(
        ctx.name,
        "roles",
        `${contract.name} ${name}: not held by the chain's governance (${ctx.governance === undefined ? "none in the record" : ctx.label(ctx.governance)})`,
      );
    }
  }
}

/** `hasRole(role, deployer)` is false for every role of `sdk/roles.ts`: the direct proof, events aside. */
async function checkDeployerHoldsNothing(checks: Checks, ctx: ChainContext, contract: ReadableContract): Promise<void> {
  for (const deployer of ctx.chain.deployers) {
    const answers = await Promise.all(
      Object.values(Roles).map(
        async (role) => (await ctx.read(contract, "hasRole(bytes32,address)", [role, deployer]))[0],
      ),
    );
    const held = Object.keys(Roles).filter((_, i) => answers[i] === true);
    checks.add(
      ctx.name,
      "roles",
      held.length === 0,
      held.length === 0
        ? `${contract.name}: the deployer ${deployer} holds none of the ${Object.keys(Roles).length} roles`
        : `${contract.name}: the deployer ${deployer} still holds ${held.join(", ")}`,
    );
  }
}

/** The role events of `addresses` from the deployment's first block on, in order, in ranges the provider accepts. */
async function roleLogs(ctx: ChainContext, addresses: string[]): Promise<Log[]> {
  const provider = ctx.chain.provider;
  const latest = await provider.getBlockNumber();
  const logs: Log[] = [];
  let from = ctx.chain.fromBlock;
  let chunk = LOG_CHUNK;
  while (from <= latest) {
    const to = Math.min(latest, from + chunk - 1);
    try {
      logs.push(
        ...(await provider.getLogs({
          address: addresses,
          topics: [[ROLE_GRANTED, ROLE_REVOKED]],
          fromBlock: from,
          toBlock: to,
        })),
      );
      from = to + 1;
    } catch (error) {
      if (chunk === 1) throw error;
      chunk = Math.max(1, Math.floor(chunk / 2));
    }
  }
  return logs.sort((a, b) => a.blockNumber - b.blockNumber || a.index - b.index);
}
