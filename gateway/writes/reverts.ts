import { AbiCoder, dataSlice, isHexString } from "ethers";
import type { Interface } from "ethers";

import { ProviderRegistry__factory, RedemptionManager__factory, SSTB__factory } from "../../typechain-types/index.js";
import { ApiError } from "../http/errors.js";

/** Interfaces whose custom errors a write can revert with (the manager calls the registry and sSTB). */
const INTERFACES: Interface[] = [
  RedemptionManager__factory.createInterface(),
  ProviderRegistry__factory.createInterface(),
  SSTB__factory.createInterface(),
];
const ERROR_STRING = "0x08c379a0"; // Error(string)
const PANIC = "0x4e487b71"; // Panic(uint256)

/** A decoded revert: the reason string verbatim, or a custom error's name with its arguments. */
export interface Revert {
  name: string;
  message: string;
  args: Record<string, string | number | boolean>;
}

/** The revert data an ethers error carries, if it is a revert. */
export function revertDataOf(error: unknown): string | undefined {
  for (let e = error as Record<string, unknown> | undefined, depth = 0; e && depth < 5; depth++) {
    if (typeof e.data === "string" && isHexString(e.data) && e.data.length >= 10) return e.data;
    const info = e.info as { error?: { data?: unknown } } | undefined;
    if (typeof info?.error?.data === "string" && isHexString(info.error.data)) return info.error.data;
    e = (e.error ?? e.cause) as Record<string, unknown> | undefined;
  }
  return undefined;
}

/** Decodes revert data: `Error(string)`, `Panic(uint256)` or a custom error of the protocol. */
export function decodeRevert(data: string): Revert {
  const selector = dataSlice(data, 0, 4);
  if (selector === ERROR_STRING) {
    const [reason] = AbiCoder.defaultAbiCoder().decode(["string"], dataSlice(data, 4));
    return { name: "Error", message: reason as string, args: { reason: reason as string } };
  }
  if (selector === PANIC) {
    const [code] = AbiCoder.defaultAbiCoder().decode(["uint256"], dataSlice(data, 4));
    return { name: "Panic", message: `panic 0x${(code as bigint).toString(16)}`, args: { code: Number(code) } };
  }
  for (const iface of INTERFACES) {
    const parsed = iface.parseError(data);
    if (parsed === null) continue;
    const args: Record<string, string | number | boolean> = {};
    parsed.fragment.inputs.forEach((input, i) => {
      const value = parsed.args[i] as unknown;
      args[input.name || String(i)] = typeof value === "bigint" ? value.toString() : (value as string | boolean);
    });
    const list = Object.entries(args)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(", ");
    return { name: parsed.name, message: `${parsed.name}(${list})`, args };
  }
  return { name: "unknown", message: `reverted with unknown data ${selector}`, args: { data } };
}

/**
 * A transaction that reverts (at the pre-check or when mined) -> `invalid_parameter` 400: the
 * request asked for something the contract refuses. `message` is the reason string verbatim
 * (the spec's five strings) or the custom error with its arguments; `details.revert` names it and
 * `details.args` carries the arguments. Errors that are not reverts pass through unchanged.
 */
export function revertToApiError(error: unknown): unknown {
  const data = revertDataOf(error);
  if (data === undefined) return error;
  const revert = decodeRevert(data);
  return new ApiError("invalid_parameter", revert.message, { revert: revert.name, args: revert.args });
}
