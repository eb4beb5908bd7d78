import { Roles } from "@compute-capacity/sdk/constants";
import type { RoleName } from "@compute-capacity/sdk/constants";
import type { ChainContext } from "./context.js";
import type { Checks } from "./report.js";
import type { Holdings } from "./roles.js";

/**
 * The getters that return a parameter, by name: every contract of the chain whose interface has
 * one is compared with the parameter file, so a contract that moves a getter (or a new contract
 * that repeats one) is checked where it is. `fields` are the parameters a getter's outputs are, in
 * order; `args` its arguments.
 */
export const PARAMETER_GETTERS: ReadonlyArray<{
  getter: string;
  inputs?: string[];
  args?: unknown[];
  fields: string[];
}> = [
  { getter: "treasury", fields: ["treasury"] },
  { getter: "collateralToken", fields: ["collateralToken"] },
  { getter: "stablecoin", fields: ["collateralToken"] },
  { getter: "paymentToken", fields: ["collateralToken"] },
  { getter: "collateralPerCU", fields: ["collateralPerCU"] },
  { getter: "uri", inputs: ["uint256"], args: [0n], fields: ["cuTokenUri"] },
  { getter: "verifiers", fields: ["verifiers"] },
  { getter: "threshold", fields: ["verifierThreshold"] },
  { getter: "votingDelay", fields: ["votingDelay"] },
  { getter: "votingPeriod", fields: ["votingPeriod"] },
  { getter: "proposalThreshold", fields: ["proposalThreshold"] },
  { getter: "quorumNumerator", fields: ["quorumPercent"] },
  { getter: "getMinDelay", fields: ["timelockDelay"] },
  { getter: "getRouter", fields: ["ccipRouter"] },
  { getter: "localChainSelector", fields: ["chainSelector"] },
  { getter: "prices", fields: ["bridgeSstbPrice", "bridgeGovernancePrice"] },
];

/** The parameters that name the account holding an operational role. */
const ROLE_PARAMETERS: Record<string, RoleName> = {
  approver: "APPROVER",
  arbitrator: "ARBITRATOR",
  guardian: "GUARDIAN",
};

/** A route's limits in the parameter files, per token (`IBridge.Token`) and direction. */
const LIMIT_FIELDS = [
  { token: 0, name: "sSTB", outbound: true, capacity: "bridgeSstbCapacity", rate: "bridgeSstbRate" },
  { token: 1, name: "STBGOV", outbound: true, capacity: "bridgeGovernanceCapacity", rate: "bridgeGovernanceRate" },
  { token: 0, name: "sSTB", outbound: false, capacity: "bridgeSstbInboundCapacity", rate: "bridgeSstbInboundRate" },
  {
    token: 1,
    name: "STBGOV",
    outbound: false,
    capacity: "bridgeGovernanceInboundCapacity",
    rate: "bridgeGovernanceInboundRate",
  },
] as const;

/**
 * Every parameter of the chain's file against the chain: through the getters that return it
 * ({@link PARAMETER_GETTERS}), the role its account holds (approver, arbitrator, guardian: on every
 * contract that grants the role, and the guardian on every pausable one), the governance token's
 * fixed supply, and every route's gas limit and rate limits (to each chain in `peers`, by CCIP
 * selector). A parameter nothing compared fails: the check lost track of where it lives.
 */
export async function checkParameters(
  checks: Checks,
  ctx: ChainContext,
  holdings: Holdings,
  peers: ReadonlyArray<{ chain: string; selector: bigint }>,
): Promise<void> {
  const parameters = ctx.chain.parameters;
  const source = ctx.chain.parameterSource;
  const compared = new Set<string>();
  const compare = (into: Checks, field: string, where: string, actual: unknown) => {
    compared.add(field);
    const expected = parameters[field];
    const ok = same(actual, expected);
    into.add(
      ctx.name,
      "parameters",
      ok,
      ok
        ? `${field} = ${show(expected)}: ${where}`
        : `${field}: ${where} is ${show(actual)}, ${source} says ${show(expected)}`,
    );
  };

  const reads = PARAMETER_GETTERS.filter(({ fields }) => fields.some((f) => f in parameters)).flatMap((entry) =>
    ctx.having(entry.getter, entry.inputs ?? []).map((contract) => ({ ...entry, contract })),
  );
  await checks.each(reads, (checks, { getter, inputs = [], args = [], fields, contract }) =>
    checks.guard(ctx.name, "parameters", `${contract.name}.${getter}()`, async () => {
      const result = await ctx.read(contract, `${getter}(${inputs.join(",")})`, args);
      fields.forEach((field, i) => {
        if (field in parameters) {
          const name = fields.length > 1 ? `${getter}().${i}` : `${getter}(${args.map(String).join(", ")})`;
          compare(checks, field, `${contract.name}.${name}`, result[i]);
        }
      });
    }),
  );

  if ("governanceSupply" in parameters) {
    const token = ctx.byName("GovernanceToken");
    if (token !== undefined) {
      await checks.guard(ctx.name, "parameters", "GovernanceToken.totalSupply()", async () =>
        compare(
          checks,
          "governanceSupply",
          "GovernanceToken.totalSupply()",
          (await ctx.read(token, "totalSupply()"))[0],
        ),
      );
    }
  }

  for (const [field, role] of Object.entries(ROLE_PARAMETERS)) {
    if (!(field in parameters)) continue;
    const account = String(parameters[field]).toLowerCase();
    // every contract where the role was ever granted: its holder must be the account (roles check: nobody else)
    const granting = ctx.stateful.filter((c) => holdings.get(c.address.toLowerCase())?.has(Roles[role]));
    // and the guardian on every contract that can be paused
    const required =
      role === "GUARDIAN" ? ctx.stateful.filter((c) => c.iface.getFunction("pausedUntil") !== null) : granting;
    for (const contract of new Set([...granting, ...required])) {
      const holds = holdings.get(contract.address.toLowerCase())?.get(Roles[role])?.has(account) === true;
      compared.add(field);
      checks.add(
        ctx.name,
        "parameters",
        holds,
        holds
          ? `${field} = ${show(parameters[field])}: holds ${role} on ${contract.name}`
          : `${field}: ${show(parameters[field])} (${source}) does not hold ${role} on ${contract.name}`,
      );
    }
    if (granting.length === 0 && required.length === 0) {
      compared.add(field);
      checks.fail(ctx.name, "parameters", `${field}: ${show(parameters[field])} holds ${role} on no contract`);
    }
  }

  const bridges = ctx.having("rateLimitOf", ["uint64", "uint8", "bool"]).filter((c) => c.iface.getFunction("routeOf"));
  const routes = bridges.flatMap((bridge) => peers.map((peer) => ({ bridge, peer })));
  await checks.each(routes, (checks, { bridge, peer }) =>
    checks.guard(ctx.name, "parameters", `${bridge.name}'s route to ${peer.chain}`, async () => {
      if ("bridgeGasLimit" in parameters) {
        const [, gasLimit] = await ctx.read(bridge, "routeOf(uint64)", [peer.selector]);
        compare(checks, "bridgeGasLimit", `${bridge.name}.routeOf(${peer.chain}).gasLimit`, gasLimit);
      }
      for (const limit of LIMIT_FIELDS) {
        if (!(limit.capacity in parameters)) continue;
        const [config] = await ctx.read(bridge, "rateLimitOf(uint64,uint8,bool)", [
          peer.selector,
          limit.token,
          limit.outbound,
        ]);
        const where = `${bridge.name} ${limit.outbound ? "to" : "from"} ${peer.chain}, ${limit.name}`;
        if (config.enabled !== true) {
          compared.add(limit.capacity);
          checks.fail(ctx.name, "parameters", `${limit.capacity}: ${where}: the limit is disabled`);
          continue;
        }
        compare(checks, limit.capacity, `${where}, capacity`, config.capacity);
        compare(checks, limit.rate, `${where}, rate`, config.rate);
      }
    }),
  );

  for (const field of Object.keys(parameters)) {
    if (!compared.has(field)) {
      checks.fail(
        ctx.name,
        "parameters",
        `${field}: nothing on ${ctx.name} was compared with it (a getter moved or is missing: deploy/check/parameters.ts)`,
      );
    }
  }
}

/** Whether an on-chain value equals a parameter: addresses without case, numbers as bigints, lists as sets. */
export function same(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) {
    const list = Array.from(actual as ArrayLike<unknown>);
    return list.length === expected.length && expected.every((e) => list.some((a) => same(a, e)));
  }
  if (typeof expected === "string" && /^0x[0-9a-fA-F]{40}$/.test(expected)) {
    return typeof actual === "string" && actual.toLowerCase() === expected.toLowerCase();
  }
  if (typeof expected === "bigint" || typeof expected === "number") {
    return (typeof actual === "bigint" || typeof actual === "number") && BigInt(actual) === BigInt(expected);
  }
  return actual === expected;
}

function show(value: unknown): string {
  if (Array.isArray(value) || (typeof value === "object" && value !== null && Symbol.iterator in value)) {
    return `[${Array.from(value as Iterable<unknown>)
      .map(show)
      .join(", ")}]`;
  }
  return typeof value === "string" && !/^0x/.test(value) ? JSON.stringify(value) : String(value);
}
