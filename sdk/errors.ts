import { AbiCoder, dataSlice, isHexString } from "ethers";
import type { Interface } from "ethers";

import { FACTORIES } from "./factories.js";

/**
 * The SDK's errors (after viem's `errors/base.ts`): every failure is a {@link BaseError} with a
 * one-line `shortMessage` for people, `details` for logs, the original error as `cause`, and
 * `walk()` to find a kind of error in the cause chain. A contract call that reverts becomes one
 * {@link ContractRevertedError}: the spec's five revert strings come back verbatim as `reason`, a
 * custom error as `errorName` with its `args`.
 */

/** What a {@link BaseError} is made of besides its short message. */
export interface BaseErrorParameters {
  /** The error this one wraps. */
  cause?: unknown;
  /** Technical detail for logs (default: the cause's message). */
  details?: string;
  /** Extra lines shown between the short message and the details. */
  metaMessages?: string[];
  /** A page of the README or docs/ that explains the error. */
  docsPath?: string;
}

/** The base of every SDK error. Its `message` is the short message, the meta lines, the docs path and the details. */
export class BaseError extends Error {
  override name = "BaseError";
  /** One line for a person (a portal shows it). */
  readonly shortMessage: string;
  /** Technical detail for logs ("" when there is none). */
  readonly details: string;
  readonly metaMessages?: string[];
  readonly docsPath?: string;

  constructor(shortMessage: string, parameters: BaseErrorParameters = {}) {
    const cause = parameters.cause;
    const details =
      parameters.details ?? (cause instanceof BaseError ? cause.details : cause instanceof Error ? cause.message : "");
    const lines = [shortMessage];
    if (parameters.metaMessages?.length) lines.push("", ...parameters.metaMessages);
    if (parameters.docsPath !== undefined) lines.push("", `Docs: ${parameters.docsPath}`);
    if (details !== "" && details !== shortMessage) lines.push("", `Details: ${details}`);
    super(lines.join("\n"), cause === undefined ? undefined : { cause });
    this.shortMessage = shortMessage;
    this.details = details;
    if (parameters.metaMessages !== undefined) this.metaMessages = parameters.metaMessages;
    if (parameters.docsPath !== undefined) this.docsPath = parameters.docsPath;
  }

  /**
   * The first error along the cause chain (this one included) for which `predicate` holds, or
   * without a predicate the innermost error; undefined when none matches.
   */
  walk(predicate?: (error: unknown) => boolean): unknown {
    let error: unknown = this;
    let last: unknown = this;
    for (let depth = 0; error !== undefined && error !== null && depth < 32; depth++) {
      if (predicate?.(error)) return error;
      last = error;
      error = (error as { cause?: unknown }).cause;
    }
    return predicate === undefined ? last : undefined;
  }
}

/** A parameter the SDK refuses before anything is sent (constant messages, as Uniswap's `invariant`). */
export class InvalidParameterError extends BaseError {
  override name = "InvalidParameterError";
  /** The parameter's name. */
  readonly parameter: string;

  constructor(parameter: string, reason: string, parameters: BaseErrorParameters = {}) {
    super(`Invalid ${parameter}: ${reason}.`, parameters);
    this.parameter = parameter;
  }
}

/** A revert decoded from its data. */
export interface DecodedRevert {
  /** `Error` for a reason string, `Panic`, a custom error's name, or undefined when no ABI knows it. */
  errorName?: string;
  /** The error's arguments by name (by position when unnamed). */
  args: Record<string, unknown>;
  /** The reason string of `Error(string)`, verbatim (the spec's five strings among them). */
  reason?: string;
  /** The first four bytes of the data. */
  selector: string;
  /** The whole revert data. */
  data: string;
}

/** A contract call or transaction that reverted. */
export class ContractRevertedError extends BaseError {
  override name = "ContractRevertedError";
  readonly errorName?: string;
  readonly args: Record<string, unknown>;
  readonly reason?: string;
  readonly selector: string;
  readonly data: string;

  constructor(revert: DecodedRevert, parameters: BaseErrorParameters & { functionName?: string } = {}) {
    const call =
      parameters.functionName === undefined ? "The contract" : `The contract function "${parameters.functionName}"`;
    super(`${call} reverted: ${describeRevert(revert)}`, parameters);
    this.errorName = revert.errorName;
    this.args = revert.args;
    if (revert.reason !== undefined) this.reason = revert.reason;
    this.selector = revert.selector;
    this.data = revert.data;
  }
}

const ERROR_STRING = "0x08c379a0"; // Error(string)
const PANIC = "0x4e487b71"; // Panic(uint256)

/** Every protocol contract's interface, whose custom errors {@link decodeRevertData} names. */
export const PROTOCOL_INTERFACES: readonly Interface[] = Object.values(FACTORIES).map((factory) =>
  factory.createInterface(),
);

/** Decodes revert data: `Error(string)`, `Panic(uint256)`, or a custom error of one of `interfaces`. */
export function decodeRevertData(data: string, interfaces: readonly Interface[] = PROTOCOL_INTERFACES): DecodedRevert {
  const selector = dataSlice(data, 0, 4);
  const coder = AbiCoder.defaultAbiCoder();
  if (selector === ERROR_STRING) {
    const [reason] = coder.decode(["string"], dataSlice(data, 4)) as unknown as [string];
    return { errorName: "Error", args: { reason }, reason, selector, data };
  }
  if (selector === PANIC) {
    const [code] = coder.decode(["uint256"], dataSlice(data, 4)) as unknown as [bigint];
    return { errorName: "Panic", args: { code }, selector, data };
  }
  for (const iface of interfaces) {
    const parsed = iface.parseError(data);
    if (parsed === null) continue;
    const args: Record<string, unknown> = {};
    parsed.fragment.inputs.forEach((input, i) => (args[input.name || String(i)] = parsed.args[i] as unknown));
    return { errorName: parsed.name, args, selector, data };
  }
  return { args: {}, selector, data };
}

/** The revert data an ethers error carries anywhere along its chain, if it is a revert. */
export function revertDataOf(error: unknown): string | undefined {
  for (let e = error as Record<string, unknown> | undefined, depth = 0; e && depth < 5; depth++) {
    if (typeof e.data === "string" && isHexString(e.data) && e.data.length >= 10) return e.data;
    const info = e.info as { error?: { data?: unknown } } | undefined;
    if (typeof info?.error?.data === "string" && isHexString(info.error.data)) return info.error.data;
    e = (e.error ?? e.cause) as Record<string, unknown> | undefined;
  }
  return undefined;
}

/**
 * The error an action throws for a failed call: a {@link ContractRevertedError} when `error` is a
 * revert, the error itself when it is already a {@link BaseError}, else a {@link BaseError}
 * wrapping it.
 */
export function getContractError(error: unknown, context: { functionName?: string } = {}): BaseError {
  if (error instanceof BaseError) return error;
  const data = revertDataOf(error);
  if (data !== undefined) return new ContractRevertedError(decodeRevertData(data), { cause: error, ...context });
  const what = context.functionName === undefined ? "The call" : `The call of "${context.functionName}"`;
  return new BaseError(`${what} failed.`, { cause: error });
}

function describeRevert(revert: DecodedRevert): string {
  if (revert.reason !== undefined) return `"${revert.reason}"`;
  if (revert.errorName === "Panic") return `panic 0x${(revert.args.code as bigint).toString(16)}`;
  if (revert.errorName === undefined) return `unknown error ${revert.selector}`;
  const args = Object.entries(revert.args).map(([name, value]) => `${name}=${String(value)}`);
  return `${revert.errorName}(${args.join(", ")})`;
}

/**
 * A user has registered no access key, so there is nothing to encrypt their access details to: a
 * provider waits (and tells why) rather than fulfilling blind (DESIGN.md section 5b).
 */
export class AccessKeyNotRegisteredError extends BaseError {
  override name = "AccessKeyNotRegisteredError";
  /** The user without a key. */
  readonly user: string;

  constructor(user: string, parameters: BaseErrorParameters = {}) {
    super(`${user} has registered no access key.`, {
      details: "the user registers one (registerAccessKey) before access details can be encrypted to them",
      ...parameters,
    });
    this.user = user;
  }
}
