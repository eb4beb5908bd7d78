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
