import { NEEDS_DECISION, StateFile } from "./state.js";
import type { AgentState, RedemptionRecord } from "./state.js";

/** A `retry` or `abandon` the state of the redemption does not allow (printed as is, exit status 1). */
export class DecisionError extends Error {
  override name = "DecisionError";
}

/** What the provider decides about a redemption the agent could not provision. */
export type Decision = "retry" | "abandon";

/** The statuses each decision applies to (a retry also takes back an abandon). */
const FROM: Record<Decision, ReadonlyArray<RedemptionRecord["status"]>> = {
  retry: ["failed", "abandoned"],
  abandon: ["failed", "retry", "waiting_for_key"],
};

/**
 * The record after a decision: `retry` gives the agent a new round of attempts (the count starts
 * again; the last error stays until one succeeds), `abandon` makes the agent leave the redemption
 * alone. Refuses a redemption the agent never saw, and one in a status the decision does not apply
 * to (naming it).
 */
export function decide(decision: Decision, id: string, record: RedemptionRecord | undefined): RedemptionRecord {
  if (record === undefined) {
    throw new DecisionError(`redemption ${id} is not in the state file: the agent has not seen it`);
  }
  if (!FROM[decision].includes(record.status)) {
    throw new DecisionError(
      `redemption ${id} is ${record.status}: ${decision} applies to ${FROM[decision].join(", ")} redemptions`,
    );
  }
  if (decision === "retry") return { ...record, status: "retry", attempts: 0, retries: (record.retries ?? 0) + 1 };
  return { ...record, status: "abandoned" };
}

/**
 * Applies a decision to the state file, safely while the agent runs (the file's lock; the agent
 * reads it again at its next pass and never overwrites a decision), and says what happens next.
 */
export function applyDecision(stateFile: string, decision: Decision, id: string): string {
  const record = StateFile.update(stateFile, id, (current) => decide(decision, id, current));
  return decision === "retry"
    ? `redemption ${id}: retry ${record.retries} requested; the agent provisions it again at its next pass ` +
        `(or when it starts), with a new round of attempts`
    : `redemption ${id}: abandoned; the agent leaves it alone. It stays pending on-chain: after its deadline ` +
        `anyone may expire it, which compensates the user from the provider's collateral`;
}

/** `npm run provider -- status`: one line per redemption, the ones waiting for a decision marked and summed up. */
export function describeState(state: AgentState): string[] {
  const lines = [`provider ${state.provider}`];
  const waiting: string[] = [];
  for (const [id, r] of Object.entries(state.redemptions)) {
    const extra = [
      r.leaseEnd === undefined ? "" : `lease until ${new Date(r.leaseEnd * 1000).toISOString()}`,
      r.deprovisioned === undefined ? "" : `deprovisioned (${r.deprovisioned})`,
      r.retries === undefined ? "" : `retried ${r.retries} time${r.retries === 1 ? "" : "s"}`,
      r.error === undefined ? "" : `error: ${r.error}`,
    ].filter((x) => x !== "");
    const needs = NEEDS_DECISION.includes(r.status);
    if (needs) waiting.push(id);
    lines.push(
      `  redemption ${id}: ${r.status}${extra.length > 0 ? `, ${extra.join(", ")}` : ""}` +
        (needs ? `  <- needs a decision: npm run provider -- retry ${id}, or abandon ${id}` : ""),
    );
  }
  lines.push(
    waiting.length === 0
      ? "No redemption needs a decision."
      : `${waiting.length} redemption${waiting.length === 1 ? " needs" : "s need"} a decision (retry or abandon): ${waiting.join(", ")}`,
  );
  return lines;
}
