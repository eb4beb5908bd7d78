import { AbiCoder, Interface, dataSlice, isHexString } from "ethers";
import type { InterfaceAbi } from "ethers";

import { protocolErrorsAbi } from "./abis/errors.js";
import { BaseError, ContractRevertedError } from "./errors.js";
import type { DecodedRevert } from "./errors.js";

/**
 * Decoding reverts against the protocol's custom errors (`abis/errors.ts`: every contract's errors
 * once, generated, without the rest of their ABIs). Apart from the error classes (errors.ts) so
 * that a bundle which only shows errors (a portal page that reads the API) carries no ABI.
 */

const ERROR_STRING = "0x08c379a0"; // Error(string)
const PANIC = "0x4e487b71"; // Panic(uint256)

let protocolErrors: Interface | undefined;

/** The interface of every custom error of the protocol's contracts, made on first use. */
function protocolErrorsInterface(): Interface {
  return (protocolErrors ??= new Interface(protocolErrorsAbi as InterfaceAbi));
}

/**
 * Decodes revert data: `Error(string)`, `Panic(uint256)`, or a custom error of the protocol's
 * contracts (or of `interfaces`, when given: another contract's, a library's).
 */
export function decodeRevertData(data: string, interfaces?: readonly Interface[]): DecodedRevert {
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
  for (const iface of interfaces ?? [protocolErrorsInterface()]) {
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
