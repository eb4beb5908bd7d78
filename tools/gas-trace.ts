import type { HardhatEthers } from "@nomicfoundation/hardhat-ethers/types";

/** One step of a `debug_traceTransaction` struct log (the fields this module reads). */
interface StructLog {
  pc: number;
  op: string;
  gas: number;
  gasCost: number;
  depth: number;
  stack?: string[];
}

/** A storage access, a log or a call, in execution order, with the gas it cost itself. */
export interface TraceEvent {
  depth: number;
  op: string;
  gas: number;
  /** SLOAD/SSTORE key, LOG topic0, or CALL target. */
  detail: string;
  /** The address executing (the storage owner for SLOAD/SSTORE). */
  context: string;
}

/** Gas of a transaction split by what it paid for. */
export interface GasBreakdown {
  gasUsed: bigint;
  /** 21,000 plus calldata (the transaction's intrinsic gas). */
  intrinsic: number;
  /** Net storage refund (gas used = intrinsic + execution - refund). */
  refund: number;
  /** Execution gas by category: sload-cold, sload-warm, sstore, log, call (the opcode's own cost:
   * cold account access, value, memory expansion), keccak, other (arithmetic, stack, memory). */
  byCategory: Record<string, number>;
  /** Execution gas by call depth (1 = the called contract). */
  byDepth: Record<number, number>;
  events: TraceEvent[];
}

const CALLS = new Set(["CALL", "STATICCALL", "DELEGATECALL", "CALLCODE"]);

/** The calldata part of intrinsic gas: 4 per zero byte, 16 per other byte (no access list). */
function calldataGas(data: string): number {
  let gas = 0;
  for (let i = 2; i < data.length; i += 2) gas += data.slice(i, i + 2) === "00" ? 4 : 16;
  return gas;
}

function word(stackItem: string | undefined): string {
  return "0x" + (stackItem ?? "").replace(/^0x/, "").padStart(64, "0");
}

/**
 * Splits a mined transaction's gas by opcode category and call depth from the node's
 * `debug_traceTransaction` (EDR's struct logs). Every step's own cost is the gas left before it
 * less the gas left before the next step at its depth; a call's own cost is what the call took
 * less everything its callee spent.
 */
export async function traceGas(ethers: HardhatEthers, hash: string): Promise<GasBreakdown> {
  const tx = (await ethers.provider.getTransaction(hash))!;
  const receipt = (await ethers.provider.getTransactionReceipt(hash))!;
  const trace = (await ethers.provider.send("debug_traceTransaction", [hash, {}])) as {
    gas: number;
    structLogs: StructLog[];
  };
  const logs = trace.structLogs;
  const byCategory: Record<string, number> = {};
  const byDepth: Record<number, number> = {};
  const events: TraceEvent[] = [];
  const add = (category: string, depth: number, gas: number) => {
    byCategory[category] = (byCategory[category] ?? 0) + gas;
    byDepth[depth] = (byDepth[depth] ?? 0) + gas;
  };
  // the address whose storage each depth touches (a DELEGATECALL keeps its caller's)
  const contexts: string[] = [];
  contexts[1] = tx.to!.toLowerCase();
  // for each call step, the gas its callee spent, filled in when the callee returns
  const open: { index: number; inner: number }[] = [];
  const own = new Array<number>(logs.length).fill(0);

  for (let i = 0; i < logs.length; i++) {
    const step = logs[i];
    const next = logs[i + 1];
    if (next !== undefined && next.depth > step.depth) {
      open.push({ index: i, inner: 0 });
      const target = "0x" + word(step.stack?.at(-2)).slice(-40);
      contexts[next.depth] = step.op === "DELEGATECALL" ? contexts[step.depth] : target;
      events.push({ depth: step.depth, op: step.op, gas: 0, detail: target, context: contexts[step.depth] });
      continue;
    }
    const cost = next !== undefined && next.depth === step.depth ? step.gas - next.gas : step.gasCost;
    own[i] = cost;
    if (open.length > 0) open[open.length - 1].inner += cost;
    if (next !== undefined && next.depth < step.depth) {
      // the callee returns: its call step's own cost is the rest of what the call took
      const call = open.pop()!;
      const callStep = logs[call.index];
      const callOwn = callStep.gas - next.gas - call.inner;
      own[call.index] = callOwn;
      const ev = events.findLast((e) => e.depth === callStep.depth && CALLS.has(e.op) && e.gas === 0);
      if (ev) ev.gas = callOwn;
      add("call", callStep.depth, callOwn);
      if (open.length > 0) open[open.length - 1].inner += call.inner + callOwn;
    }
    let category = "other";
    if (step.op === "SLOAD") {
      category = cost >= 2100 ? "sload-cold" : "sload-warm";
      events.push({
        depth: step.depth,
        op: step.op,
        gas: cost,
        detail: word(step.stack?.at(-1)),
        context: contexts[step.depth],
      });
    } else if (step.op === "SSTORE") {
      category = "sstore";
      events.push({
        depth: step.depth,
        op: step.op,
        gas: cost,
        detail: word(step.stack?.at(-1)),
        context: contexts[step.depth],
      });
    } else if (step.op.startsWith("LOG")) {
      category = "log";
      events.push({
        depth: step.depth,
        op: step.op,
        gas: cost,
        detail: step.op === "LOG0" ? "" : word(step.stack?.at(-3)),
        context: contexts[step.depth],
      });
    } else if (step.op === "EXTCODESIZE" || step.op === "EXTCODEHASH" || step.op === "BALANCE") {
      // Solidity checks a callee's code size before a call that returns nothing: this is where
      // such a callee's cold access is paid
      category = "call";
      events.push({
        depth: step.depth,
        op: step.op,
        gas: cost,
        detail: "0x" + word(step.stack?.at(-1)).slice(-40),
        context: contexts[step.depth],
      });
    } else if (step.op === "KECCAK256") {
      category = "keccak";
    } else if (CALLS.has(step.op)) {
      category = "call"; // a call to an account without code
    }
    add(category, step.depth, cost);
  }

  const intrinsic = 21_000 + calldataGas(tx.data);
  const execution = Object.values(byCategory).reduce((a, b) => a + b, 0);
  const refund = intrinsic + execution - Number(receipt.gasUsed);
  return { gasUsed: receipt.gasUsed, intrinsic, refund, byCategory, byDepth, events };
}

/** A plain-text rendering of {@link traceGas}'s result, names given by `label(event)`. */
export function renderBreakdown(b: GasBreakdown, label: (e: TraceEvent) => string = () => ""): string {
  const lines = [
    `gas used ${b.gasUsed} = intrinsic ${b.intrinsic} + execution ${
      Number(b.gasUsed) - b.intrinsic + b.refund
    } - refund ${b.refund}`,
    "by category: " +
      Object.entries(b.byCategory)
        .sort((x, y) => y[1] - x[1])
        .map(([k, v]) => `${k} ${v}`)
        .join(", "),
    "by depth: " +
      Object.entries(b.byDepth)
        .map(([k, v]) => `${k}: ${v}`)
        .join(", "),
  ];
  for (const e of b.events) {
    lines.push(`${"  ".repeat(e.depth - 1)}${e.op} ${e.gas} ${e.detail.slice(0, 20)}… ${label(e)}`);
  }
  return lines.join("\n");
}
